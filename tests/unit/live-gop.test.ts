import { test } from "node:test";
import assert from "node:assert/strict";
import { GopWatch } from "../../server/ingest/live-gop";
import { LiveStderrParser } from "../../server/ingest/live-stderr";
import { buildLiveArgs } from "../../server/ingest/live-args";

test("the -dump packet lines carry the keyframe flag", () => {
  const p = new LiveStderrParser();
  const lines = ["stream #0:", "  keyframe=1", "  duration=0.040", "  dts=-0.080  pts=0.000", "  size=22829", "stream #0:", "  keyframe=0", "  duration=0.040", "  dts=-0.040  pts=0.080", "  size=13818"];
  const packets = lines.map((l) => p.line(l).packet).filter(Boolean);
  assert.deepEqual(packets, [{ stream: 0, dts: -0.08, pts: 0, size: 22829, key: true }, { stream: 0, dts: -0.04, pts: 0.08, size: 13818, key: false }]);
});

test("GopWatch: keyframes within the cadence pass; a gap longer than cadence + slack is reported; a timestamp reset starts over", () => {
  const w = new GopWatch(3);
  const feed = (from: number, to: number, gop: number) => {
    for (let t = from; t < to; t = Math.round((t + 0.04) * 100) / 100) if (w.packet(t, Math.abs(t / gop - Math.round(t / gop)) < 1e-6)) return t;
    return null;
  };
  assert.equal(feed(0, 20, 2), null, "2 s GOP at a 3 s cadence");
  assert.equal(w.maxGapSec, 2);
  assert.equal(new GopWatch(3).packet(null, false), false, "no dts: nothing known");
  const reset = new GopWatch(3);
  reset.packet(100, true);
  assert.equal(reset.packet(1, false), false, "a reset is not a long gap");
  const long = new GopWatch(3);
  long.packet(0, true);
  assert.equal(long.packet(3.08, false), false, "within the slack");
  assert.equal(long.packet(3.2, false), true, "4 s GOP: reported before its next keyframe");
  assert.equal(long.reason, "gop");
  const bframes = new GopWatch(3);
  assert.equal(bframes.packet(-0.08, true, 0), false);
  assert.equal(bframes.packet(-0.04, false, 0.12), false);
  assert.equal(bframes.packet(0, false, 0.04), true, "a packet presented before one read earlier: B-frames");
  assert.equal(bframes.reason, "reorder");
});

test("keyframes only: -skip_frame:v nokey before the input, not when the preview re-encodes the video", () => {
  const base = { url: "rtmp://h/live/s", frameIntervalSec: 3, audio: false, maxWidth: 1280, ioTimeoutMs: 10_000 };
  const kf = buildLiveArgs({ ...base, keyframesOnly: true, extraOutputs: ["-c:v", "copy", "x.ts"] });
  assert.equal(kf.keyframes, true);
  assert.ok(kf.args.indexOf("-skip_frame:v") < kf.args.indexOf("-i"));
  const transcoded = buildLiveArgs({ ...base, keyframesOnly: true, extraOutputs: ["-c:v", "libx264", "x.ts"] });
  assert.equal(transcoded.keyframes, false);
  assert.ok(!transcoded.args.includes("-skip_frame:v"));
});
