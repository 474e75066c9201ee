// Issue #11.7: a 3-hour stream (3,600 frames, 1,080 audio segments) stays navigable. Its own server starts with
// that history in its store (tests/support/seed-stream.ts: the contract callback bodies the receivers store), so
// the page reads exactly what it reads after a real 3-hour stream.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import type { SeededStream } from "../support/seed-stream";
import { SUPERVISOR } from "./credentials";
import { startSecondServer, type SecondServer } from "./second-server";

const FRAMES = 3600;
const SEGMENTS = 1080;
let server: SecondServer | undefined;
let seeded: SeededStream;
let context: BrowserContext | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ playwright, browser }) => {
  test.setTimeout(180_000);
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "long-stream-")), "seeded.json");
  server = await startSecondServer({ E2E_SEED_STREAM: JSON.stringify({ frames: FRAMES, segments: SEGMENTS, cadenceSec: 3 }), E2E_SEED_OUT: out, PREVIEW_RETENTION_MIN: "0" });
  seeded = JSON.parse(fs.readFileSync(out, "utf8")) as SeededStream;
  const api = await playwright.request.newContext({ baseURL: server.url });
  expect((await api.post("/api/auth/signin", { data: SUPERVISOR })).status()).toBe(200);
  context = await browser.newContext({ baseURL: server.url, storageState: await api.storageState(), viewport: { width: 1440, height: 900 } });
  await api.dispose();
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

async function openStream(): Promise<Page> {
  const page = await context!.newPage();
  await page.goto(`/streams/${seeded.requestId}`);
  // the newest page first, then the older history page by page, all of it in the end
  await expect(page.getByTestId("timeline")).toHaveAttribute("data-history", "complete", { timeout: 30_000 });
  await expect(page.getByTestId("timeline")).toHaveAttribute("data-events", String(FRAMES + SEGMENTS));
  return page;
}

const inView = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const box = el?.closest("[data-testid=frame-scroller], [data-testid=audio-scroller]")?.getBoundingClientRect();
    const r = el?.getBoundingClientRect();
    return !!(el && box && r && r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom);
  }, selector);

test("3,600 frames and 1,080 segments: bounded DOM, the oldest frame reachable, PASS runs folded and unfoldable, offset + clock times", async () => {
  const page = await openStream();
  const frames = page.getByTestId("frame-event");
  // only what is in view (plus a few) is in the DOM
  await expect(frames.first()).toBeVisible();
  expect(await frames.count()).toBeLessThan(40);
  const audioRows = page.getByTestId("audio-scroller").locator("[role=listitem]");
  expect(await audioRows.count()).toBeLessThan(40);

  // offset and clock time on frames and segments
  await expect(page.getByTestId("frame-when").first()).toHaveText(/^\+\d:\d{2}:\d{2} · \d{2}:\d{2}:\d{2}$/);
  await expect(page.getByTestId("audio-when").first()).toHaveText(/^\+\d:\d{2}:\d{2} · \d{2}:\d{2}:\d{2}–\d{2}:\d{2}:\d{2}$/);

  // scroll the frame lane to its end: the oldest frame (captured at +0:00:00) is there
  const scroller = page.getByTestId("frame-scroller");
  await expect
    .poll(async () => {
      await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      return page.getByTestId("frame-when").allTextContents();
    })
    .toContainEqual(expect.stringMatching(/^\+0:00:00 · /));
  expect(await frames.count()).toBeLessThan(40);

  // consecutive PASS segments fold into one row; unfolding lists them, folding hides them again
  const run = page.getByTestId("audio-run").first();
  await expect(run).toBeVisible();
  const inRun = Number(await run.getAttribute("data-count"));
  expect(inRun).toBeGreaterThanOrEqual(3);
  const before = Number(await page.getByTestId("audio-lane").getAttribute("data-rows"));
  await run.click();
  await expect(page.getByTestId("audio-lane")).toHaveAttribute("data-rows", String(before + inRun));
  await page.getByTestId("audio-run-fold").first().click();
  await expect(page.getByTestId("audio-lane")).toHaveAttribute("data-rows", String(before));
});

test("a click on the risk strip brings the REJECT frame of that moment into view; unchecked frames are never PASS", async () => {
  const page = await openStream();
  const strip = page.getByTestId("risk-strip");
  const duration = Number(await strip.getAttribute("data-duration"));
  const width = duration / 240;
  // a REJECT frame with no REJECT segment near it (so its slice's worst moment is that frame), deep in the past
  // the timeline places a frame at its capture time (imgTime), not when its callback arrived (0.5 s later here)
  const t = seeded.rejectFrames.find((ft) => ft > duration / 3 && !seeded.rejectSegments.some((st) => Math.abs(st - ft) < 2 * width))!;
  const froms = (await strip.getByTestId("risk-bucket").evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-from"))))).filter((f) => f <= t);
  const bucket = strip.locator(`[data-testid=risk-bucket][data-from="${Math.max(...froms)}"]`);
  await expect(bucket).toHaveAttribute("data-level", "REJECT");
  await bucket.click();
  const focused = page.locator("[data-testid=frame-event][data-focused=true]");
  await expect(focused).toHaveAttribute("data-level", "REJECT");
  await expect.poll(() => inView(page, "[data-testid=frame-event][data-focused=true]")).toBe(true);
  const hms = (x: number) => `+${Math.floor(x / 3600)}:${String(Math.floor((x % 3600) / 60)).padStart(2, "0")}:${String(Math.floor(x % 60)).padStart(2, "0")}`;
  await expect(focused.getByTestId("frame-when")).toContainText(hms(t));
  // the audio lane went to the same moment
  await expect.poll(() => inView(page, "[data-testid=audio-event][data-focused=true]")).toBe(true);

  // keyboard: End jumps to the last slice
  await strip.focus();
  await page.keyboard.press("End");
  await expect(strip).toHaveAttribute("aria-valuenow", /\d+/);
  expect(Number(await strip.getAttribute("aria-valuenow"))).toBeGreaterThan(duration - 2 * width);

  // unchecked frames: their own chip with the seeded count, each card NOT CHECKED, never counted as PASS
  await expect(page.getByTestId("not-checked-chip")).toHaveAttribute("data-count", String(seeded.notChecked.length));
  await page.getByTestId("not-checked-chip").click();
  const shown = page.getByTestId("frame-event");
  await expect(shown.first()).toHaveAttribute("data-level", "NOT_CHECKED");
  for (const level of await shown.evaluateAll((els) => els.map((e) => e.getAttribute("data-level")))) expect(level).toBe("NOT_CHECKED");
  const passChecked = FRAMES - seeded.rejectFrames.length - seeded.reviewFrames.length - seeded.notChecked.length;
  await expect(page.getByTestId("only-PASS")).toContainText(String(passChecked));
});
