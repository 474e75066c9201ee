import assert from "node:assert/strict";
import { test } from "node:test";
import type { StreamEvent, StreamSummary } from "../../lib/dashboard-api";
import { behindNotice, isBehind, laneWorst, nextRisk, resultFact, type ResultFact, type RiskState } from "../../lib/stream-state";
import { frameCounts, lanes } from "../../components/streams/page/event-view";

type Level = "PASS" | "REVIEW" | "REJECT";
const frameBody = (level: Level, detectType?: 1 | 2) => ({
  code: 1100,
  requestId: "t_v1",
  contentType: 1,
  statCode: 0,
  frameDetail: { imgUrl: "/media/x.jpg", riskLevel: level, riskLabel1: level === "PASS" ? "normal" : "ad", riskLabel2: "", riskLabel3: "", riskDescription: "", auxInfo: { imgTime: "2026-01-01 10:00:00.000", ...(detectType ? { detectType } : {}) } },
});
const audioBody = (level: Level, vadCode: 0 | 1 = 0) => ({ code: 1100, requestId: "t_a1", contentType: 2, statCode: 0, audioDetail: { riskLevel: level, vadCode, riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: "" } });
const checked = (level: Level): ResultFact => ({ kind: "frame", checked: true, level });
const notChecked: ResultFact = { kind: "frame", checked: false, level: "PASS" };

test("a frame with detectType 2 is not checked; detectType 1 or none is; a failed callback has no level", () => {
  assert.deepEqual(resultFact("frame", frameBody("PASS", 2)), { kind: "frame", checked: false, level: "PASS" });
  assert.deepEqual(resultFact("frame", frameBody("REVIEW", 1)), { kind: "frame", checked: true, level: "REVIEW" });
  assert.deepEqual(resultFact("frame", frameBody("PASS")), { kind: "frame", checked: true, level: "PASS" });
  assert.deepEqual(resultFact("frame", { code: 1903, message: "failed", requestId: "t_v2" }), { kind: "frame", checked: false, level: null });
  assert.deepEqual(resultFact("audio", audioBody("PASS")), { kind: "audio", checked: true, level: "PASS" });
  // a segment not checked (the stream ended first, a backlog, no detector for any type asked): detectType 2
  const unchecked = { requestId: "t_a3", audioDetail: { riskLevel: "PASS", auxInfo: { detectType: 2, notAppliedTypes: ["MOAN"] } } };
  assert.deepEqual(resultFact("audio", unchecked), { kind: "audio", checked: false, level: "PASS" });
  assert.deepEqual(nextRisk({ currentRisk: null, worstRisk: null }, resultFact("audio", unchecked)), { currentRisk: null, worstRisk: null }, "moves neither NOW nor worst");
  assert.deepEqual(laneWorst([resultFact("audio", unchecked)]), { frames: null, audio: null });
});

test("NOW is the last checked result; unchecked frames move neither NOW nor worst", () => {
  const facts: ResultFact[] = [checked("PASS"), checked("REJECT"), notChecked, checked("REVIEW"), notChecked, notChecked];
  const end = facts.reduce<RiskState>(nextRisk, { currentRisk: null, worstRisk: null });
  assert.deepEqual(end, { currentRisk: "REVIEW", worstRisk: "REJECT" });
  // a stream of only unchecked frames has no risk at all, not PASS
  assert.deepEqual([notChecked, notChecked].reduce<RiskState>(nextRisk, { currentRisk: null, worstRisk: null }), { currentRisk: null, worstRisk: null });
  // worst is never lowered, by anything
  assert.deepEqual(nextRisk({ currentRisk: "REJECT", worstRisk: "REJECT" }, checked("PASS")), { currentRisk: "PASS", worstRisk: "REJECT" });
  // audio segments are checked results
  assert.deepEqual(nextRisk({ currentRisk: "REVIEW", worstRisk: "REVIEW" }, { kind: "audio", checked: true, level: "PASS" }), { currentRisk: "PASS", worstRisk: "REVIEW" });
  assert.deepEqual(nextRisk({ currentRisk: "PASS", worstRisk: "PASS" }, { kind: "frame", checked: true, level: null }), { currentRisk: "PASS", worstRisk: "PASS" });
});

test("the timeline counts unchecked frames apart: never as PASS", () => {
  const events: StreamEvent[] = [frameBody("PASS"), frameBody("PASS", 2), frameBody("REVIEW", 1), frameBody("PASS", 2), frameBody("PASS", 2)].map((body, i) => ({ id: i + 1, requestId: "t", kind: "frame" as const, receivedAt: new Date(1000 * i).toISOString(), body }));
  const { frames } = lanes(events, new Date(0).toISOString());
  const counts = frameCounts(frames);
  assert.deepEqual(counts, { levels: { PASS: 1, REVIEW: 1, REJECT: 0 }, notChecked: 3 });
  const unchecked = frames.filter((f) => f.kind === "frame" && !f.checked);
  assert.equal(unchecked.length, 3);
  for (const f of unchecked) assert.equal(f.kind === "frame" && f.level, null, "an unchecked frame has no level");
});

test("behind: without detectStep any unchecked frame; with detectStep N fewer than ⌊M/N⌋ checked", () => {
  assert.equal(isBehind({ frames: 10, notChecked: 0 }, null), false);
  assert.equal(isBehind({ frames: 10, notChecked: 1 }, null), true);
  assert.equal(isBehind({ frames: 10, notChecked: 1 }, 1), true);
  // step 2 over 5 consecutive frames checks 2 or 3 of them: on time
  assert.equal(isBehind({ frames: 5, notChecked: 3 }, 2), false);
  assert.equal(isBehind({ frames: 5, notChecked: 2 }, 2), false);
  assert.equal(isBehind({ frames: 5, notChecked: 4 }, 2), true);
  // step 3, 60 frames: 20 must be checked
  assert.equal(isBehind({ frames: 60, notChecked: 40 }, 3), false);
  assert.equal(isBehind({ frames: 60, notChecked: 45 }, 3), true);
  // fewer frames than the step: nothing is owed yet
  assert.equal(isBehind({ frames: 2, notChecked: 2 }, 5), false);
});

test("the behind notice says N of M in the last minute, only for a running stream with a recent result", () => {
  const now = Date.parse("2026-01-01T10:00:30Z");
  const s: Pick<StreamSummary, "status" | "framesLastMinute" | "notCheckedLastMinute" | "detectStep" | "lastResultAt"> = { status: "running", framesLastMinute: 20, notCheckedLastMinute: 7, detectStep: null, lastResultAt: "2026-01-01T10:00:29Z" };
  assert.equal(behindNotice(s, now)?.text, "detection behind: 7 of 20 frames not checked in the last minute");
  assert.equal(behindNotice({ ...s, status: "ended" }, now), null);
  assert.equal(behindNotice({ ...s, notCheckedLastMinute: 0 }, now), null);
  assert.equal(behindNotice({ ...s, lastResultAt: null }, now), null);
  // counted more than a minute ago: the counts no longer describe the last minute
  assert.equal(behindNotice({ ...s, lastResultAt: "2026-01-01T09:59:29Z" }, now), null);
  // step 2 explains 10 of 20
  assert.equal(behindNotice({ ...s, notCheckedLastMinute: 10, detectStep: 2 }, now), null);
  assert.equal(behindNotice({ ...s, notCheckedLastMinute: 11, detectStep: 2 }, now)?.notChecked, 11);
});

test("per-lane worst: frames from checked ones only, audio from its segments; the stream-end's level plays no part", () => {
  assert.deepEqual(laneWorst([checked("PASS"), notChecked, { kind: "audio", checked: true, level: "PASS" }, { kind: "audio", checked: true, level: "PASS" }]), { frames: "PASS", audio: "PASS" });
  // a REJECT frame does not make the audio lane REJECT (the bug: "audio review: REJECT" with every segment PASS)
  assert.deepEqual(laneWorst([checked("REJECT"), { kind: "audio", checked: true, level: "PASS" }]), { frames: "REJECT", audio: "PASS" });
  assert.deepEqual(laneWorst([{ kind: "frame", checked: false, level: "REJECT" }, { kind: "audio", checked: true, level: "REVIEW" }]), { frames: null, audio: "REVIEW" });
  assert.deepEqual(laneWorst([]), { frames: null, audio: null });
});
