import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { extractAudioSegments, measureSpeechEnergy } from "../../server/ingest/audio";
import { planCapture } from "../../server/ingest/capture-plan";
import { speechEnergyOf } from "../../server/ingest/energy";
import { FfmpegError, resolveFfmpeg, startFfmpeg } from "../../server/ingest/ffmpeg";
import { startProcess } from "../../server/ingest/process";
import { extractFrames, type CapturedFrame } from "../../server/ingest/frames";
import { mediaInfoFromFfmpegStderr, probeMedia } from "../../server/ingest/probe";
import { makeCorruptFile, makeVideo } from "../support/media";

let six: string;
let work: string;
before(async () => {
  six = await makeVideo({ name: "ingest-6s", durationSec: 6, width: 640, height: 360, audio: "tone" });
  work = await mkdtemp(path.join(tmpdir(), "ingest-media-"));
});
after(() => rm(work, { recursive: true, force: true }));

const out = (name: string) => path.join(work, name);

async function assertJpegFrames(frames: CapturedFrame[], durationSec: number) {
  for (const [i, f] of frames.entries()) {
    assert.equal(f.index, i + 1);
    const head = (await readFile(f.path)).subarray(0, 3);
    assert.deepEqual([...head], [0xff, 0xd8, 0xff], `${f.path} is a JPEG`);
    assert.ok(f.timeSec >= 0 && f.timeSec < durationSec, `time ${f.timeSec} inside the clip`);
    if (i > 0) assert.ok(f.timeSec > frames[i - 1].timeSec, "times ascending");
  }
}

test("probeMedia reads duration, streams, size and rate", async () => {
  const info = await probeMedia(six);
  assert.ok(info.durationSec !== null && Math.abs(info.durationSec - 6) < 0.1, `duration ${info.durationSec}`);
  assert.equal(info.hasVideo, true);
  assert.equal(info.hasAudio, true);
  assert.equal(info.width, 640);
  assert.equal(info.height, 360);
  assert.equal(info.fps, 25);
  assert.match(info.formatName ?? "", /mp4/);
  const silent = await probeMedia(await makeVideo({ name: "ingest-noaudio", durationSec: 1, width: 160, height: 90, audio: "none", container: "mkv" }));
  assert.equal(silent.hasAudio, false);
  assert.match(silent.formatName ?? "", /matroska/);
});

test("the ffmpeg -i fallback parser agrees with ffprobe", async () => {
  const { stderr } = await startFfmpeg(["-i", six]).done;
  const parsed = mediaInfoFromFfmpegStderr(stderr);
  const probed = await probeMedia(six);
  assert.equal(parsed.hasVideo, probed.hasVideo);
  assert.equal(parsed.hasAudio, probed.hasAudio);
  assert.equal(parsed.width, probed.width);
  assert.equal(parsed.height, probed.height);
  assert.equal(parsed.fps, probed.fps);
  assert.equal(parsed.formatName, probed.formatName);
  assert.ok(Math.abs((parsed.durationSec ?? 0) - (probed.durationSec ?? 0)) < 0.02);
});

test("probing garbage fails with invalid-data", async () => {
  const err = await probeMedia(await makeCorruptFile("ingest-corrupt")).catch((e: unknown) => e);
  assert.ok(err instanceof FfmpegError);
  assert.equal(err.kind, "invalid-data");
});

test("extractFrames by times: seeking and one pass give the same frames", async () => {
  const plan = planCapture({ durationSec: 6, detectFrequency: 2 });
  const seen: number[] = [];
  const seek = await extractFrames(six, plan, out("seek"), { strategy: "seek", onFrame: (f) => seen.push(f.index) });
  const pass = await extractFrames(six, plan, out("pass"), { strategy: "pass" });
  assert.deepEqual(seek.map((f) => f.timeSec), [0, 2, 4]);
  assert.deepEqual(pass.map((f) => f.timeSec), [0, 2, 4]);
  assert.deepEqual(seen.sort(), [1, 2, 3], "onFrame reported each frame");
  await assertJpegFrames(seek, 6);
  await assertJpegFrames(pass, 6);
  const meta = await sharp(seek[0].path).metadata();
  assert.deepEqual([meta.width, meta.height], [640, 360], "no upscaling below maxWidth");
});

test("extractFrames: checkFrameCount reaches the last frame, and maxWidth scales keeping aspect", async () => {
  const plan = planCapture({ durationSec: 6, checkFrameCount: 4 });
  const frames = await extractFrames(six, plan, out("count"), { maxWidth: 320 });
  assert.equal(frames.length, 4);
  assert.ok(frames[3].timeSec > 5.8, `last frame at ${frames[3].timeSec}`);
  await assertJpegFrames(frames, 6);
  const meta = await sharp(frames[0].path).metadata();
  assert.deepEqual([meta.width, meta.height], [320, 180]);
  const past = await extractFrames(six, { mode: "times", times: [0, 5.999], intervalSec: null, reason: "past the last frame" }, out("past"));
  assert.equal(past.length, 2, "a time after the last video frame yields the last frame");
  assert.ok(past[1].timeSec > 5.9 && past[1].timeSec < 6);
});

test("extractFrames by keyframes and with unknown duration (one pass)", async () => {
  const key = await extractFrames(six, planCapture({ durationSec: 6, screenshotType: 3 }), out("key"));
  assert.deepEqual(key.map((f) => f.timeSec), [0, 2, 4], "GOP of 50 frames at 25 fps");
  await assertJpegFrames(key, 6);
  const unknown = await extractFrames(six, planCapture({ durationSec: null, detectFrequency: 3 }), out("unknown"));
  assert.deepEqual(unknown.map((f) => f.timeSec), [0, 3]);
});

test("extractFrames fails with invalid-data on garbage and no-stream on audio only", async () => {
  const bad = await extractFrames(await makeCorruptFile("ingest-corrupt"), planCapture({ durationSec: 2 }), out("bad")).catch((e: unknown) => e);
  assert.ok(bad instanceof FfmpegError && bad.kind === "invalid-data", String(bad));
  const [wav] = await extractAudioSegments(six, out("audio-only"));
  const none = await extractFrames(wav.path, planCapture({ durationSec: 6 }), out("none")).catch((e: unknown) => e);
  assert.ok(none instanceof FfmpegError && none.kind === "no-stream", String(none));
});

test("extractAudioSegments cuts 10 s WAV segments with exact bounds", async () => {
  const long = await makeVideo({ name: "ingest-25s", durationSec: 25, width: 160, height: 90, fps: 10, audio: "tone" });
  const segments = await extractAudioSegments(long, out("audio"));
  assert.equal(segments.length, 3);
  const bounds = segments.map((s) => [s.startSec, s.endSec]);
  assert.deepEqual(bounds.slice(0, 2), [[0, 10], [10, 20]]);
  assert.equal(bounds[2][0], 20);
  assert.ok(Math.abs(bounds[2][1] - 25) < 0.05, `last segment ends at ${bounds[2][1]}`);
  const wav = await readFile(segments[0].path);
  assert.equal(wav.toString("ascii", 0, 4), "RIFF");
  assert.equal(wav.readUInt16LE(22), 1, "mono");
  assert.equal(wav.readUInt32LE(24), 16000, "16 kHz");
  const err = await extractAudioSegments(await makeVideo({ name: "ingest-noaudio", durationSec: 1, width: 160, height: 90, audio: "none", container: "mkv" }), out("none")).catch((e: unknown) => e);
  assert.ok(err instanceof FfmpegError && err.kind === "no-stream");
});

test("measureSpeechEnergy tells a tone from digital silence", async () => {
  const tone = await extractAudioSegments(six, out("tone"));
  const silence = await extractAudioSegments(await makeVideo({ name: "ingest-silence", durationSec: 3, width: 160, height: 90, audio: "silence" }), out("silence"));
  const t = await measureSpeechEnergy(tone[0].path);
  const s = await measureSpeechEnergy(silence[0].path);
  assert.ok(t.rmsDb > -30 && t.voicedRatio > 0.95, `tone ${JSON.stringify(t)}`);
  assert.ok(s.rmsDb <= -90 && s.voicedRatio === 0, `silence ${JSON.stringify(s)}`);
});

test("speechEnergyOf: the active share follows bursts of sound over a quiet floor", () => {
  const rate = 16000;
  const samples = new Int16Array(rate * 2);
  let seed = 1;
  for (let i = 0; i < samples.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const hiss = ((seed >>> 16) / 65536 - 0.5) * 60; // ≈ -65 dBFS floor
    const burst = Math.floor(i / (rate * 0.25)) % 2 === 0 ? Math.sin((2 * Math.PI * 220 * i) / rate) * 8000 : 0;
    samples[i] = Math.round(hiss + burst);
  }
  const { voicedRatio, rmsDb } = speechEnergyOf(samples, 1, rate);
  assert.ok(Math.abs(voicedRatio - 0.5) < 0.05, `voicedRatio ${voicedRatio}`);
  assert.ok(rmsDb > -20 && rmsDb < -10, `rmsDb ${rmsDb}`);
  assert.deepEqual(speechEnergyOf(new Int16Array(0), 1, rate), { rmsDb: -100, voicedRatio: 0 });
});

test("the fallbacks work end to end: no ffprobe (parse ffmpeg -i), and the npm-shipped 2018 ffmpeg", async () => {
  const run = async (env: Record<string, string>, dir: string) => {
    const child = startProcess(process.execPath, ["--import", "tsx", path.resolve("tests/support/ingest-child.ts"), six, out(dir)], { env, timeoutMs: 60_000 });
    const result = await child.done;
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout.toString("utf8").trim().split("\n").pop() ?? "");
  };
  const noProbe = await run({ PATH: "/nonexistent", FFMPEG_PATH: resolveFfmpeg().path }, "fallback-path");
  const npm = await run({ PATH: "/nonexistent" }, "fallback-npm");
  assert.equal(noProbe.ffprobe, null);
  assert.equal(npm.ffmpeg.source, "npm");
  for (const r of [noProbe, npm]) {
    assert.ok(Math.abs(r.info.durationSec - 6) < 0.1 && r.info.hasAudio && r.info.width === 640 && r.info.fps === 25, JSON.stringify(r.info));
    assert.deepEqual(r.frames.map((f: CapturedFrame) => f.timeSec), [0, 2, 4]);
    assert.deepEqual(r.keyframes.map((f: CapturedFrame) => f.timeSec), [0, 2, 4]);
    assert.deepEqual(r.segments.map((s: { startSec: number }) => s.startSec), [0, 4]);
  }
});
