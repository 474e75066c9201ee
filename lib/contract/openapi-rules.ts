// Cross-field rules the zod refinements enforce (which JSON Schema cannot see), per contract object, for the OpenAPI
// document (lib/contract/openapi.ts): as JSON Schema keywords where they can be stated exactly, and as text otherwise.
import type { z } from "zod";
import { AudioStreamSegmentResult } from "./audiostream-callbacks";
import { AudioStreamData, AudioStreamRequest } from "./audiostream";
import { aliased } from "./openapi-extensions";
import { AgoraParam, AudioZegoParam, STREAM_PARAM_KEY as RTC_PARAMS, TrtcParam, VolcParam } from "./rtc";
import { AUDIOSTREAM_STREAM_TYPES, VIDEOSTREAM_STREAM_TYPES } from "./taxonomy";
import { AdvancedFrequency, VideoFileRequest } from "./video";
import { VideoStreamAudioResult, VideoStreamFrameResult } from "./videostream-callbacks";
import { VideoStreamData, VideoStreamRequest } from "./videostream";

export type JsonSchema = Record<string, unknown>;
/** `required` inside a rule; the empty `properties` entries only name the fields (their schemas are the object's own). */
const req = (...keys: string[]): JsonSchema => ({ properties: Object.fromEntries(keys.map((k) => [k, {}])), required: keys });
const oneOfFields = (a: string, b: string): JsonSchema => ({ anyOf: [req(a), req(b)] });
const whenEquals = (field: string, value: unknown, then: JsonSchema, present = true): JsonSchema => ({
  if: { properties: { [field]: { const: value } }, ...(present ? { required: [field] } : {}) },
  then,
});
const RESULT_REQUIRED_ON_1100 = (key: string) => whenEquals("code", 1100, req(key));

/** `data`: NORMAL needs url, an RTC streamType its provider object (`streamTypeDefaulted`: absent means NORMAL). */
const streamSource = (types: readonly string[], streamTypeDefaulted: boolean): JsonSchema[] => [
  whenEquals("streamType", "NORMAL", req("url"), !streamTypeDefaulted),
  whenEquals("streamType", "WEBRTC", { ...req("url"), properties: { url: { pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" } } }),
  { if: { properties: { streamType: { const: "WEBRTC" } }, required: ["streamType"] }, else: { properties: { headers: false } } },
  ...types.filter((t): t is keyof typeof RTC_PARAMS => t in RTC_PARAMS).map((t) => whenEquals("streamType", t, req(RTC_PARAMS[t]))),
];
const untrustedNeedsList = whenEquals("subscribeMode", "UNTRUSTED", { properties: { untrustedUserIdList: { minItems: 1 } }, required: ["untrustedUserIdList"] });

const TYPES_RULE = (a: string, b: string) => `at least one of \`${a}\` / \`${b}\` naming a type`;
const DATA_RULE = "`data` serialises to at most 1 MB";
const SOURCE_RULE = "`data.url` is required for streamType NORMAL; streamType WEBRTC (this service's extension) pulls `data.url`, an http(s) WHEP endpoint, over WebRTC (H.264/VP8 video, Opus audio), with the endpoint's bearer in `data.headers.Authorization` if it needs one (only WEBRTC takes `data.headers`); and an RTC streamType needs its provider object (AGORA → `data.agoraParam`, TRTC → `data.trtcParam`, …)";

export interface Rules {
  /** JSON Schema keywords stating the rules exactly (each branch of allOf) */
  allOf?: JsonSchema[];
  /** the rules as text (including those JSON Schema cannot state) */
  text: string[];
}

/** Rules per contract object (requests: what the refinements check; results: what the server guarantees), keyed like EXTENSION_FIELDS. */
export const CROSS_FIELD_RULES: ReadonlyArray<[z.ZodType, Rules]> = [
  [VideoStreamRequest, {
    allOf: [oneOfFields("imgType", "imgBusinessType"), oneOfFields("audioType", "audioBusinessType"), oneOfFields("imgCallback", "callback")],
    text: [TYPES_RULE("imgType", "imgBusinessType"), TYPES_RULE("audioType", "audioBusinessType"), "`imgCallback` is required, or the single `callback` (used for both when imgCallback / audioCallback are absent)", "`audioCallback` (or `callback`) is required when audio is detected: audioType other than NONE, or audioBusinessType set", DATA_RULE, SOURCE_RULE],
  }],
  [AudioStreamRequest, {
    allOf: [oneOfFields("type", "businessType"), { anyOf: [req("btId"), { properties: { data: req("btId") }, required: ["data"] }] }],
    text: [TYPES_RULE("type", "businessType"), "`data.btId` is required, or `btId` at the top level (data.btId wins when both are given)", DATA_RULE, SOURCE_RULE],
  }],
  [VideoFileRequest, {
    allOf: [oneOfFields("imgType", "imgBusinessType"), oneOfFields("audioType", "audioBusinessType")],
    text: [TYPES_RULE("imgType", "imgBusinessType"), TYPES_RULE("audioType", "audioBusinessType"), DATA_RULE],
  }],
  [VideoStreamData, { allOf: streamSource(VIDEOSTREAM_STREAM_TYPES, false), text: [SOURCE_RULE] }],
  [AudioStreamData, { allOf: streamSource(AUDIOSTREAM_STREAM_TYPES, true), text: ["streamType defaults to NORMAL", SOURCE_RULE] }],
  [AgoraParam, { allOf: [{ dependentRequired: { token: ["uid"] } }, untrustedNeedsList], text: ["`uid` is required when `token` is given", "subscribeMode UNTRUSTED needs a non-empty `untrustedUserIdList`"] }],
  [VolcParam, { allOf: [untrustedNeedsList], text: ["subscribeMode UNTRUSTED needs a non-empty `untrustedUserIdList`"] }],
  [TrtcParam, { allOf: [oneOfFields("roomId", "strRoomId")], text: ["one of `roomId` / `strRoomId` is required"] }],
  [AudioZegoParam, {
    allOf: [oneOfFields("roomId", "streamId"), whenEquals("isMixingEnabled", false, { ...req("roomId"), not: req("streamId") })],
    text: ["one of `roomId` / `streamId` is required", "isMixingEnabled false needs `roomId` and forbids `streamId`"],
  }],
  [AdvancedFrequency, { text: ["`frequencies` has exactly `durationPoints.length + 1` entries"] }],
  // result bodies: the result object is present exactly with code 1100
  [VideoStreamFrameResult, { allOf: [RESULT_REQUIRED_ON_1100("frameDetail")], text: ["`frameDetail` is present when code is 1100"] }],
  [VideoStreamAudioResult, { allOf: [RESULT_REQUIRED_ON_1100("audioDetail")], text: ["`audioDetail` is present when code is 1100"] }],
  [aliased(AudioStreamSegmentResult), { allOf: [RESULT_REQUIRED_ON_1100("audioDetail")], text: ["`audioDetail` is present when code is 1100"] }],
];
