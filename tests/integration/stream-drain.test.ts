// Issue #12 items 5 (data loss at a stream's end and under overload): every frame a live task captures is
// either checked or called back as not checked (auxInfo.detectType 2), at Close, at a natural end and when
// the detectors cannot keep up; the stream-end's riskLevel counts the drained frames. Real sources (RTMP via
// the app's ingest, an FLV file over HTTP), the real detect pool; detection is made scarce with the pool's
// test hook (every job holds its worker for at least N ms).
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { readQrCodes } from "../../server/detect/engines/qrcode";
import type { WorkerDetectPool } from "../../server/detect/pool";
import { readWavPcm16 } from "../../server/ingest/wav";
import type { StreamHealth } from "../../server/task/stream-task";
import { qrStreamRequest, startTestService, TEST_KEY } from "../support/app";
import { startRtmpSource } from "../support/live-sources";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor, type Received } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Service = Awaited<ReturnType<typeof startTestService>>;

const QR = "https://spam.example/last-seconds";
const frameRequest = (url: string, cb: string, data: Json = {}) => qrStreamRequest(url, cb, { returnAllImg: 1, ...data });

const frames = (r: Received[], id?: string) => r.filter((x) => x.body.statCode === 0 && x.body.contentType === 1 && (!id || String(x.body.requestId).startsWith(`${id}_v`)));
const endOf = (r: Received[], id: string) => r.find((x) => x.body.statCode === 1 && x.body.requestId === id);
const frameIndex = (x: Received) => Number(/_v(\d+)$/.exec(String(x.body.requestId))?.[1]);
const notChecked = (x: Received) => (x.body as Json).frameDetail.auxInfo.detectType === 2;
const hasQr = (x: Received) => ((x.body as Json).frameDetail.riskDetail.objects ?? []).some((o: Json) => o.qrContent === QR);
/** auxInfo.imgTime is the server's local time "YYYY-MM-DD HH:mm:ss.SSS" */
const imgTime = (x: Received) => {
  const [d, t] = String((x.body as Json).frameDetail.auxInfo.imgTime).split(" ");
  const [y, mo, da] = d.split("-").map(Number);
  const [h, mi, s] = t.split(":");
  return new Date(y, mo - 1, da, Number(h), Number(mi), Math.floor(Number(s)), Math.round((Number(s) % 1) * 1000)).getTime();
};
/** QR reads of the captured frames `f<n>.jpg` in a stream's folder, by frame number (each file read once). */
const qrSeen = new Map<string, boolean>();
/** Whether a captured frame shows QR and a later captured frame does not (the code went away in the source). */
async function qrWentAway(dir: string): Promise<boolean> {
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => /^f\d+\.jpg$/.test(f));
  const nums = names.map((f) => Number(f.slice(1, -4))).sort((a, b) => a - b);
  for (const n of nums) {
    const file = path.join(dir, `f${n}.jpg`);
    if (qrSeen.has(file)) continue;
    const bytes = await fs.readFile(file).catch(() => null);
    if (!bytes || bytes.length < 2 || bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) break; // still being written
    qrSeen.set(file, (await readQrCodes(bytes)).codes.some((c) => c.text === QR));
  }
  const reads = nums.map((n) => qrSeen.get(path.join(dir, `f${n}.jpg`)));
  const firstQr = reads.indexOf(true);
  return firstQr >= 0 && reads.slice(firstQr + 1).includes(false);
}
const pool = (svc: Service) => svc.engine!.ctx.detect as WorkerDetectPool;
const health = (svc: Service, id: string) => svc.engine!.streams.health(id) as StreamHealth;

/** Every frame the task captured was called back exactly once, checked or not, and the counters agree. */
async function assertAccounted(svc: Service, id: string, received: Received[]) {
  // the stream-end can reach the receiver a moment before the task records its own end
  await waitFor(async () => health(svc, id).phase === "ended", 15_000);
  const h = health(svc, id);
  assert.equal(h.phase, "ended");
  const got = frames(received, id);
  const ids = got.map(frameIndex);
  assert.equal(new Set(ids).size, ids.length, "no frame called back twice");
  assert.equal(h.frames.checked + h.frames.notChecked, h.frames.captured, `checked + not checked = captured (${JSON.stringify(h.frames)})`);
  assert.equal(got.length, h.frames.captured, "every captured frame was called back (returnAllImg 1)");
  assert.equal(got.filter(notChecked).length, h.frames.notChecked, "the not-checked ones carry detectType 2");
  assert.equal(got.filter((x) => !notChecked(x)).length, h.frames.checked);
  // the stream-end was the last callback of the task
  const end = endOf(received, id)!;
  const task = received.filter((x) => String(x.body.requestId).startsWith(id));
  assert.equal(task.at(-1), end, "nothing after the stream-end");
  return h;
}

describe("a stream's end keeps the evidence", () => {
  // started when the suite runs (not when the file loads), one service at a time
  let svc: Service;
  before(async () => void (svc = await startTestService({ env: { STREAM_ADMISSION_WINDOW_SEC: "0" } })));
  after(() => svc?.close());

  test("Close: a QR code shown only in the last seconds before Close is called back and counted in the stream-end", async () => {
    // the QR code shows from 5 to 8 s of every 10 s loop; the publisher's media clock starts as it publishes
    const src = await startRtmpSource({ name: "drain-qr", audio: "none", qr: { text: QR, fromSec: 5, toSec: 8 } });
    const rx = await startReceiver();
    try {
      pool(svc).setMinJobMsForTest(1500); // detection slower than capture (1 frame/s): a backlog builds up
      const ack = await svc.post("/videostream/v4", frameRequest(src.rtmpUrl, rx.url));
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = ack.requestId as string;
      await waitFor(async () => health(svc, id).frames.captured >= 1, 20_000);
      // Close once the QR code went away in what the task captured: a captured frame (read from its JPEG on disk, by
      // the same QR reader the detectors use) shows the code and a later one no longer does
      await waitFor(async () => (await qrWentAway(path.join(svc.engine!.ctx.mediaRoot, id))) || null, 40_000, 200);
      const closeAt = Date.now();
      const close = await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
      assert.equal(close.code, 1100);
      // Close answers once the pull stopped, without waiting for the drain: the stream-end is not there yet
      assert.equal(endOf(rx.received, id), undefined, "Close answered before the drain ended");
      const atClose = health(svc, id);
      assert.equal(atClose.phase, "ending");
      assert.ok(atClose.frames.waiting + atClose.frames.detecting >= 1, `frames were still undetected at Close: ${JSON.stringify(atClose.frames)}`);
      assert.equal(frames(rx.received, id).filter(hasQr).length, 0, "no QR frame had been called back before Close");

      await rx.until((r) => Boolean(endOf(r, id)), 40_000);
      const h = await assertAccounted(svc, id, rx.received);
      assert.equal(h.frames.captured, atClose.frames.captured, "nothing captured after Close (the pull stopped at once)");
      const qr = frames(rx.received, id).filter(hasQr);
      assert.ok(qr.length >= 1, "the QR frame is in the callbacks");
      for (const x of qr) {
        assert.equal((x.body as Json).frameDetail.riskLevel, "REVIEW");
        assert.ok(x.at > closeAt, "called back after Close: it was drained");
        assert.ok(closeAt - imgTime(x) < 5000 && imgTime(x) < closeAt, `captured in the last seconds before Close (${closeAt - imgTime(x)} ms)`);
      }
      const end = endOf(rx.received, id)!.body as Json;
      assert.equal(end.riskLevel, "REVIEW", "the stream-end counts the drained QR frame");
      assert.equal(end.auxInfo.errorCode, undefined);
    } finally {
      pool(svc).setMinJobMsForTest(0);
      await rx.close();
      await src.close();
    }
  });

  /** An audio stream of `type` on a tone, closed `afterMs` after its audio flows (less than a segment); `check` reads the callbacks. */
  async function closedEarly(name: string, type: string, afterMs: number, check: (id: string, received: Received[], capturedAtClose: number, receivedSecAtClose: number) => Promise<void>) {
    const src = await startRtmpSource({ name, audio: "tone" });
    const rx = await startReceiver();
    try {
      const ack = await svc.post("/audiostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "default", type, callback: rx.url, btId: `room-${name}`, data: { tokenId: name, url: src.rtmpUrl, returnAllText: 1, returnFinishInfo: 1 } });
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = ack.requestId as string;
      // afterMs of the stream's audio received by the pull (the health snapshot counts it), not a wall-clock wait
      await waitFor(async () => (health(svc, id).audio.receivedSec ?? 0) >= afterMs / 1000, 30_000);
      assert.equal(health(svc, id).segments.captured, 0, "no 10 s segment yet");
      const receivedSecAtClose = health(svc, id).audio.receivedSec ?? 0;
      await svc.post("/finish_audiostream/v4", { accessKey: TEST_KEY, requestId: id });
      const capturedAtClose = health(svc, id).segments.captured;
      await rx.until((r) => r.some((x) => x.body.statCode === 1 && x.body.requestId === id), 30_000);
      await check(id, rx.received.filter((x) => String(x.body.requestId).startsWith(id)), capturedAtClose, receivedSecAtClose);
    } finally {
      await rx.close();
      await src.close();
    }
  }

  test("Close: the audio since the last 10 s segment is checked and called back as a last, shorter segment, before the stream-end", () =>
    closedEarly("drain-audio", "POLITICS", 3000, async (id, task, capturedAtClose, receivedSecAtClose) => {
      assert.equal(capturedAtClose, 1, "the audio before the Close was captured as a segment by the time Close answered");
      assert.deepEqual(task.map((x) => x.body.requestId), [`${id}_1`, id], "the last segment, then the stream-end");
      const detail = (task[0].body as Json).audioDetail;
      assert.equal(detail.auxInfo.detectType, undefined, "checked, not called back unchecked");
      assert.equal(detail.riskLevel, "PASS");
      const wav = readWavPcm16(Buffer.from(await (await fetch(detail.audioUrl)).arrayBuffer()));
      const sec = wav.samples.length / wav.sampleRate;
      // the meter's count (rounded to 0.1 s, read from its own output) may run a pipe buffer ahead of the segment's
      assert.ok(sec >= receivedSecAtClose - 0.3 && sec < 10, `the segment holds the audio up to the Close (${sec} s; ${receivedSecAtClose} s received at Close)`);
    }));

  test("an audio stream asking only for types without a detector here: its segment is called back as not checked (detectType 2), never a plain PASS", () =>
    closedEarly("drain-moan", "MOAN", 2000, async (id, task) => {
      const seg = task.find((x) => x.body.requestId === `${id}_1`)!.body as Json;
      assert.equal(seg.audioDetail.auxInfo.detectType, 2, JSON.stringify(seg.audioDetail.auxInfo));
      assert.deepEqual(seg.audioDetail.auxInfo.notAppliedTypes, ["MOAN"]);
    }));

  test("natural end: the last frames of a finite source are detected before the stream-end", async () => {
    // an FLV file read over HTTP: captured in well under a second, so nearly every frame is still waiting when the pull ends
    const file = await makeVideo({ name: "drain-end", durationSec: 6, fps: 15, audio: "none", container: "flv", qr: { text: QR, fromSec: 4.5, toSec: 6 } });
    const web = await startStaticServer(mediaDir());
    const rx = await startReceiver();
    try {
      pool(svc).setMinJobMsForTest(400);
      const ack = await svc.post("/videostream/v4", frameRequest(`${web.url}/${path.basename(file)}`, rx.url));
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = ack.requestId as string;
      await rx.until((r) => Boolean(endOf(r, id)), 40_000);
      const h = await assertAccounted(svc, id, rx.received);
      assert.ok(h.frames.captured >= 5, JSON.stringify(h.frames));
      const last = frames(rx.received, id).sort((a, b) => frameIndex(a) - frameIndex(b)).at(-1)!;
      assert.ok(hasQr(last) && !notChecked(last), "the last frame (QR) was checked");
      const end = endOf(rx.received, id)!.body as Json;
      assert.equal(end.riskLevel, "REVIEW");
      assert.equal(end.auxInfo.errorCode, undefined, "a natural end");
    } finally {
      pool(svc).setMinJobMsForTest(0);
      await rx.close();
      await web.close();
    }
  });
});

describe("retries exhausted keeps the evidence", () => {
  let svc: Service;
  before(async () => void (svc = await startTestService({ env: { STREAM_ADMISSION_WINDOW_SEC: "0" } })));
  after(() => svc?.close());

  test("source gone for good: frames captured before it died are detected and called back, then the stream-end with its errorCode counts them", async () => {
    // a QR code from 4 to 6 s of every 8 s loop: 8 consecutive 1 s frames hold at least one
    const src = await startRtmpSource({ name: "drain-gone", audio: "none", qr: { text: QR, fromSec: 4, toSec: 6 } });
    const rx = await startReceiver();
    try {
      // detection slower than capture: frames are still waiting when the source dies
      pool(svc).setMinJobMsForTest(900);
      const ack = await svc.post("/videostream/v4", frameRequest(src.rtmpUrl, rx.url));
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = ack.requestId as string;
      await waitFor(async () => (health(svc, id)?.frames.captured ?? 0) >= 9, 60_000);
      await src.close(); // gone for good: every (scaled) retry fails
      await rx.until((r) => Boolean(endOf(r, id)), 120_000);
      const h = await assertAccounted(svc, id, rx.received);
      assert.ok(h.frames.captured >= 9, JSON.stringify(h.frames));
      const qr = frames(rx.received, id).filter((x) => !notChecked(x) && hasQr(x));
      assert.ok(qr.length >= 1, "a QR frame captured before the source died was checked and called back");
      const end = endOf(rx.received, id)!.body as Json;
      assert.ok([3001, 3002, 3003].includes(end.auxInfo.errorCode), JSON.stringify(end));
      assert.equal(end.riskLevel, "REVIEW", "the stream-end counts the drained frames");
    } finally {
      pool(svc).setMinJobMsForTest(0);
      await rx.close();
      await src.close().catch(() => undefined);
    }
  });
});

describe("the drain is bounded (STREAM_DRAIN_TIMEOUT_SEC)", () => {
  // started when the suite runs (not when the file loads), one service at a time
  let svc: Service;
  before(async () => void (svc = await startTestService({ env: { STREAM_DRAIN_TIMEOUT_SEC: "1", STREAM_ADMISSION_WINDOW_SEC: "0" } })));
  after(() => svc?.close());

  test("frames still undetected when the bound expires are called back as not checked, then the stream-end", async () => {
    const src = await startRtmpSource({ name: "drain-bound", audio: "none" });
    const rx = await startReceiver();
    try {
      pool(svc).setMinJobMsForTest(5000);
      const ack = await svc.post("/videostream/v4", frameRequest(src.rtmpUrl, rx.url));
      const id = ack.requestId as string;
      await waitFor(async () => health(svc, id).frames.waiting >= 2, 30_000);
      const closeAt = Date.now();
      await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
      await rx.until((r) => Boolean(endOf(r, id)), 20_000);
      // the stream-end came after the 1 s bound, not after the slow detections: those are still running when it arrives
      assert.ok(pool(svc).stats().pending >= 1, `slow detections still under way at the stream-end (${Date.now() - closeAt} ms after Close)`);
      const h = await assertAccounted(svc, id, rx.received);
      assert.ok(h.frames.notChecked >= 2, JSON.stringify(h.frames));
    } finally {
      pool(svc).setMinJobMsForTest(0);
      await rx.close();
      await src.close();
    }
  });
});

describe("overload: streams are served fairly and no frame waits unboundedly", () => {
  // started when the suite runs (not when the file loads), one service at a time
  let svc: Service;
  before(async () => void (svc = await startTestService({ env: { STREAM_FRAME_BACKLOG: "2", MAX_CONCURRENT_STREAMS: "8", STREAM_ADMISSION_WINDOW_SEC: "0" } })));
  after(() => svc?.close());

  test("four streams at 1 frame/s on one worker that checks ≈1.4 frames/s: every stream keeps getting checked and not-checked callbacks", async () => {
    const STREAMS = 4;
    const CHECKED = 6;
    const src = await startRtmpSource({ name: "overload", audio: "none" });
    const rx = await startReceiver();
    try {
      pool(svc).setMinJobMsForTest(700);
      const ids: string[] = [];
      for (let i = 0; i < STREAMS; i++) {
        // the same stream over HTTP-FLV, as four distinct stream identities
        const ack = await svc.post("/videostream/v4", frameRequest(`${src.flvUrl}?viewer=${i}`, rx.url, { tokenId: `u${i}` }));
        assert.equal(ack.code, 1100, JSON.stringify(ack));
        ids.push(ack.requestId as string);
      }
      await rx.until((r) => ids.every((id) => frames(r, id).length >= 1), 30_000);
      // observe until every stream has had CHECKED frames checked in the window (≈ 0.35/s each: ≈ 20 s)
      const from = Date.now();
      const checkedSince = (r: Received[], id: string) => frames(r, id).filter((x) => x.at >= from && !notChecked(x)).length;
      await rx.until((r) => ids.every((id) => checkedSince(r, id) >= CHECKED), 45_000);
      const to = Date.now();
      for (const id of ids) await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
      await rx.until((r) => ids.every((id) => endOf(r, id)), 30_000);

      const slices = 4;
      const checkedPerStream: number[] = [];
      for (const id of ids) {
        const h = await assertAccounted(svc, id, rx.received);
        assert.ok(h.frames.notChecked >= 1, `overloaded: some frames not checked (${JSON.stringify(h.frames)})`);
        const inWindow = frames(rx.received, id).filter((x) => x.at >= from && x.at <= to);
        // callbacks keep arriving throughout, checked ones included, not just at the start
        for (let s = 0; s < slices; s++) {
          const a = from + ((to - from) * s) / slices;
          const b = from + ((to - from) * (s + 1)) / slices;
          const slice = inWindow.filter((x) => x.at >= a && x.at < b);
          assert.ok(slice.length >= 1, `stream ${id}: frame callbacks in slice ${s + 1}/${slices}`);
          assert.ok(slice.some((x) => !notChecked(x)), `stream ${id}: a checked frame in slice ${s + 1}/${slices}`);
        }
        // no frame waits unboundedly: each is called back within a few seconds of its capture
        const worst = Math.max(...inWindow.map((x) => x.at - imgTime(x)));
        assert.ok(worst < 10_000, `stream ${id}: a frame waited ${worst} ms`);
        checkedPerStream.push(inWindow.filter((x) => !notChecked(x)).length);
      }
      // round-robin: every stream got about the same share of the detector
      assert.ok(Math.min(...checkedPerStream) >= 0.5 * Math.max(...checkedPerStream), `checked frames per stream: ${checkedPerStream}`);
    } finally {
      pool(svc).setMinJobMsForTest(0);
      await rx.close();
      await src.close();
    }
  });
});
