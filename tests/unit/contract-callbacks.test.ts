// Callback and answer schemas: alternate spellings in, canonical out; unions pick the right shape.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AudioStreamCallback, AudioStreamEnd, AudioStreamSegmentResult, VideoFileResult, VideoQueryResponse,
  VideoStreamAudioCallback, VideoStreamAudioResult, VideoStreamImgCallback, VideoStreamResponse, AudioStreamResponse,
  AllLabel, AudioAllLabel, ImgAllLabel,
} from "../../lib/contract";

const dup = { code: 1100, message: "Success", requestId: "66fb85e3149bb9e13d6c72161cc6c6cf" };

test("duplicate ack: detail.errorcode accepted, errorCode emitted", () => {
  const out = VideoStreamResponse.parse({ ...dup, detail: { errorcode: 1001, dupRequestId: dup.requestId } });
  assert.deepEqual(out.detail, { errorCode: 1001, dupRequestId: dup.requestId });
  const both = AudioStreamResponse.parse({ ...dup, detail: { errorCode: 1001, errorcode: 9, dupRequestId: "x" } });
  assert.deepEqual(both.detail, { errorCode: 1001, dupRequestId: "x" });
});

const audioSegment = (auxInfo: Record<string, unknown>) => ({
  code: 1100, message: "Success", requestId: "t_a3", contentType: 2, statCode: 0,
  audioDetail: {
    audioUrl: "https://aud.example/3.mp3", vadCode: 1, riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "",
    riskDescription: "正常", allLabels: [], auxInfo: { beginProcessTime: 1666876123332, finishProcessTime: 1666876123893, ...auxInfo },
  },
});

test("video stream audio auxInfo: audio_starttime/audio_endtime → audioStartTime/audioEndTime", () => {
  const out = VideoStreamAudioResult.parse(audioSegment({ audio_starttime: "2022-10-27 21:08:32", audio_endtime: "2022-10-27 21:08:42" }));
  assert.equal(out.audioDetail?.auxInfo.audioStartTime, "2022-10-27 21:08:32");
  assert.equal(out.audioDetail?.auxInfo.audioEndTime, "2022-10-27 21:08:42");
  assert.equal("audio_starttime" in (out.audioDetail?.auxInfo ?? {}), false);
  assert.equal(VideoStreamAudioResult.safeParse(audioSegment({})).success, false);
});

test("statCode is emitted even when the input omits it; 1100 requires the detail", () => {
  const { statCode: _s, ...noStat } = audioSegment({ audioStartTime: "a", audioEndTime: "b" });
  assert.equal(VideoStreamAudioResult.parse(noStat).statCode, 0);
  const r = VideoStreamAudioResult.safeParse({ code: 1100, message: "Success", requestId: "t_a1", contentType: 2 });
  assert.equal(r.success, false);
  assert.ok(VideoStreamAudioResult.safeParse({ code: 1903, message: "Service failure", requestId: "t_a1", contentType: 2 }).success);
});

test("video stream callback unions separate segments from stream-end; auxinfo accepted", () => {
  const end = { code: 1100, message: "Success", requestId: "t", statCode: 1, contentType: 2, riskLevel: "REJECT", pullStreamSuccess: false, auxinfo: { streamTime: 12, errorCode: 3001 } };
  const out = VideoStreamAudioCallback.parse(end);
  assert.equal(out.statCode, 1);
  assert.deepEqual("auxInfo" in out ? out.auxInfo : undefined, { streamTime: 12, errorCode: 3001 });
  assert.equal(VideoStreamAudioCallback.parse(audioSegment({ audioStartTime: "a", audioEndTime: "b" })).statCode, 0);
  assert.equal(VideoStreamImgCallback.safeParse({ ...end, auxInfo: { streamTime: 1, errorCode: 4000 } }).success, false);
});

const segment = {
  requestId: "b6_2", btid: "room2-0001", code: 1100, message: "Success", statCode: 0, requestParams: { btId: "room2-0001" },
  audioDetail: {
    audioUrl: "https://aud.example/2.mp3", riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: "正常",
    auxInfo: { audioStartTime: "2021-11-25 21:31:40", audioEndTime: "2021-11-25 21:31:50", beginProcessTime: 1637847113897, finishProcessTime: 1637847114514 },
    audioTags: { gender: { label: "男性", probability: 99 }, language: { label: 0, probability: 99 } },
  },
};

test("audio stream segment: btid → btId, audioTags.language object → array", () => {
  const out = AudioStreamSegmentResult.parse(segment);
  assert.equal(out.btId, "room2-0001");
  assert.equal("btid" in out, false);
  assert.deepEqual(out.audioDetail?.audioTags?.language, [{ label: 0, probability: 99 }]);
  const arr = AudioStreamSegmentResult.parse({ ...segment, audioDetail: { ...segment.audioDetail, audioTags: { language: [{ label: 1, probability: 3 }] } } });
  assert.deepEqual(arr.audioDetail?.audioTags?.language, [{ label: 1, probability: 3 }]);
});

test("audio stream end: btid/auxinfo accepted; union picks by statCode", () => {
  const end = { requestId: "b6", btid: "x", code: 1100, message: "Success", statCode: 1, requestParams: {}, auxinfo: { errorCode: 3005, streamTime: 3600 } };
  const out = AudioStreamEnd.parse(end);
  assert.equal(out.btId, "x");
  assert.deepEqual(out.auxInfo, { errorCode: 3005, streamTime: 3600 });
  const viaUnion = AudioStreamCallback.parse(end);
  assert.equal(viaUnion.statCode, 1);
  assert.equal(AudioStreamCallback.parse(segment).statCode, 0);
});

test("video file result and query: discriminated on code", () => {
  const processing = { code: 1101, message: "Processing", requestId: "r", btId: "b" };
  assert.equal(VideoQueryResponse.parse(processing).code, 1101);
  const failed = { code: 1905, message: "Unrecognized content", requestId: "r", btId: "b" };
  assert.deepEqual(VideoFileResult.parse(failed), failed);
  assert.equal(VideoQueryResponse.parse({ code: 1902, message: "Invalid parameters", requestId: "r" }).code, 1902);
  // 1100 without the result fields is not a valid result.
  assert.equal(VideoFileResult.safeParse({ ...processing, code: 1100 }).success, false);
  // 1101 is a query state, never a callback.
  assert.equal(VideoFileResult.safeParse(processing).success, false);
  const ok = { code: 1100, message: "Success", requestId: "r", btId: "b", riskLevel: "PASS", auxInfo: { frameCount: 0, billingImgNum: 3, billingAudioDuration: 0, time: 12.5 } };
  assert.deepEqual(VideoQueryResponse.parse(ok), ok);
});

test("generic AllLabel keeps fields of either detail shape", () => {
  const label = { riskLabel1: "ad", riskLabel2: "ad", riskLabel3: "ad", riskDescription: "广告:广告:广告", riskDetail: { riskSource: 1001, audioText: "buy", ocrText: { text: "buy" } } };
  assert.deepEqual(AllLabel.parse(label), label);
  assert.equal(ImgAllLabel.parse(label).riskDetail?.ocrText?.text, "buy");
  assert.equal(AudioAllLabel.parse(label).riskDetail?.audioText, "buy");
});
