// Issue #30 item 3: DATA_DIR full. The server (embedded mode, PGlite in DATA_DIR; a real child process serving the
// dashboard) runs on a small tmpfs mounted for the test; a filler file takes the volume under DATA_DIR_MIN_FREE_MB.
// New work is refused with a documented code saying why (HTTP 200, 1903, Retry-After) and nothing half-written; what
// was stored before stays whole (its result and frames served); the process lives on; once space is freed new work is
// accepted and completes. A stream RUNNING when the disk fills pauses its pull and says why in its health (state
// "paused", "disk full: …", a stored disk_full event) and on the stream page's health strip (Chromium); every frame
// it kept is a whole JPEG; once space is freed it pulls again by itself and its frame numbers continue.
// Skipped, with the reason, where mounting a tmpfs is not permitted (not root, or no CAP_SYS_ADMIN).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "@playwright/test";
import type { StreamHealthReport } from "../../lib/stream-health";
import { moderateFile, qrStreamRequest, TEST_KEY } from "../support/app";
import { startChildServer, type ChildServer } from "../support/child-server";
import { dashboardBuildMissing, FAULT_SUPERVISOR, framesOf } from "../support/fault-cluster";
import { dashboardCall, signInDashboard } from "../support/dashboard-client";
import { startRtmpSource } from "../support/live-sources";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor } from "../support/net";

const MB = 1024 * 1024;
const mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), "fault-disk-"));
// a PGlite database takes ≈ 45 MB: 96 MB leaves room for it and a few files
const mounted = process.getuid?.() === 0 && spawnSync("mount", ["-t", "tmpfs", "-o", "size=96m", "tmpfs", mountPoint]).status === 0;
const skip = mounted ? dashboardBuildMissing : "mounting a tmpfs for DATA_DIR is not permitted here (needs root / CAP_SYS_ADMIN)";

let server: ChildServer | null = null;
let web: Awaited<ReturnType<typeof startStaticServer>> | null = null;
const filler = path.join(mountPoint, "filler.bin");

before(async () => {
  if (skip) return;
  // the dashboard too (SERVICE_ONLY 0): a running stream's health is read where an operator reads it
  server = await startChildServer({ dataDir: mountPoint, timeoutMs: 120_000, env: { DATA_DIR_MIN_FREE_MB: "16", SERVICE_ONLY: "0", SUPERVISOR_INITIAL_PASSWORD: FAULT_SUPERVISOR.password } });
  web = await startStaticServer(mediaDir());
});

after(async () => {
  await server?.stop();
  await web?.close();
  if (mounted) spawnSync("umount", ["-l", mountPoint]);
  await fs.rm(mountPoint, { recursive: true, force: true });
});

async function free(): Promise<number> {
  const st = await fs.statfs(mountPoint);
  return st.bavail * st.bsize;
}

/** Posts and returns HTTP status, Retry-After and the parsed body. */
async function postRaw(p: string, body: unknown) {
  const res = await fetch(`${server!.url}${p}`, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Record<string, unknown> };
}

test("DATA_DIR almost full: new work refused saying why, stored results whole, accepted again once space is freed", { skip, timeout: 300_000 }, async () => {
  const video = await makeVideo({ name: "fault-disk", durationSec: 4, width: 320, height: 240, fps: 5, audio: "none" });
  const first = await moderateFile(server!, web!.url, video, { btId: "disk-before", imgType: "QRCODE", data: { returnAllImg: 1 } });
  assert.ok(first.frameDetail.length >= 3, JSON.stringify(first).slice(0, 300));

  // fill the volume to 8 MB free (under the 16 MB minimum)
  await fs.writeFile(filler, Buffer.alloc(Math.max(0, (await free()) - 8 * MB)));
  assert.ok((await free()) < 16 * MB);
  const fileBody = { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "disk-during", url: `${web!.url}/${path.basename(video)}`, detectFrequency: 1 } };
  const refused = await postRaw("/video/v4", fileBody);
  const refusedStream = await postRaw("/videostream/v4", { accessKey: TEST_KEY, appId: "a", eventId: "live", imgType: "QRCODE", audioType: "NONE", imgCallback: "http://127.0.0.1:9/cb", data: { streamType: "NORMAL", url: "rtmp://127.0.0.1:9/live/x", tokenId: "d" } });
  for (const r of [refused, refusedStream]) {
    assert.equal(r.status, 200);
    assert.equal(r.body.code, 1903, JSON.stringify(r.body));
    assert.match(String(r.body.message), /DATA_DIR is almost full .*retry later/, JSON.stringify(r.body));
    assert.ok(Number(r.retryAfter) > 0, "Retry-After says when to try again");
  }
  // nothing was accepted: the refused btId is unknown
  assert.equal((await server!.post("/video/query/v4", { accessKey: TEST_KEY, btId: "disk-during" })).code, 1902);
  // what was stored before is whole: its result and its frames are served
  const again = await server!.post("/video/query/v4", { accessKey: TEST_KEY, btId: "disk-before" });
  assert.deepEqual(again, first);
  const img = await fetch(String(first.frameDetail[0].imgUrl));
  assert.equal(img.status, 200);
  assert.ok((await img.arrayBuffer()).byteLength > 1000, "the stored frame is a whole JPEG");
  assert.doesNotThrow(() => process.kill(server!.pid, 0), "the server lives on");

  // space freed: accepted again without a restart, and completes
  await fs.rm(filler);
  const after = await moderateFile(server!, web!.url, video, { btId: "disk-during", imgType: "QRCODE", data: { returnAllImg: 1 } });
  assert.equal(after.frameDetail.length, first.frameDetail.length);
});

/** A whole JPEG: starts with SOI and ends with EOI (a write cut short by a full disk does not). */
const wholeJpeg = (b: Buffer) => b.length > 100 && b[0] === 0xff && b[1] === 0xd8 && b[b.length - 2] === 0xff && b[b.length - 1] === 0xd9;

test("a RUNNING stream when DATA_DIR fills: paused saying 'disk full' in its health and on its strip, nothing half-written, pulling again once space is back", { skip, timeout: 300_000 }, async () => {
  const src = await startRtmpSource({ name: "fault-disk-live", audio: "none" });
  const rx = await startReceiver();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
  try {
    const session = await signInDashboard(server!.url, FAULT_SUPERVISOR);
    const health = async () => (await dashboardCall(session, `/api/streams/${id}/health`)).json as unknown as StreamHealthReport;
    const ack = await server!.post("/videostream/v4", qrStreamRequest(src.rtmpUrl, rx.url, { tokenId: "disk-live", returnAllImg: 1 }));
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    const id = String(ack.requestId);
    await rx.until((r) => framesOf(r, id).length >= 2, 60_000);

    // the disk fills under the running stream
    await fs.writeFile(filler, Buffer.alloc(Math.max(0, (await free()) - 8 * MB)));
    const paused = await waitFor(async () => {
      const h = await health();
      return h.snapshot?.pull.state === "paused" && h.snapshot.storage ? h : null;
    }, 30_000, 250);
    assert.match(paused.snapshot!.storage!.message, /^disk full: DATA_DIR has \d+ MB free \(under DATA_DIR_MIN_FREE_MB=16\)/);
    assert.equal(paused.snapshot!.phase, "running", "still running: paused, not ended");
    assert.ok(paused.events.some((e) => e.kind === "disk_full" && /disk full/.test(e.message)), `a stored disk_full event: ${JSON.stringify(paused.events.map((e) => e.kind))}`);
    // the stream page's health strip says why (the page a moderator has open)
    const context = await browser.newContext();
    await context.addCookies(session.cookie.split("; ").map((c) => ({ name: c.slice(0, c.indexOf("=")), value: c.slice(c.indexOf("=") + 1), url: server!.url })));
    const page = await context.newPage();
    await page.goto(`${server!.url}/streams/${id}`);
    await page.getByTestId("health-storage").filter({ hasText: "disk full" }).waitFor({ timeout: 30_000 });
    assert.match(await page.getByTestId("health-state").innerText(), /paused: disk full/);
    // nothing pulled while paused: no frame captured since the pause (checked after the page loaded)
    const atPause = paused.snapshot!.frames.captured;
    assert.equal((await health()).snapshot!.frames.captured, atPause, "no frame captured while paused");
    // every frame kept on disk is whole, and every frame called back is served whole
    const dir = path.join(mountPoint, "media", id);
    for (const f of (await fs.readdir(dir)).filter((n) => /^f\d+\.jpg$/.test(n))) assert.ok(wholeJpeg(await fs.readFile(path.join(dir, f))), `${f} is a whole JPEG`);
    const maxBefore = Math.max(...framesOf(rx.received, id));
    assert.doesNotThrow(() => process.kill(server!.pid, 0), "the server lives on");

    // space back: the stream pulls again by itself, says so, and its numbers continue
    await fs.rm(filler);
    const back = await waitFor(async () => {
      const h = await health();
      return h.snapshot?.pull.state === "connected" && !h.snapshot.storage && h.snapshot.frames.captured > atPause ? h : null;
    }, 60_000, 250);
    assert.ok(back.events.some((e) => e.kind === "disk_ok"), `a stored disk_ok event: ${JSON.stringify(back.events.map((e) => e.kind))}`);
    await page.getByTestId("health-storage").waitFor({ state: "detached", timeout: 30_000 });
    await rx.until((r) => framesOf(r, id).some((n) => n > maxBefore + 1), 60_000);
    const nums = framesOf(rx.received, id);
    assert.equal(new Set(nums).size, nums.length, `no frame number twice: ${nums.join(",")}`);
    assert.equal((await server!.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id })).code, 1100);
    await rx.until((r) => r.some((x) => x.body.requestId === id && x.body.statCode === 1), 60_000);
    await context.close();
  } finally {
    await fs.rm(filler, { force: true });
    await browser.close();
    await rx.close();
    await src.close();
  }
});
