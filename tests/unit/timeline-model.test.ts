import assert from "node:assert/strict";
import { test } from "node:test";
import type { StreamEvent } from "../../lib/dashboard-api";
import { lanes, type AudioView, type FrameView } from "../../components/streams/page/event-view";
import { audioRows, bucketize, formatOffset, nearestIndex, timedItems } from "../../components/streams/page/timeline-model";
import { seedPlanItems } from "../support/seed-stream";

const start = "2026-01-01T10:00:00.000Z";
const at = (s: number) => new Date(Date.parse(start) + s * 1000).toISOString();
let id = 0;
const frame = (t: number, level: string, detectType = 1): StreamEvent => ({ id: ++id, requestId: "r", kind: "frame", receivedAt: at(t), body: { code: 1100, requestId: `r_${id}`, contentType: 1, frameDetail: { riskLevel: level, riskLabel1: "", riskLabel2: "", riskLabel3: "", riskDescription: "", imgUrl: "", auxInfo: { detectType } } } });
const clock = (s: number) => new Date(Date.parse(start) + s * 1000).toISOString().slice(11, 19);
const audio = (t: number, level: string, vadCode: 0 | 1): StreamEvent => ({
  id: ++id,
  requestId: "r",
  kind: "audio",
  receivedAt: at(t + 10.4),
  body: { code: 1100, requestId: `r_a${id}`, contentType: 2, audioDetail: { riskLevel: level, vadCode, riskLabel1: "", riskLabel2: "", riskLabel3: "", riskDescription: "", auxInfo: { audioStartTime: `2026-01-01 ${clock(t)}`, audioEndTime: `2026-01-01 ${clock(t + 10)}` } } },
});

test("audio segments start where their clock says (receipt minus their length), and read +H:MM:SS", () => {
  const { audio: segs } = lanes([audio(3600, "PASS", 1)], start);
  const seg = segs[0] as AudioView;
  assert.ok(Math.abs(seg.t - 3600.4) < 0.01, String(seg.t));
  assert.equal(formatOffset(seg.t), "+1:00:00");
  assert.equal(formatOffset(3 * 3600 + 59), "+3:00:59");
});

test("with the server's UTC offset, a result's offset and clock come from its capture stamp, not from when its callback arrived", () => {
  // the server runs 8 h ahead of UTC: its imgTime 18:00:05.500 is 10:00:05.500Z; the callback came 3 s later
  const f = frame(8, "PASS");
  ((f.body.frameDetail as Record<string, unknown>).auxInfo as Record<string, unknown>).imgTime = "2026-01-01 18:00:05.500";
  const a = audio(20, "PASS", 1);
  Object.assign((a.body.audioDetail as Record<string, unknown>).auxInfo as Record<string, unknown>, { audioStartTime: "2026-01-01 18:00:20", audioEndTime: "2026-01-01 18:00:30" });
  a.receivedAt = at(33.7);
  const { frames, audio: segs } = lanes([f, a], start, 480);
  const fv = frames[0] as FrameView;
  assert.equal(fv.detail.time, 5.5);
  assert.equal(fv.clock, new Date(Date.parse(start) + 5500).toLocaleTimeString(undefined, { hour12: false }), "the browser's local clock of the capture");
  const sv = segs[0] as AudioView;
  assert.equal(sv.t, 20);
  assert.equal(sv.start, new Date(Date.parse(start) + 20_000).toLocaleTimeString(undefined, { hour12: false }));
  // without the offset (an old cached detail): the receipt, as before
  assert.equal((lanes([f], start).frames[0] as FrameView).detail.time, 8);
});

test("a segment called back not checked (detectType 2) has no level: never shown or counted as PASS", () => {
  const e = audio(0, "PASS", 0);
  ((e.body.audioDetail as Record<string, unknown>).auxInfo as Record<string, unknown>).detectType = 2;
  const seg = lanes([e], start).audio[0] as AudioView;
  assert.equal(seg.checked, false);
  assert.equal(seg.level, null);
  const [bucket] = bucketize(timedItems([], [seg]), 60, 1);
  assert.deepEqual([bucket.worst, bucket.notChecked], [null, 1]);
});

test("PASS runs fold into one row; the newest segment, REJECTs and runs shorter than 3 stay; an expanded run can fold again", () => {
  // oldest first: 4 no-speech PASS, 1 REJECT, 2 speech PASS, 5 speech PASS ... newest
  const events = [0, 10, 20, 30].map((t) => audio(t, "PASS", 0));
  events.push(audio(40, "REJECT", 1), audio(50, "PASS", 1), audio(60, "PASS", 1), audio(70, "PASS", 0));
  events.push(...[80, 90, 100, 110, 120].map((t) => audio(t, "PASS", 1)));
  const { audio: segs } = lanes(events, start); // newest first
  const rows = audioRows(segs, new Set());
  const shape = rows.map((r) => (r.kind === "run" ? `run${r.segments.length}${r.noSpeech ? "n" : "s"}` : r.kind === "item" ? (r.item.kind === "audio" ? (r.item.level ?? "N")[0] : "f") : "fold"));
  // newest (120) alone, then 4 speech PASS folded, 70 no-speech alone, 60+50 speech (2: not folded), REJECT, 4 no-speech folded
  assert.deepEqual(shape, ["P", "run4s", "P", "P", "P", "R", "run4n"]);
  const key = rows[1].kind === "run" ? rows[1].key : "";
  const open = audioRows(segs, new Set([key]));
  assert.equal(open[1].kind, "fold");
  assert.equal(open.filter((r) => r.kind === "item").length, 1 + 4 + 1 + 2 + 1);
  // a REJECT is never inside a run
  for (const r of open) if (r.kind === "run") assert.ok(r.segments.every((s) => s.level === "PASS"));
});

test("the strip: worst checked level per bucket, unchecked frames counted apart (never PASS), a bucket jumps to its worst moment", () => {
  const events = [frame(1, "PASS"), frame(4, "REVIEW"), frame(7, "REJECT"), frame(8, "REJECT"), frame(40, "PASS", 2), frame(41, "PASS", 2), frame(70, "PASS")];
  const { frames, audio: segs } = lanes(events, start);
  const buckets = bucketize(timedItems(frames, segs), 90, 3);
  assert.deepEqual(
    buckets.map((b) => [b.worst, b.notChecked, b.items, b.peakT]),
    [
      ["REJECT", 0, 4, 7],
      [null, 2, 2, 40],
      ["PASS", 0, 1, 70],
    ],
  );
  assert.equal(nearestIndex(frames, 39, (f) => (f.kind === "frame" ? f.detail.time : undefined)), frames.findIndex((f) => f.kind === "frame" && f.detail.time === 40));
});

test("the seeded 3-hour plan has the risky, unchecked and quiet items the e2e and bench look for", () => {
  const { frames, segments } = seedPlanItems({ frames: 3600, segments: 1080 });
  assert.equal(frames.at(-1)!.t, 3 * 3599);
  assert.ok(frames.filter((f) => f.kind === "reject").length >= 30);
  assert.ok(frames.filter((f) => f.kind === "unchecked").length >= 30);
  assert.ok(segments.filter((s) => s.kind === "nospeech").length > 500);
});
