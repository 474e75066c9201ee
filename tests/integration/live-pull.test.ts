import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { startLivePull, type LiveFrame, type LivePull, type LivePullEnd, type LivePullOptions, type LiveSegment } from "../../server/ingest/live";
import { liveChildCount } from "../../server/ingest/process";
import { readWavPcm16 } from "../../server/ingest/wav";
import { startHlsSource, startRtmpSource, type RtmpSource } from "../support/live-sources";
import { startStaticServer } from "../support/media";
import { waitFor } from "../support/net";

let tmp: string;
let rtmp: RtmpSource;
let silentVideo: RtmpSource;
let files: Awaited<ReturnType<typeof startStaticServer>>;

before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "live-pull-"));
  const www = path.join(tmp, "www");
  await mkdir(www, { recursive: true });
  await runFfmpeg(["-f", "lavfi", "-i", "sine=frequency=300:duration=5", "-c:a", "aac", "-f", "flv", "-y", path.join(www, "audio-only.flv")], { timeoutMs: 30_000 });
  let s = 0x1234567;
  await writeFile(path.join(www, "garbage.flv"), Buffer.from(Array.from({ length: 64 * 1024 }, () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24))));
  files = await startStaticServer(www);
  [rtmp, silentVideo] = await Promise.all([startRtmpSource({ name: "pull", audio: "tone" }), startRtmpSource({ name: "pull-noaudio", audio: "none" })]);
});
after(async () => {
  await Promise.all([rtmp?.close(), silentVideo?.close(), files?.close()]);
  await rm(tmp, { recursive: true, force: true });
});

interface Recorded {
  pull: LivePull;
  frames: LiveFrame[];
  segments: LiveSegment[];
  startedAt: number;
  firstFrameMs: number | null;
  startedMs: number | null;
}

let runs = 0;
function pull(o: Partial<LivePullOptions> & { url: string }): Recorded {
  const r = { frames: [], segments: [], startedAt: Date.now(), firstFrameMs: null, startedMs: null } as Omit<Recorded, "pull"> & Partial<Recorded>;
  r.pull = startLivePull({
    frameIntervalSec: 1,
    audio: true,
    segmentSec: 2,
    ioTimeoutMs: 3000,
    outDir: path.join(tmp, `run-${++runs}`),
    onStarted: () => void (r.startedMs = Date.now() - r.startedAt),
    onFrame: (f) => {
      r.firstFrameMs ??= Date.now() - r.startedAt;
      r.frames.push(f);
    },
    onSegment: (s) => void r.segments.push(s),
    ...o,
  });
  return r as Recorded;
}

async function checkFrames(frames: LiveFrame[]) {
  for (const [i, f] of frames.entries()) {
    const bytes = await readFile(f.path);
    assert.ok(bytes.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])) && bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9])), `${f.path} is a whole JPEG`);
    assert.equal(path.basename(f.path), `f${f.index}.jpg`);
    if (i === 0) continue;
    assert.equal(f.index, frames[i - 1].index + 1);
    const gap = f.streamTimeSec - frames[i - 1].streamTimeSec;
    assert.ok(gap >= 0.9 && gap <= 1.6, `frame gap ${gap.toFixed(3)} s at the 1 s cadence`);
    assert.ok(f.capturedAt.getTime() >= frames[i - 1].capturedAt.getTime());
    assert.ok(f.capturedAt.getTime() <= Date.now());
  }
}

async function checkSegments(segments: LiveSegment[], segmentSec: number) {
  for (const [i, s] of segments.entries()) {
    const wav = readWavPcm16(await readFile(s.path));
    assert.deepEqual([wav.sampleRate, wav.channels], [16000, 1]);
    assert.ok(Math.abs(wav.samples.length / 16000 - (s.endSec - s.startSec)) < 0.002, "WAV length matches the segment");
    assert.equal(s.startSec, i === 0 ? 0 : segments[i - 1].endSec, "segments are contiguous");
    assert.ok(s.endedAt > s.startedAt && s.endedAt.getTime() <= Date.now());
    if (i < segments.length - 1) assert.equal(s.endSec - s.startSec, segmentSec);
    assert.ok(s.voiced && s.rmsDb > -30, `the tone is loud (rmsDb ${s.rmsDb})`);
  }
}

/** Pulls until ≥3 frames and ≥1 segment, then stop() must end it promptly with no ffmpeg left behind. */
async function pullAndStop(label: string, url: string) {
  const children = liveChildCount();
  const r = pull({ url });
  await waitFor(async () => r.frames.length >= 3 && r.segments.length >= 1, 20_000, 50);
  // stop() ends the pull (a hang fails the test by its timeout; how fast is the bench's business)
  await r.pull.stop();
  assert.deepEqual(await r.pull.done, { reason: "stopped" });
  assert.equal(liveChildCount(), children, "the pull's ffmpeg is gone");
  await checkFrames(r.frames);
  await checkSegments(r.segments, 2);
  const stats = r.pull.stats();
  assert.equal(stats.frames, r.frames.length);
  assert.ok(stats.bytesIn > 0);
  console.log(`# ${label}: started ${r.startedMs} ms, first frame ${r.firstFrameMs} ms after start`);
}

test("RTMP: frames at the 1 s cadence, 2 s WAV segments, prompt stop", () => pullAndStop("rtmp", rtmp.rtmpUrl));

test("HTTP-FLV: frames at the 1 s cadence, 2 s WAV segments, prompt stop", () => pullAndStop("http-flv", rtmp.flvUrl));

test("stop({ keepCaptured }) (a Close) announces the audio since the last segment as a shorter one before it resolves; a plain stop drops it", async () => {
  const kept = pull({ url: rtmp.rtmpUrl, segmentSec: 10 });
  const dropped = pull({ url: rtmp.flvUrl, segmentSec: 10 });
  // ≥ 3 frames at the 1 s cadence: ≥ 2 s of media read, less than a segment
  await waitFor(async () => kept.frames.length >= 3 && dropped.frames.length >= 3, 20_000, 50);
  await Promise.all([kept.pull.stop({ keepCaptured: true }), dropped.pull.stop()]);
  assert.equal(kept.segments.length, 1, "announced before stop() resolved");
  const [tail] = kept.segments;
  assert.equal(tail.startSec, 0);
  assert.ok(tail.endSec >= 2 && tail.endSec < 10, `the audio up to the stop (${tail.endSec} s)`);
  await checkSegments(kept.segments, 10);
  assert.deepEqual(dropped.segments, [], "without keepCaptured nothing more is announced");
  assert.deepEqual(await kept.pull.done, { reason: "stopped" });
});

/** Set by the HLS live test, checked by the last test: the watchdog's wait overlaps the tests in between. */
let frozenHls: Promise<{ end: LivePullEnd; tookMs: number }> | null = null;
const FROZEN_IO_TIMEOUT_MS = 1000;

test("HLS live: frames and segments from a rolling playlist; an ENDLIST appended later ends it finite", async () => {
  const [hls, ending] = await Promise.all([startHlsSource({ name: "pull-live", live: true }), startHlsSource({ name: "pull-ending", live: true })]);
  try {
    await pullAndStop("hls", hls.url);
    const r = pull({ url: ending.url });
    await waitFor(async () => r.frames.length >= 1, 20_000, 50);
    await ending.stop(); // the writer exits cleanly and appends #EXT-X-ENDLIST
    assert.deepEqual(await r.pull.done, { reason: "ended", gotData: true, finite: true });
  } catch (err) {
    await hls.close();
    throw err;
  } finally {
    await ending.close();
  }
  const r = pull({ url: hls.url, ioTimeoutMs: FROZEN_IO_TIMEOUT_MS });
  await waitFor(async () => r.frames.length >= 1, 20_000, 50);
  const killedAt = Date.now();
  await hls.kill(); // no ENDLIST: ffmpeg would reload the unchanged playlist for ~15 min
  frozenHls = r.pull.done.then((end) => ({ end, tookMs: Date.now() - killedAt })).finally(() => hls.close());
});

test("stop() before ffmpeg even started, and an unwritable outDir", async () => {
  const children = liveChildCount();
  const early = pull({ url: rtmp.rtmpUrl });
  await early.pull.stop();
  assert.deepEqual(await early.pull.done, { reason: "stopped" });
  assert.equal(liveChildCount(), children);
  await assert.rejects(pull({ url: rtmp.rtmpUrl, outDir: "/dev/null/frames" }).pull.done, /cannot write the task.s media directory \(ENOTDIR\)/);
});

test("HLS VOD (ENDLIST): the whole playlist is read, ending 'ended' finite with a short last segment", async () => {
  const hls = await startHlsSource({ name: "pull-vod", live: false, durationSec: 5 });
  try {
    const r = pull({ url: hls.url, segmentSec: 2 });
    const end = await r.pull.done;
    assert.deepEqual(end, { reason: "ended", gotData: true, finite: true });
    assert.ok(r.frames.length >= 4, `${r.frames.length} frames from 5 s`);
    await checkFrames(r.frames);
    await checkSegments(r.segments, 2);
    const last = r.segments.at(-1) as LiveSegment;
    assert.ok(last.endSec - last.startSec >= 1 && last.endSec - last.startSec < 2, `final partial segment ${last.startSec}–${last.endSec}`);
  } finally {
    await hls.close();
  }
});

test("a video stream without an audio track gives frames and no segments", async () => {
  const r = pull({ url: silentVideo.rtmpUrl });
  await waitFor(async () => r.frames.length >= 2, 20_000, 50);
  await r.pull.stop();
  assert.equal(r.segments.length, 0);
  await checkFrames(r.frames);
});

test("an audio stream on a source without audio fails 3004", async () => {
  const end = await pull({ url: silentVideo.rtmpUrl, frameIntervalSec: null }).pull.done;
  assert.equal(end.reason, "failed");
  assert.equal((end as Extract<LivePullEnd, { reason: "failed" }>).errorCode, 3004);
});

test("frames wanted from an audio-only source: carries on with its audio", async () => {
  const r = pull({ url: `${files.url}/audio-only.flv` });
  assert.deepEqual(await r.pull.done, { reason: "ended", gotData: true, finite: true });
  assert.equal(r.frames.length, 0);
  const spans = r.segments.map((s) => [s.startSec, s.endSec]);
  assert.deepEqual(spans.slice(0, 2), [[0, 2], [2, 4]]);
  assert.ok(spans.length === 3 && spans[2][0] === 4 && spans[2][1] >= 4.9, `a 5 s file: two full segments and a final partial one (${JSON.stringify(spans)})`);
  const audioOnly = pull({ url: `${files.url}/audio-only.flv`, frameIntervalSec: null, segmentSec: 10 });
  assert.deepEqual(await audioOnly.pull.done, { reason: "ended", gotData: true, finite: true });
  assert.equal(audioOnly.segments.length, 1, "shorter than one segment: the partial one only");
});

test("unreachable, invalid and missing streams fail with 3001 / 3002 / 3003", async () => {
  const free = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const missingKey = rtmp.rtmpUrl.replace(/[^/]+$/, "no-such-key");
  const cases: Array<[string, string, number]> = [
    ["404 http-flv", `${files.url}/missing.flv`, 3001],
    ["refused rtmp port", `rtmp://127.0.0.1:${free}/live/x`, 3001],
    ["garbage served as .flv", `${files.url}/garbage.flv`, 3002],
    ["rtmp key nobody publishes", missingKey, 3003],
    ["http-flv key nobody publishes", rtmp.flvUrl.replace(/[^/]+\.flv$/, "no-such-key.flv"), 3003],
  ];
  const hanging = pull({ url: `${files.url}/__hang`, ioTimeoutMs: 60_000 });
  const ends = await Promise.all(cases.map(([, url]) => pull({ url, ioTimeoutMs: 2000 }).pull.done));
  // a server that never answers: stop() still returns promptly
  // stop() does not wait for the 60 s I/O timeout: it resolves with "stopped" before that timeout could have ended it
  const stopped = await Promise.race([hanging.pull.stop().then(() => hanging.pull.done), new Promise((r) => setTimeout(() => r("still waiting on the hung server"), 30_000).unref())]);
  assert.deepEqual(stopped, { reason: "stopped" });
  for (const [i, [label, , code]] of cases.entries()) {
    const end = ends[i];
    assert.equal(end.reason, "failed", label);
    assert.equal((end as Extract<LivePullEnd, { reason: "failed" }>).errorCode, code, `${label}: ${JSON.stringify(end)}`);
    assert.equal((end as Extract<LivePullEnd, { reason: "failed" }>).gotData, false, label);
  }
});

test("a publisher killed mid-stream ends the pull within the I/O timeout; a restarted one can be pulled again", async () => {
  const ioTimeoutMs = 3000;
  const a = pull({ url: rtmp.rtmpUrl, ioTimeoutMs });
  const b = pull({ url: rtmp.flvUrl, ioTimeoutMs });
  await waitFor(async () => a.frames.length >= 1 && b.frames.length >= 1, 20_000, 50);
  const killedAt = Date.now();
  await rtmp.stopPublisher();
  const [endA, endB] = await Promise.all([a.pull.done, b.pull.done]);
  const tookMs = Date.now() - killedAt;
  for (const end of [endA, endB]) {
    assert.ok(end.reason === "ended" || end.reason === "failed", JSON.stringify(end));
    assert.equal((end as { gotData: boolean }).gotData, true);
  }
  assert.ok(tookMs < ioTimeoutMs + 2000, `ended ${tookMs} ms after the publisher died`);
  console.log(`# dead publisher noticed after ${tookMs} ms (ioTimeoutMs ${ioTimeoutMs})`);

  await rtmp.restartPublisher();
  const again = pull({ url: rtmp.rtmpUrl });
  await waitFor(async () => again.frames.length >= 1, 20_000, 50);
  await again.pull.stop();
  assert.ok((await stat(again.frames[0].path)).size > 0);
});

test("a live HLS playlist that stops growing (no ENDLIST) is ended by the stall watchdog", async () => {
  assert.ok(frozenHls, "started by the HLS live test");
  const { end, tookMs } = await frozenHls;
  assert.deepEqual(end, { reason: "ended", gotData: true, finite: false });
  // watchdog limit for HLS: ioTimeoutMs + 15 s grace (HLS media arrives a whole segment at a time)
  assert.ok(tookMs < FROZEN_IO_TIMEOUT_MS + 15_000 + 4000, `ended ${tookMs} ms after the playlist froze`);
  console.log(`# frozen HLS playlist ended by the watchdog after ${tookMs} ms`);
});
