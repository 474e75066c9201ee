// Keyframe-only capture of a live pull (issue #28 item 1), on real ffmpeg RTMP sources: at a cadence longer than
// the source's GOP only keyframes are decoded, each capture is the keyframe nearest its slot (within half a GOP),
// and its capture time is its own; a source whose keyframes are further apart than the cadence, or that has
// B-frames, falls back to decoding every frame, so every slot still gets its frame, in time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startLivePull, type LiveFrame, type LivePullOptions } from "../../server/ingest/live";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { waitFor } from "../support/net";

let tmp: string;
let gop2: RtmpSource;
let gop4: RtmpSource;
let bframes: RtmpSource;

before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "live-kf-"));
  [gop2, gop4, bframes] = await Promise.all([
    startRtmpSource({ name: "kf-gop2", audio: "none", bFrames: 0 }),
    startRtmpSource({ name: "kf-gop4", audio: "none", gopSec: 4, bFrames: 0 }),
    startRtmpSource({ name: "kf-bframes", audio: "none" }),
  ]);
});
after(async () => {
  await Promise.all([gop2?.close(), gop4?.close(), bframes?.close()]);
  await rm(tmp, { recursive: true, force: true });
});

let runs = 0;
async function framesOf(o: Partial<LivePullOptions> & { url: string; frameIntervalSec: number }, count: number): Promise<LiveFrame[]> {
  const frames: LiveFrame[] = [];
  const pull = startLivePull({ audio: false, ioTimeoutMs: 5000, outDir: path.join(tmp, `run-${++runs}`), onFrame: (f) => void frames.push(f), onSegment: () => {}, ...o });
  try {
    await waitFor(async () => frames.length >= count, 60_000, 50);
  } finally {
    await pull.stop();
  }
  return frames;
}

/** The source's 15 fps: one frame's duration, the timestamp tolerance. */
const FRAME = 1 / 15;

test("cadence 3 s over a 2 s GOP: keyframes only, each within half a GOP of its slot, capture time its own", async () => {
  const frames = await framesOf({ url: gop2.rtmpUrl, frameIntervalSec: 3 }, 7);
  const t = frames.map((f) => f.streamTimeSec);
  const gaps = t.slice(1).map((x, i) => x - t[i]);
  // keyframes sit 2 s apart: the nearest one to each 3 s slot is 2 or 4 s after the last (decoding every frame gives 3 s)
  for (const g of gaps) assert.ok(Math.abs(g - 2) <= FRAME || Math.abs(g - 4) <= FRAME, `gaps between captures are keyframe gaps: ${gaps.map((x) => x.toFixed(3)).join(", ")}`);
  const slots = t.map((x) => Math.round((x - t[0]) / 3));
  slots.forEach((k, i) => {
    assert.equal(k, i, `capture ${i} fills slot ${i} (no slot skipped or filled twice): ${t.join(", ")}`);
    assert.ok(Math.abs(t[i] - (t[0] + 3 * k)) <= 1 + FRAME, `capture ${i} at ${t[i]} is within half a GOP (1 s) of its slot ${t[0] + 3 * k}`);
  });
  // the capture time is the frame's own: past the join burst, capture times step exactly as the frames' media times
  for (let i = 3; i < frames.length; i++) {
    const wall = (frames[i].capturedAt.getTime() - frames[i - 1].capturedAt.getTime()) / 1000;
    assert.ok(Math.abs(wall - (t[i] - t[i - 1])) <= 0.1, `frame ${i}: capture times ${wall.toFixed(3)} s apart, media times ${(t[i] - t[i - 1]).toFixed(3)} s`);
  }
});

test("a source whose keyframes are further apart than the cadence (4 s GOP, 2 s cadence) is decoded frame by frame: every slot gets its frame", async () => {
  const frames = await framesOf({ url: gop4.rtmpUrl, frameIntervalSec: 2 }, 7);
  const t = frames.map((f) => f.streamTimeSec);
  // past the first run (keyframe-only, stopped at the first gap longer than the cadence), captures are 2 s apart
  const late = t.slice(-4);
  for (let i = 1; i < late.length; i++) assert.ok(Math.abs(late[i] - late[i - 1] - 2) <= FRAME, `2 s apart after the fallback: ${t.join(", ")}`);
});

test("a source with B-frames is decoded frame by frame (the decoder would hold each keyframe for whole GOPs): captures 3 s apart", async () => {
  const frames = await framesOf({ url: bframes.rtmpUrl, frameIntervalSec: 3 }, 5);
  const t = frames.map((f) => f.streamTimeSec).slice(-3);
  for (let i = 1; i < t.length; i++) assert.ok(Math.abs(t[i] - t[i - 1] - 3) <= FRAME, `3 s apart after the fallback: ${t.join(", ")}`);
});
