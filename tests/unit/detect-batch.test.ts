// Batch inference across streams (issue #28): frames waiting at the same moment go to a worker together and through
// the NSFW model as one batch. Real model (nsfwjs MobileNetV2, converted to ONNX, on ONNX Runtime), real worker threads: a batch gives the
// same scores and verdicts as the same frames one by one.
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import sharp from "sharp";
import type { EngineOutput, Frame, FrameRequest } from "../../server/detect/engines/engine";
import { NsfwEngine } from "../../server/detect/engines/nsfw";
import { WorkerDetectPool } from "../../server/detect/pool";
import { DEFAULT_THRESHOLDS } from "../../server/detect/settings/thresholds";
import type { FrameVerdict } from "../../server/detect/types";
import { assetFrame, patternFrame, testsrc2Frame } from "../bench/detectors";

let frames: Buffer[];
before(async () => {
  // a real photo (faces, a dinner table), a test pattern, ffmpeg's testsrc2: three different score profiles
  frames = [await assetFrame("samples.jpg"), await patternFrame(), await testsrc2Frame()];
});

const asFrame = async (jpeg: Buffer): Promise<Frame> => {
  const m = await sharp(jpeg).metadata();
  return { jpeg: new Uint8Array(jpeg), width: m.width!, height: m.height!, rgb: () => Promise.reject(new Error("not used")) };
};
const req: FrameRequest = { imgTypes: new Set(["EROTIC"]), businessTypes: new Set(), thresholds: DEFAULT_THRESHOLDS };

/** Scores equal to the model's float rounding (they are reported to 4 decimals). */
function assertSameScores(a: Record<string, number> | undefined, b: Record<string, number> | undefined, what: string): void {
  assert.ok(a && b, what);
  assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), what);
  for (const k of Object.keys(a)) assert.ok(Math.abs(a[k] - b[k]) <= 2e-4, `${what}: ${k} ${a[k]} vs ${b[k]}`);
}

test("NSFW engine: frames run as one batch score as they do one by one", async () => {
  const engine = new NsfwEngine();
  await engine.init();
  try {
    const items = await Promise.all(frames.map(async (f) => ({ frame: await asFrame(f), requested: req.imgTypes, req })));
    const single: EngineOutput[] = [];
    for (const it of items) single.push(await engine.run(it.frame, it.requested, it.req));
    const batch = await engine.runBatch(items);
    assert.equal(batch.length, items.length);
    batch.forEach((out, i) => {
      assertSameScores(out.scores, single[i].scores, `frame ${i}`);
      assert.deepEqual(out.hits.map((h) => [h.labels, h.riskLevel]), single[i].hits.map((h) => [h.labels, h.riskLevel]), `frame ${i} hits`);
    });
    // the frames differ, so a mix-up inside the batch would show
    assert.notDeepEqual(batch[0].scores, batch[1].scores);
  } finally {
    await engine.close();
  }
});

let pool: WorkerDetectPool;
before(async () => {
  pool = new WorkerDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-detect-batch"), engines: ["qrcode", "nsfw"], workers: 1, maxBatch: 3 });
  await pool.ready();
});
after(() => pool.close());

const detect = (jpeg: Buffer, lane: string, imgTypes = ["EROTIC", "QRCODE"]) =>
  pool.detectFrame({ jpeg: new Uint8Array(jpeg), imgTypes, imgBusinessTypes: [], lane, lang: "en" });
const comparable = (v: FrameVerdict) => ({ riskLevel: v.riskLevel, labels: v.allLabels.map((l) => [l.riskLabel1, l.riskLabel2, l.riskLabel3, l.riskLevel]), applied: v.applied });

test("pool: frames of different streams waiting together go as one batch, with the verdicts they get one by one", async () => {
  const alone: FrameVerdict[] = [];
  for (const [i, f] of frames.entries()) alone.push(await detect(f, `s${i}`));
  assert.equal(pool.stats().batches.count, 0, "one frame at a time: no batch");
  // the first frame takes the idle worker; the three queued behind it (three lanes) go together when it is free
  const first = detect(frames[0], "busy");
  const together = await Promise.all(frames.map((f, i) => detect(f, `s${i}`)));
  await first;
  assert.deepEqual(pool.stats().batches, { count: 1, frames: 3 });
  together.forEach((v, i) => {
    assert.deepEqual(comparable(v), comparable(alone[i]), `frame ${i}`);
    assertSameScores(v.scores?.nsfw, alone[i].scores?.nsfw, `frame ${i} nsfw`);
    assert.ok(v.timingsMs.nsfw !== undefined && v.timingsMs.qrcode !== undefined, "each frame ran both engines");
  });
});

test("pool: frames that do not ask for a batched engine are not batched", async () => {
  const before = pool.stats().batches.count;
  const first = detect(frames[0], "busy", ["QRCODE"]);
  const rest = await Promise.all(frames.map((f, i) => detect(f, `q${i}`, ["QRCODE"])));
  await first;
  assert.equal(pool.stats().batches.count, before);
  assert.ok(rest.every((v) => v.timingsMs.nsfw === undefined));
});

test("pool: a frame whose header reads but whose pixels do not fails alone; the frames batched with it get their verdicts", async () => {
  const good = await Promise.all(frames.map((f, i) => detect(f, `g${i}`)));
  // a truncated JPEG: its header (and so the batch's planning) reads, its pixels do not decode
  const broken = frames[1].subarray(0, Math.floor(frames[1].length * 0.6));
  await assert.doesNotReject(sharp(broken).metadata(), "the header of the cut JPEG still reads");
  const before = pool.stats().batches;
  const first = detect(frames[0], "busy");
  const mixed = await Promise.allSettled([detect(frames[0], "m0"), detect(broken, "bad"), detect(frames[2], "m2")]);
  await first;
  assert.deepEqual(pool.stats().batches, { count: before.count + 1, frames: before.frames + 3 }, "the three went as one batch");
  assert.equal(mixed[1].status, "rejected", "the broken frame fails");
  for (const [i, k] of [[0, 0], [2, 2]] as const) {
    const r = mixed[i];
    assert.equal(r.status, "fulfilled", `frame ${i} of the batch is not failed by the broken one`);
    assert.deepEqual(comparable(r.value), comparable(good[k]));
    assertSameScores(r.value.scores?.nsfw, good[k].scores?.nsfw, `frame ${i} nsfw`);
  }
});

test("pool: a frame not detected within jobTimeoutMs is rejected saying so, and the worker is replaced", async () => {
  const slow = new WorkerDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-detect-batch"), engines: ["qrcode"], workers: 1, jobTimeoutMs: 1 });
  try {
    await slow.ready();
    await assert.rejects(slow.detectFrame({ jpeg: new Uint8Array(frames[0]), imgTypes: ["QRCODE"], imgBusinessTypes: [], lane: "t" }), (e: Error) => e.name === "JobTimeoutError" && /within 1 ms; worker 0 restarted/.test(e.message));
    // the replacement takes work again (and times out the same way: the limit is the pool's)
    await assert.rejects(slow.detectFrame({ jpeg: new Uint8Array(frames[0]), imgTypes: ["QRCODE"], imgBusinessTypes: [], lane: "t" }), /within 1 ms/);
  } finally {
    await slow.close();
  }
});
