// Request schemas: §8 demo shapes, aliases, cross-field rules, and the 1902 message naming the field.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { z } from "zod";
import {
  AudioStreamRequest, VideoFileRequest, VideoStreamRequest, describeZodError, validate,
} from "../../lib/contract";

const videoStream = () => ({
  accessKey: "ak",
  appId: "default",
  eventId: "VIDEOSTREAM",
  imgType: "POLITY_EROTIC",
  audioType: "POLITY",
  imgCallback: "https://cb.example/img",
  audioCallback: "https://cb.example/aud",
  data: { streamType: "NORMAL", url: "rtmp://live.example/app/s1", tokenId: "u1" } as Record<string, unknown>,
} as Record<string, unknown>);

const audioStream = () => ({
  accessKey: "ak",
  appId: "default",
  eventId: "default",
  type: "POLITY",
  callback: "https://cb.example/audio",
  data: { btId: "b1", tokenId: "u1", streamType: "NORMAL", url: "rtmp://live.example/app/s2" } as Record<string, unknown>,
} as Record<string, unknown>);

const videoFile = () => ({
  accessKey: "ak",
  appId: "default",
  eventId: "video",
  imgType: "POLITY",
  audioType: "NONE",
  data: { btId: "vid-1", url: "https://cdn.example/a.mp4" } as Record<string, unknown>,
} as Record<string, unknown>);

/** The 1902 message for an input the schema must reject. */
function rejection(schema: z.ZodType, input: unknown): string {
  const r = validate(schema, input);
  assert.equal(r.success, false, "expected a rejection");
  return r.success ? "" : r.message;
}

test("§8 video_stream demo: single callback, no tokenId, data.btId, legacy names", () => {
  const demo = {
    accessKey: "ak", appId: "default", eventId: "video",
    imgType: "POLITY_QRCODE_ADVERT", audioType: "POLITICS_PORN_AD",
    callback: "https://jsonplaceholder.typicode.com/posts/",
    data: { url: "https://jsonplaceholder.typicode.com/posts/", streamType: "NORMAL", btId: "{BT_ID}" },
  };
  const out = VideoStreamRequest.parse(demo);
  assert.equal(out.imgCallback, demo.callback);
  assert.equal(out.audioCallback, demo.callback);
  assert.equal("callback" in out, false);
  assert.equal(out.data.btId, "{BT_ID}");
  assert.equal(out.data.tokenId, undefined);
  assert.equal(out.audioType, "POLITY_EROTIC_ADVERT");
});

test("explicit imgCallback/audioCallback win over the single callback", () => {
  const out = VideoStreamRequest.parse({ ...videoStream(), callback: "https://cb.example/both" });
  assert.equal(out.imgCallback, "https://cb.example/img");
  assert.equal(out.audioCallback, "https://cb.example/aud");
});

test("§8 audio_stream demo: no streamType, btId at top level, 2021 type names", () => {
  const demo = {
    accessKey: "ak", appId: "default", eventId: "audio", type: "POLITICS_PORN_AD_MOAN", btId: "top",
    callback: "https://jsonplaceholder.typicode.com/posts/", data: { url: "rtmp://live.example/a", tokenId: "u" },
  };
  const out = AudioStreamRequest.parse(demo);
  assert.equal(out.type, "POLITY_EROTIC_ADVERT_MOAN");
  assert.equal(out.data.streamType, "NORMAL");
  assert.equal(out.data.btId, "top");
  assert.equal("btId" in out, false);
  assert.equal(AudioStreamRequest.parse({ ...demo, data: { ...demo.data, btId: "inner" } }).data.btId, "inner");
  assert.match(rejection(AudioStreamRequest, { ...demo, btId: undefined }), /^invalid parameter data\.btId: required/);
});

test("type lists: aliases, dedupe, case, ABUSE → DIRTY, NONE mixed with others dropped", () => {
  const a = audioStream();
  assert.equal(AudioStreamRequest.parse({ ...a, type: "POLITICS_POLITY_political_ABUSE" }).type, "POLITY_DIRTY");
  const v = VideoStreamRequest.parse({ ...videoStream(), audioType: "NONE_POLITY", imgBusinessType: "3CPRODUCTSLOGO_DANCE" });
  assert.equal(v.audioType, "POLITY");
  assert.equal(v.imgBusinessType, "3CPRODUCTSLOGO_DANCE");
});

test("unknown type names are rejected, naming the value", () => {
  assert.equal(rejection(VideoStreamRequest, { ...videoStream(), imgType: "POLITY_KITTENS" }), 'invalid parameter imgType: unknown imgType "KITTENS"');
  // ABUSE maps to DIRTY, which is not an image type.
  assert.match(rejection(VideoFileRequest, { ...videoFile(), imgType: "ABUSE" }), /imgType: unknown imgType "ABUSE"/);
  assert.match(rejection(AudioStreamRequest, { ...audioStream(), businessType: "GENDER_MOAN" }), /businessType: unknown businessType "MOAN"/);
});

test("at-least-one rules name both fields", () => {
  const { imgType: _i, ...noImg } = videoStream();
  assert.equal(rejection(VideoStreamRequest, noImg), "invalid parameter imgType: at least one of imgType / imgBusinessType is required");
  assert.ok(VideoStreamRequest.safeParse({ ...noImg, imgBusinessType: "FOOD" }).success);
  const { audioType: _a, ...noAudio } = videoStream();
  assert.match(rejection(VideoStreamRequest, noAudio), /audioType: at least one of audioType \/ audioBusinessType/);
  const { type: _t, ...noType } = audioStream();
  assert.match(rejection(AudioStreamRequest, noType), /^invalid parameter type: at least one of type \/ businessType/);
  assert.ok(AudioStreamRequest.safeParse({ ...noType, businessType: "GENDER" }).success);
  const { imgType: _fi, ...fileNoImg } = videoFile();
  assert.match(rejection(VideoFileRequest, fileNoImg), /imgType: at least one of imgType \/ imgBusinessType/);
  assert.match(rejection(VideoFileRequest, { ...videoFile(), audioType: "" }), /audioType: at least one of/);
});

test("audioCallback is required only when audio is detected", () => {
  const { audioCallback: _c, ...v } = videoStream();
  assert.match(rejection(VideoStreamRequest, v), /^invalid parameter audioCallback: required when audio is detected/);
  assert.ok(VideoStreamRequest.safeParse({ ...v, audioType: "NONE" }).success);
  assert.match(rejection(VideoStreamRequest, { ...v, audioType: "NONE", audioBusinessType: "GENDER" }), /audioCallback/);
  const { imgCallback: _ic, ...noImgCb } = videoStream();
  assert.match(rejection(VideoStreamRequest, noImgCb), /^invalid parameter imgCallback: required/);
});

test("stream source: url for NORMAL, the matching *Param for RTC types", () => {
  const v = videoStream();
  assert.equal(rejection(VideoStreamRequest, { ...v, data: { streamType: "NORMAL" } }), "invalid parameter data.url: required for streamType NORMAL");
  assert.equal(rejection(VideoStreamRequest, { ...v, data: { streamType: "AGORA" } }), "invalid parameter data.agoraParam: required for streamType AGORA");
  assert.equal(rejection(AudioStreamRequest, { ...audioStream(), data: { btId: "b", streamType: "YUNXIN" } }), "invalid parameter data.yunxinParam: required for streamType YUNXIN");
  assert.match(rejection(VideoStreamRequest, { ...v, data: { streamType: "GIN", url: "rtmp://x/y" } }), /^invalid parameter data\.streamType: /);
  assert.match(rejection(VideoStreamRequest, { ...v, data: { streamType: "NORMAL", url: "ftp://x/y" } }), /data\.url: must be an rtmp, rtmps, http or https URL/);
  assert.match(rejection(VideoFileRequest, { ...videoFile(), data: { btId: "b", url: "rtmp://x/y" } }), /data\.url: must be an http or https URL/);
  assert.match(rejection(VideoStreamRequest, { ...v, imgCallback: "ftp://cb" }), /imgCallback: must be an http or https URL/);
});

test("data.headers (extension): a WHEP source's `Authorization: Bearer …`, accepted for streamType WEBRTC only", () => {
  const whep = { streamType: "WEBRTC", url: "https://whep.example/cam" };
  const ok = validate(VideoStreamRequest, { ...videoStream(), data: { ...whep, headers: { Authorization: "Bearer abc.DEF-123" } } });
  assert.ok(ok.success && (ok.data.data as { headers?: unknown }).headers !== undefined);
  assert.ok(validate(AudioStreamRequest, { ...audioStream(), data: { btId: "b", ...whep, headers: { Authorization: "Bearer t" } } }).success);
  assert.equal(rejection(VideoStreamRequest, { ...videoStream(), data: { streamType: "NORMAL", url: "rtmp://x/y", headers: { Authorization: "Bearer t" } } }), "invalid parameter data.headers: only allowed for streamType WEBRTC (the WHEP endpoint's bearer)");
  assert.match(rejection(AudioStreamRequest, { ...audioStream(), data: { btId: "b", url: "rtmp://x/y", headers: { Authorization: "Bearer t" } } }), /data\.headers: only allowed for streamType WEBRTC/);
  assert.match(rejection(VideoStreamRequest, { ...videoStream(), data: { ...whep, headers: { Authorization: "Basic dTpw" } } }), /data\.headers\.Authorization: must be `Bearer <token>`/);
  assert.match(rejection(VideoStreamRequest, { ...videoStream(), data: { ...whep, headers: { Cookie: "a=b" } } }), /data\.headers/);
});

test("RTC provider rules", () => {
  const v = videoStream();
  const agora = (p: Record<string, unknown>) => ({ ...v, data: { streamType: "AGORA", agoraParam: { appId: "a", channel: "c", ...p } } });
  assert.ok(VideoStreamRequest.safeParse(agora({ subscribeMode: "TRUSTED", trustedUserIdList: [1, 2] })).success);
  assert.ok(VideoStreamRequest.safeParse(agora({ subscribeMode: "TRUSTED", trustedUserIdList: ["1", "2"] })).success);
  assert.match(rejection(VideoStreamRequest, agora({ subscribeMode: "UNTRUSTED", untrustedUserIdList: [] })), /data\.agoraParam\.untrustedUserIdList: must be a non-empty list/);
  assert.match(rejection(VideoStreamRequest, agora({ token: "t" })), /data\.agoraParam\.uid: required when token is given/);
  assert.match(rejection(VideoStreamRequest, agora({ trustedUserIdList: [1, "2"] })), /data\.agoraParam\.trustedUserIdList/);
  const trtc = { sdkAppId: 1400000000, demoSences: 2, userId: "rec_1", userSig: "sig" };
  assert.match(rejection(VideoStreamRequest, { ...v, data: { streamType: "TRTC", trtcParam: trtc } }), /data\.trtcParam\.roomId: one of roomId \/ strRoomId is required/);
  assert.ok(VideoStreamRequest.safeParse({ ...v, data: { streamType: "TRTC", trtcParam: { ...trtc, strRoomId: "r-1" } } }).success);
  assert.match(rejection(VideoStreamRequest, { ...v, data: { streamType: "TRTC", trtcParam: { ...trtc, roomId: 0 } } }), /trtcParam\.roomId/);
  const ali = { room: "r", token: "t" };
  assert.equal(VideoStreamRequest.parse({ ...v, data: { streamType: "ALI", aliParam: { ...ali, userId: 7 } } }).data.aliParam?.userId, 7);
  const a = audioStream();
  assert.match(rejection(AudioStreamRequest, { ...a, data: { btId: "b", streamType: "ALI", aliParam: ali } }), /data\.aliParam\.userId: required/);
  assert.ok(AudioStreamRequest.safeParse({ ...a, data: { btId: "b", streamType: "ALI", aliParam: { ...ali, userId: "u" } } }).success);
  const zego = (p: Record<string, unknown>) => ({ ...a, data: { btId: "b", streamType: "ZEGO", zegoParam: { tokenId: "t", ...p } } });
  assert.ok(AudioStreamRequest.safeParse(zego({ streamId: "s" })).success);
  assert.match(rejection(AudioStreamRequest, zego({})), /zegoParam\.roomId: one of roomId \/ streamId/);
  assert.match(rejection(AudioStreamRequest, zego({ roomId: "r", streamId: "s", isMixingEnabled: false })), /zegoParam\.streamId: not allowed/);
  assert.match(rejection(VideoStreamRequest, { ...v, data: { streamType: "ZEGO", zegoParam: { tokenId: "t" } } }), /data\.zegoParam\.roomId: required/);
});

test("numeric ranges: detectFrequency floors, steps and flags bounded", () => {
  const v = videoStream();
  const data = (extra: Record<string, unknown>) => ({ ...v, data: { ...(v.data as object), ...extra } });
  assert.equal(VideoStreamRequest.parse(data({ detectFrequency: 2.7 })).data.detectFrequency, 2);
  assert.equal(VideoStreamRequest.parse(data({ detectFrequency: 0.2 })).data.detectFrequency, 1);
  assert.equal(VideoStreamRequest.parse(data({ detectFrequency: 60.9 })).data.detectFrequency, 60);
  assert.match(rejection(VideoStreamRequest, data({ detectFrequency: 61 })), /data\.detectFrequency: must be between 1 and 60/);
  assert.match(rejection(VideoStreamRequest, data({ audioDetectStep: 37 })), /data\.audioDetectStep/);
  assert.match(rejection(VideoStreamRequest, data({ returnAllImg: 2 })), /data\.returnAllImg: must be 0 or 1/);
  assert.match(rejection(VideoStreamRequest, data({ returnAllImg: "1" })), /data\.returnAllImg/);
  assert.match(rejection(VideoStreamRequest, data({ lang: "xx" })), /data\.lang/);
  assert.ok(VideoStreamRequest.safeParse(data({ lang: "auto" })).success);
  assert.match(rejection(VideoFileRequest, { ...videoFile(), data: { btId: "b", url: "https://x/a.mp4", screenshotType: 4 } }), /data\.screenshotType/);
  assert.match(rejection(VideoFileRequest, { ...videoFile(), data: { btId: "b", url: "https://x/a.mp4", checkFrameCount: 0 } }), /data\.checkFrameCount/);
});

test("advancedFrequency: frequencies.length must be durationPoints.length + 1", () => {
  const f = (af: unknown) => ({ ...videoFile(), data: { btId: "b", url: "https://x/a.mp4", advancedFrequency: af } });
  assert.ok(VideoFileRequest.safeParse(f({ durationPoints: [300, 600], frequencies: [1, 5, 10] })).success);
  assert.ok(VideoFileRequest.safeParse(f({ durationPoints: [], frequencies: [4] })).success);
  assert.equal(rejection(VideoFileRequest, f({ durationPoints: [300, 600], frequencies: [1, 5] })), "invalid parameter data.advancedFrequency.frequencies: must have durationPoints.length + 1 = 3 entries");
  assert.match(rejection(VideoFileRequest, f({ durationPoints: [1, 2, 3, 4, 5, 6], frequencies: [1, 1, 1, 1, 1, 1, 1] })), /durationPoints/);
  assert.match(rejection(VideoFileRequest, f({ durationPoints: [10], frequencies: [1, 61] })), /data\.advancedFrequency\.frequencies\[1\]/);
});

test("passThrough is kept untouched and limited to 1024 characters", () => {
  const pt = { a: { nested: [1, { deep: true }] }, s: "x" };
  const out = VideoFileRequest.parse({ ...videoFile(), data: { btId: "b", url: "https://x/a.mp4", extra: { passThrough: pt } } });
  assert.deepEqual(out.data.extra?.passThrough, pt);
  const big = { s: "x".repeat(1100) };
  assert.match(rejection(VideoFileRequest, { ...videoFile(), data: { btId: "b", url: "https://x/a.mp4", extra: { passThrough: big } } }), /data\.extra\.passThrough: must serialise to at most 1024/);
});

test("describeZodError: missing fields, lengths, non-object bodies", () => {
  const { accessKey: _k, ...noKey } = videoStream();
  assert.equal(rejection(VideoStreamRequest, noKey), "invalid parameter accessKey: required");
  assert.match(rejection(VideoStreamRequest, { ...videoStream(), accessKey: "k".repeat(21) }), /^invalid parameter accessKey: Too big/);
  assert.match(rejection(VideoStreamRequest, "not an object"), /^invalid parameter: expected object/);
  const r = VideoFileRequest.safeParse({ ...videoFile(), data: { url: "https://x/a.mp4" } });
  assert.ok(!r.success);
  assert.equal(describeZodError(r.error), "invalid parameter data.btId: required");
  assert.match(rejection(AudioStreamRequest, { ...audioStream(), data: { btId: "b", url: "rtmp://x/y", receiveTokenId: "bad id!" } }), /data\.receiveTokenId: only letters/);
});

test("unknown fields are ignored", () => {
  const out = VideoFileRequest.parse({ ...videoFile(), surprise: 1, data: { btId: "b", url: "https://x/a.mp4", streamType: "NORMAL" } });
  assert.equal("surprise" in out, false);
  assert.equal("streamType" in out.data, false);
});
