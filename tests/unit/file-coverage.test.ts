// A file's verdict shows plain PASS only when every requested check ran (lib/file-coverage.ts).
import assert from "node:assert/strict";
import { untestable } from "../../server/task/file-pipeline";
import { test } from "node:test";
import { describeGaps, fileCoverage, resultFactsOf, summariseGaps, verdictDisplay } from "../../lib/file-coverage";
import { requestedTypesOf } from "../../server/dashboard/file-coverage";

/** A Query 1100 body as the service builds it (server/task/file-result.ts), PASS frames left out. */
const result = (aux: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  code: 1100,
  riskLevel: "PASS",
  auxInfo: { frameCount: 0, billingImgNum: 6, billingAudioDuration: 12, time: 12, notAppliedTypes: [], ...aux },
  frameDetail: [],
  audioDetail: [],
  ...extra,
});

test("the request's types per channel: aliases resolved, NONE and business types as the service reads them", () => {
  assert.deepEqual(requestedTypesOf({ imgType: "POLITY_VIOLENT", audioType: "NONE" }), { image: ["POLITY", "VIOLENT"], audio: [] });
  assert.deepEqual(requestedTypesOf({ imgType: "QRCODE", imgBusinessType: "FACEDETECTION", audioType: "ADVERT", audioBusinessType: "SING" }), { image: ["QRCODE", "FACEDETECTION"], audio: ["ADVERT", "SING"] });
});

test("nothing requested was applied (empty politicians list and hash bank): NOT CHECKED, never a plain PASS", () => {
  const c = fileCoverage(requestedTypesOf({ imgType: "POLITY_VIOLENT", audioType: "NONE" }), resultFactsOf(result({ notAppliedTypes: ["POLITY", "VIOLENT"] })));
  assert.equal(c.state, "not-checked");
  assert.deepEqual(c.gaps, [{ reason: "no-detector", types: ["POLITY", "VIOLENT"] }]);
  assert.deepEqual(verdictDisplay("PASS", c), { badge: "not-checked", tag: null });
  assert.match(describeGaps(c), /^POLITY, VIOLENT: no detector runs/);
});

test("audio requested, the file has no audio track: partly checked, the gap names the audio types", () => {
  const facts = resultFactsOf(result({ billingAudioDuration: 0 }));
  assert.equal(facts.hasAudio, false);
  const c = fileCoverage({ image: ["QRCODE"], audio: ["ADVERT"] }, facts);
  assert.equal(c.state, "partial");
  assert.deepEqual(c.gaps, [{ reason: "no-audio-track", types: ["ADVERT"] }]);
  assert.deepEqual(verdictDisplay("PASS", c), { badge: "risk", tag: "partly checked" });
  assert.equal(summariseGaps(c), "ADVERT (no audio track)");
  // the same file with audio NONE was fully checked: no audio track is no gap then
  assert.equal(fileCoverage({ image: ["QRCODE"], audio: [] }, facts).state, "checked");
  // the service also lists ADVERT in notAppliedTypes (it could not run): said once, as the missing track
  const listed = resultFactsOf(result({ billingAudioDuration: 0, notAppliedTypes: ["ADVERT"] }));
  assert.deepEqual(fileCoverage({ image: ["QRCODE"], audio: ["ADVERT"] }, listed).gaps, [{ reason: "no-audio-track", types: ["ADVERT"] }]);
});

test("service: the types a file cannot be checked for (no audio track, no video), a type of both channels only when neither ran", () => {
  assert.deepEqual(untestable({ hasVideo: true, hasAudio: false }, ["QRCODE", "POLITY"], ["ADVERT", "POLITY"]), ["ADVERT"]);
  assert.deepEqual(untestable({ hasVideo: false, hasAudio: true }, ["QRCODE"], ["ADVERT"]), ["QRCODE"]);
  assert.deepEqual(untestable({ hasVideo: true, hasAudio: true }, ["QRCODE"], ["ADVERT"]), []);
  assert.deepEqual(untestable({ hasVideo: true, hasAudio: false }, ["QRCODE"], []), []);
});

test("every requested type ran: plain PASS", () => {
  const c = fileCoverage({ image: ["QRCODE", "ADVERT"], audio: ["ADVERT"] }, resultFactsOf(result({})));
  assert.deepEqual(c, { state: "checked", gaps: [], hasAudio: true, requestKnown: true });
  assert.deepEqual(verdictDisplay("PASS", c), { badge: "risk", tag: null });
});

test("a type asked of both channels and not applied on one is not counted as never checked", () => {
  // POLITY frames need the politicians list; POLITY speech runs on the transcript: the merged list cannot say which
  const c = fileCoverage({ image: ["POLITY"], audio: ["POLITY"] }, resultFactsOf(result({ notAppliedTypes: ["POLITY"] })));
  assert.equal(c.state, "partial");
  // with no audio track nothing can have run
  const silent = fileCoverage({ image: ["POLITY"], audio: ["POLITY"] }, resultFactsOf(result({ notAppliedTypes: ["POLITY"], billingAudioDuration: 0 })));
  assert.equal(silent.state, "not-checked");
});

test("an audio-only file with image types requested: the image types were not checked", () => {
  const c = fileCoverage({ image: ["QRCODE"], audio: ["ADVERT"] }, resultFactsOf(result({ billingImgNum: 0 })));
  assert.equal(c.state, "partial");
  assert.deepEqual(c.gaps, [{ reason: "no-video-track", types: ["QRCODE"] }]);
});

test("a risk found is still shown, with the coverage beside it", () => {
  const c = fileCoverage({ image: ["QRCODE", "VIOLENT"], audio: [] }, resultFactsOf(result({ notAppliedTypes: ["VIOLENT"] })));
  assert.deepEqual(verdictDisplay("REJECT", c), { badge: "risk", tag: "partly checked" });
});

test("facts: audio items or billed audio mean a track; per-item notAppliedTypes count; unknown stays unknown", () => {
  assert.equal(resultFactsOf(result({ billingAudioDuration: 0 }, { audioDetail: [{ riskLevel: "REVIEW" }] })).hasAudio, true);
  assert.equal(resultFactsOf({ code: 1100, auxInfo: {} }).hasAudio, null);
  assert.equal(resultFactsOf({ code: 1100, auxInfo: {} }).hasFrames, null);
  assert.deepEqual(resultFactsOf(result({}, { frameDetail: [{ auxInfo: { notAppliedTypes: ["EROTIC"] } }] })).notAppliedTypes, ["EROTIC"]);
});

test("request unknown (a remote service's file): gaps from the result, no assumed audio, never a silent PASS without a track", () => {
  const c = fileCoverage(null, resultFactsOf(result({ billingAudioDuration: 0 })));
  assert.equal(c.requestKnown, false);
  assert.deepEqual(verdictDisplay("PASS", c), { badge: "risk", tag: "coverage unknown" });
  assert.equal(fileCoverage(null, resultFactsOf(result({ notAppliedTypes: ["MOAN"] }))).state, "partial");
  assert.deepEqual(verdictDisplay("PASS", null), { badge: "risk", tag: "coverage unknown" });
});
