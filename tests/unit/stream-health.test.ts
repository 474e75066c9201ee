// Stream health units: ffmpeg's -dump packet lines, the input meter, and the monitor's state changes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LiveStderrParser, withoutPacketDump } from "../../server/ingest/live-stderr";
import { LiveMeter } from "../../server/ingest/live-meter";
import { StreamHealthMonitor, type NewHealthEvent } from "../../server/health/monitor";
import type { LiveMeterReading } from "../../server/ingest/live";

const dump = (stream: number, dts: number, size: number) => [`stream #${stream}:`, "  keyframe=1", "  duration=0.067", `  dts=${dts.toFixed(3)}  pts=${dts.toFixed(3)}`, `  size=${size}`];

test("-dump lines become packets; header lines still parse; errors are read without them", () => {
  const p = new LiveStderrParser();
  for (const l of ["Input #0, flv, from 'rtmp://x/live/k':", "  Stream #0:0: Audio: aac (LC), 44100 Hz, mono, fltp", "  Stream #0:1: Video: h264, yuv420p, 640x360, 15 fps"]) assert.deepEqual(p.line(l), {});
  assert.equal(p.videoIndex, 1);
  assert.ok(p.inputAudio && p.inputVideo);
  const events = dump(1, 2.5, 1234).map((l) => p.line(l));
  assert.deepEqual(events.slice(0, 4), [{}, {}, {}, {}]);
  // pts and the keyframe flag come with each packet (keyframe-only capture reads them: live-gop)
  assert.deepEqual(events[4], { packet: { stream: 1, dts: 2.5, pts: 2.5, key: true, size: 1234 } });
  assert.deepEqual(p.line("frame=    3 fps=1.0 q=4.0 size=      19kB time=00:00:04.73 bitrate=  32.5kbits/s speed=1x"), { progressSec: 4.73 });
  const stderr = ["Input #0, flv", ...dump(0, 1, 10), "frame=1 time=00:00:01.00\r", ...dump(1, 1.1, 20), "rtmp://x/live/k: Input/output error", ""].join("\n");
  assert.equal(withoutPacketDump(stderr), "Input #0, flv\nframe=1 time=00:00:01.00\r\nrtmp://x/live/k: Input/output error\n");
});

test("meter: fps and bitrate over media time (a burst reads as the stream's rate), audio level and silence", () => {
  let video: number | null = 0;
  const m = new LiveMeter(-60, () => video);
  assert.deepEqual(m.reading(1000), { lastMediaAt: null, inputFps: null, inputKbps: null, audioDb: null, silentSince: null, audioSec: 0 }, "connecting: unknown, not 0");
  // 2 s of 15 fps video and 8 kB audio packets, all read at once (the join burst)
  for (let i = 0; i <= 30; i++) m.packet(0, i / 15, 2500, 1000);
  for (let i = 0; i <= 20; i++) m.packet(1, i / 10, 500, 1000);
  const r = m.reading(1500);
  assert.equal(r.inputFps, 15);
  assert.ok(Math.abs(r.inputKbps! - (31 * 2500 + 21 * 500) * 8 / 1000 / 2) < 1, String(r.inputKbps));
  assert.equal(r.lastMediaAt, 1000);
  assert.deepEqual(m.reading(7000).inputFps, 0, "no packets in the last 5 s");
  video = null;
  assert.equal(m.reading(7000).inputFps, null, "no video track");
  // one second of a -20 dBFS square wave (0.1 amplitude), split mid-sample, then one second of silence
  const loud = Buffer.alloc(32_000);
  for (let i = 0; i < 16_000; i++) loud.writeInt16LE(i % 2 ? 3277 : -3277, i * 2);
  m.pcm(loud.subarray(0, 1001), 8000);
  m.pcm(loud.subarray(1001), 8000);
  assert.equal(m.reading(8000).audioDb, -20);
  assert.equal(m.reading(8000).silentSince, null);
  m.pcm(Buffer.alloc(32_000), 9000);
  assert.equal(m.reading(9000).audioDb, -100);
  assert.equal(m.reading(9000).silentSince, 8000);
  assert.equal(m.reading(9000).audioSec, 2, "two seconds of audio received, the split sample counted once");
});

test("monitor: connected → flagged → source lost → retrying k of n → recovered → ended, each once", async () => {
  const events: NewHealthEvent[] = [];
  let meter: LiveMeterReading | null = null;
  const counters = () => ({ phase: "running" as const, frames: { captured: 0, checked: 0, notChecked: 0, waiting: 0, detecting: 0 }, segments: { captured: 0, checked: 0, notChecked: 0, skipped: 0, waiting: 0, detecting: 0 } });
  const mon = new StreamHealthMonitor({ requestId: "r", cadenceSec: 0.1, retries: 12, audioPulled: true, source: { counters, meter: () => meter }, sink: { event: (e) => void events.push(e), snapshot: () => undefined } });
  const tick = () => (mon as unknown as { tick(): void }).tick();
  mon.connecting(0);
  meter = { lastMediaAt: Date.now(), inputFps: 15, inputKbps: 600, audioDb: -20, silentSince: null, audioSec: 5 };
  mon.connected();
  assert.deepEqual(mon.snapshot().input, { fps: 15, kbps: 600 });
  await new Promise((r) => setTimeout(r, 300)); // > 2 × 0.1 s without media
  tick();
  tick();
  assert.match(mon.snapshot().flagged!.message, /^no media for \d+ s$/);
  mon.pullEnded({ reason: "ended", gotData: true, finite: false }, { attempt: 1, delayMs: 5000 });
  meter = null;
  const s = mon.snapshot();
  assert.equal(s.pull.state, "retrying");
  assert.equal(s.pull.attempt, 1);
  assert.ok(Date.parse(s.pull.nextAttemptAt!) - Date.now() > 4000);
  assert.equal(s.input.fps, null);
  assert.equal(s.lastError!.message, "the source stopped sending");
  mon.connecting(1);
  mon.pullEnded({ reason: "failed", errorCode: 3003, message: "timed out", gotData: false }, { attempt: 2, delayMs: 10 });
  mon.connecting(2);
  meter = { lastMediaAt: Date.now(), inputFps: 15, inputKbps: 600, audioDb: -20, silentSince: null, audioSec: 5 };
  mon.connected();
  assert.equal(mon.snapshot().flagged, null);
  mon.ended("closed", null);
  mon.ended("closed", null);
  assert.deepEqual(events.map((e) => e.kind), ["connected", "stalled", "source_lost", "retrying", "retrying", "recovered", "ended"]);
  assert.deepEqual([events[3].attempt, events[3].of, events[4].attempt, events[4].errorCode], [1, 12, 2, null]);
  assert.equal(mon.snapshot().lastError!.errorCode, 3003);
  assert.equal(mon.snapshot().pull.endReason, "closed");
});
