import { test } from "node:test";
import assert from "node:assert/strict";
import { LiveClock } from "../../server/ingest/live-clock";
import { encodeWavPcm16, PcmSegmenter, pcmToInt16 } from "../../server/ingest/live-pcm";
import { readWavPcm16 } from "../../server/ingest/wav";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { LiveOutput } from "../../server/ingest/live-output";
import type { LiveFrame } from "../../server/ingest/live-types";

/** s16le samples 0, 1, 2, … n-1 (wrapping), so every cut can be checked sample by sample. */
function ramp(n: number): Buffer {
  const b = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) b.writeInt16LE(((i + 32768) % 65536) - 32768, i * 2);
  return b;
}

function feed(seg: PcmSegmenter, stream: Buffer, sizes: number[]) {
  const cuts = [];
  let pos = 0;
  for (let i = 0; pos < stream.length; i++) {
    const n = sizes[i % sizes.length];
    cuts.push(...seg.push(stream.subarray(pos, pos + n)));
    pos += n;
  }
  return cuts;
}

test("cuts exactly segmentSamples each, whatever the chunking (even mid-sample)", () => {
  const stream = ramp(1000);
  for (const sizes of [[2000], [1], [3], [7, 1, 250], [199, 2, 1]]) {
    const seg = new PcmSegmenter(300);
    const cuts = feed(seg, stream, sizes);
    assert.deepEqual(cuts.map((c) => [c.startSample, c.endSample]), [[0, 300], [300, 600], [600, 900]], `sizes ${sizes.join(",")}`);
    for (const c of cuts) assert.ok(c.pcm.equals(stream.subarray(c.startSample * 2, c.endSample * 2)));
    assert.equal(seg.receivedSamples, 1000);
    const tail = seg.flush(50);
    assert.ok(tail);
    assert.deepEqual([tail.startSample, tail.endSample], [900, 1000]);
    assert.ok(tail.pcm.equals(stream.subarray(1800)));
  }
});

test("flush drops a remainder shorter than the minimum and an odd trailing byte", () => {
  const seg = new PcmSegmenter(100);
  seg.push(ramp(150));
  assert.equal(seg.flush(60), null, "50 samples < 60");
  const odd = new PcmSegmenter(100);
  odd.push(Buffer.concat([ramp(70), Buffer.from([1])]));
  const tail = odd.flush(10);
  assert.equal(tail?.pcm.length, 140);
  assert.equal(tail?.endSample, 70);
  assert.throws(() => new PcmSegmenter(0));
});

test("WAV encoding round-trips through the project's WAV reader", () => {
  const pcm = ramp(16000);
  const wav = encodeWavPcm16(pcm, 16000);
  assert.equal(wav.length, 44 + pcm.length);
  assert.equal(wav.toString("ascii", 0, 4), "RIFF");
  const back = readWavPcm16(wav);
  assert.equal(back.sampleRate, 16000);
  assert.equal(back.channels, 1);
  assert.deepEqual(Array.from(back.samples.subarray(0, 5)), [0, 1, 2, 3, 4]);
  assert.deepEqual(back.samples, pcmToInt16(pcm));
});

test("the live clock maps media time to when it was live, never in the future", () => {
  let now = 1_000_000;
  const clock = new LiveClock(() => now);
  clock.observe(0); // first media arrives at 1,000,000
  assert.equal(clock.wallAt(0).getTime(), 1_000_000);
  clock.observe(2); // a burst: 2 s of media arrived at the same instant, so media t=0 was live 2 s ago
  assert.equal(clock.wallAt(0).getTime(), 998_000);
  assert.equal(clock.wallAt(2).getTime(), 1_000_000);
  now += 1000;
  clock.observe(3); // real time from here on: the offset holds
  assert.equal(clock.wallAt(3).getTime(), 1_001_000);
  assert.equal(clock.wallAt(10).getTime(), now, "capped at now");
});

test("frames of a join burst get strictly increasing capture times, never ahead of the clock by more than a ms a frame", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "live-output-"));
  let now = 5_000_000;
  const clock = new LiveClock(() => now);
  const frames: LiveFrame[] = [];
  const out = new LiveOutput({ outDir: dir, onFrame: (f) => void frames.push(f), onSegment: () => undefined }, { frames: 0, segments: 0 }, { clock: () => clock, dropping: () => false, writeFailed: () => undefined });
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
  out.frame(jpeg, 10); // the first frame of the burst: stamped now
  out.frame(jpeg, 11); // the same instant, 1 s of media later: the offset moves, its wall time would fall before the first
  out.frame(jpeg, 12);
  now += 1000;
  out.frame(jpeg, 13); // live from here
  await out.written;
  const times = frames.map((f) => f.capturedAt.getTime());
  for (let i = 1; i < times.length; i++) assert.ok(times[i] > times[i - 1], `capture times increase: ${times.join(", ")}`);
  assert.ok(times.every((t) => t <= now + 3), `never (more than a ms a frame) in the future: ${times.join(", ")}`);
  await rm(dir, { recursive: true, force: true });
});
