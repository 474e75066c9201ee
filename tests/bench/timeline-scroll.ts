// Frame time of scrolling a 100,000-event stream timeline in Debian chromium (issue #11.7). The production server
// (tests/e2e/start-server.ts, `npm run build` first) starts with the history seeded in its store; the page loads
// it page by page, then both lanes are scrolled one step per animation frame while the frame intervals are recorded.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import type { SeededStream } from "../support/seed-stream";
import { SUPERVISOR } from "../e2e/credentials";
import { percentile } from "./stats";

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function benchTimelineScroll(events = Number(process.env.BENCH_TIMELINE_EVENTS ?? 100_000)) {
  if (!fs.existsSync(".next/BUILD_ID")) return { skipped: "no production build (npm run build)" };
  const frames = Math.round(events * 0.75);
  const segments = events - frames;
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-timeline-")), "seeded.json");
  const [port, rtmp, flv] = [await freePort(), await freePort(), await freePort()];
  const env = { ...process.env, E2E_PORT: String(port), E2E_RTMP_PORT: String(rtmp), E2E_RTMP_HTTP_PORT: String(flv), AUTO_INSTALL_PACKAGES: "0", PREVIEW_RETENTION_MIN: "0", E2E_SEED_STREAM: JSON.stringify({ frames, segments, cadenceSec: (segments * 10) / frames }), E2E_SEED_OUT: out };
  const seedStart = Date.now();
  const proc = spawn(process.execPath, ["--import", "tsx", "tests/e2e/start-server.ts"], { env, stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
  try {
    await until("the server", async () => ((await fetch(`${base}/api/health`)).status === 200 ? true : undefined), 300_000);
    const seedAndStartMs = Date.now() - seedStart;
    const seeded = JSON.parse(fs.readFileSync(out, "utf8")) as SeededStream;
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
    if ((await context.request.post("/api/auth/signin", { data: SUPERVISOR })).status() !== 200) throw new Error("sign-in failed");
    const apiStart = Date.now();
    const firstPage = await context.request.get(`/api/streams/${seeded.requestId}`);
    const firstPageMs = Date.now() - apiStart;
    if (firstPage.status() !== 200) throw new Error(`stream detail: ${firstPage.status()}`);

    const page = await context.newPage();
    const loadStart = Date.now();
    await page.goto(`/streams/${seeded.requestId}`);
    await page.getByTestId("frame-event").first().waitFor({ timeout: 60_000 });
    const firstPaintMs = Date.now() - loadStart;
    await page.locator("[data-testid=timeline][data-history=complete]").waitFor({ timeout: 300_000 });
    const historyMs = Date.now() - loadStart;
    const loaded = Number(await page.getByTestId("timeline").getAttribute("data-events"));

    // one scroll step per animation frame, `steps` frames, intervals between frames recorded in the page
    // (a string: tsx's helpers must not leak into code that runs in the browser)
    const scroll = (testId: string, axis: "x" | "y", steps: number) =>
      page.evaluate<number[]>(`new Promise((resolve) => {
        const el = document.querySelector("[data-testid=${testId}]");
        const span = ${axis === "x"} ? el.scrollWidth - el.clientWidth : el.scrollHeight - el.clientHeight;
        const stride = Math.max(1, span / ${steps});
        const gaps = [];
        let last = performance.now();
        let n = 0;
        function step(now) {
          if (n > 0) gaps.push(now - last);
          last = now;
          if (${axis === "x"}) el.scrollLeft += stride; else el.scrollTop += stride;
          if (++n <= ${steps}) requestAnimationFrame(step); else resolve(gaps);
        }
        requestAnimationFrame(step);
      })`);
    const summary = (gaps: number[]) => {
      const sorted = [...gaps].sort((a, b) => a - b);
      const r = (x: number) => Math.round(x * 10) / 10;
      return { frames: gaps.length, p50Ms: r(percentile(sorted, 50)), p95Ms: r(percentile(sorted, 95)), maxMs: r(sorted.at(-1) ?? 0), longFrames: gaps.filter((g) => g > 50).length };
    };
    const frameLane = summary(await scroll("frame-scroller", "x", 300));
    const audioLane = summary(await scroll("audio-scroller", "y", 300));
    const domNodes = await page.evaluate(() => document.getElementsByTagName("*").length);
    await context.close();
    return { events: loaded, seeded: seeded.events, seedAndStartMs, apiFirstPageMs: firstPageMs, firstPaintMs, wholeHistoryMs: historyMs, domNodes, frameLane, audioLane };
  } finally {
    await browser.close();
    proc.kill("SIGTERM");
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchTimelineScroll(), null, 2));
  process.exit(0);
}
