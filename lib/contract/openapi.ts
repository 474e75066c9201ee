// OpenAPI 3.1 document generated from the zod contract (zod 4 native JSON Schema, draft 2020-12).
//
// The zod schemas describe the vendor contract and are what requests and received callbacks are parsed with;
// this file only documents. What our server sends beyond the vendor contract (notAppliedTypes, imgText on
// stream frames, vadCode on file audio, hash-bank / gallery / known-audio matches, …) is added to the
// generated JSON Schema here, each field described as an extension (and named in `x-extension-fields`), so the document describes every field
// the server may send without changing what the contract schemas accept. Cross-field rules the zod
// refinements enforce (which JSON Schema cannot see) are added as JSON Schema keywords where they can be
// stated exactly, and as text otherwise.
import { z } from "zod";
import { AudioStreamAuxInfo, AudioStreamCallback, AudioStreamSegmentResult } from "./audiostream-callbacks";
import { AudioStreamCloseRequest, AudioStreamCloseResponse, AudioStreamData, AudioStreamRequest, AudioStreamResponse } from "./audiostream";
import { AudioRiskDetail, ImgBusinessLabel, ImgRiskDetail, MatchedList } from "./common";
import { AgoraParam, AudioZegoParam, STREAM_PARAM_KEY as RTC_PARAMS, TrtcParam, VolcParam, WhepHeaders } from "./rtc";
import { AUDIOSTREAM_STREAM_TYPES, VIDEOSTREAM_STREAM_TYPES } from "./taxonomy";
import { AdvancedFrequency, VideoFileRequest, VideoFileResponse, VideoQueryRequest } from "./video";
import { VideoFileAudioDetail, VideoFileAuxInfo, VideoFileResult, VideoQueryResponse } from "./video-result";
import {
  FrameAuxInfo, VideoStreamAudioAuxInfo, VideoStreamAudioCallback, VideoStreamAudioResult, VideoStreamFrameDetail,
  VideoStreamFrameResult, VideoStreamImgCallback,
} from "./videostream-callbacks";
import { VideoStreamCloseRequest, VideoStreamCloseResponse, VideoStreamData, VideoStreamRequest, VideoStreamResponse } from "./videostream";

export interface Endpoint {
  path: string;
  operationId: string;
  summary: string;
  request: z.ZodType;
  response: z.ZodType;
}

/** The six POST endpoints with their request and 200-answer schemas. */
export const ENDPOINTS: readonly Endpoint[] = [
  { path: "/videostream/v4", operationId: "openVideoStream", summary: "Open a video stream task", request: VideoStreamRequest, response: VideoStreamResponse },
  { path: "/finish_videostream/v4", operationId: "closeVideoStream", summary: "Close a video stream task", request: VideoStreamCloseRequest, response: VideoStreamCloseResponse },
  { path: "/audiostream/v4", operationId: "openAudioStream", summary: "Open an audio stream task", request: AudioStreamRequest, response: AudioStreamResponse },
  { path: "/finish_audiostream/v4", operationId: "closeAudioStream", summary: "Close an audio stream task", request: AudioStreamCloseRequest, response: AudioStreamCloseResponse },
  { path: "/video/v4", operationId: "submitVideo", summary: "Submit a video file", request: VideoFileRequest, response: VideoFileResponse },
  { path: "/video/query/v4", operationId: "queryVideo", summary: "Poll a video file result", request: VideoQueryRequest, response: VideoQueryResponse },
];

/** Bodies our service POSTs to client URLs. */
export const WEBHOOKS: Readonly<Record<string, { summary: string; schema: z.ZodType }>> = {
  videoStreamImgCallback: { summary: "Video stream frame results and image stream-end → imgCallback", schema: VideoStreamImgCallback },
  videoStreamAudioCallback: { summary: "Video stream audio segments and audio stream-end → audioCallback", schema: VideoStreamAudioCallback },
  audioStreamCallback: { summary: "Audio stream segments and stream-end → callback", schema: AudioStreamCallback },
  videoFileCallback: { summary: "Video file result → callback (same body as a 1100 query answer)", schema: VideoFileResult },
};

// ---------- extensions: fields our server sends beyond the vendor contract ----------

const BEYOND = "Extension beyond the vendor v4 contract (clients written for the vendor can ignore it)";
/**
 * A documented extension field: its description says so. No `x-` keyword inside a schema: validators in strict mode
 * (Ajv's default) refuse unknown keywords; the document's `x-extension-fields` lists them by name instead.
 */
const EXTENSION_NAMES = new Set<string>();
const ext = <T extends z.ZodType>(schema: T, what: string): T => schema.meta({ description: `${BEYOND}: ${what}` }) as T;

const notAppliedTypes = (when: string) =>
  ext(z.array(z.string()), `requested types that no detector on this server covers (see GET /capabilities/v4); no result is produced for them. ${when}`);

const segmentDetectType = ext(z.literal([1, 2]), "2 when the segment was not checked (its stream ended before detection finished, the stream's detection backlog overflowed, or none of the requested types has a detector here: all are in notAppliedTypes): the result is an unlabelled PASS; absent when it was checked.");

const HashMatch = z.object({
  list: z.string().describe("hash-bank list"),
  entry: z.string().describe("bank entry the frame matched"),
  distance: z.int().min(0).max(64).describe("Hamming distance of the two 64-bit perceptual hashes that matched"),
  trimmed: z.boolean().optional().describe("true when the match needed the frame's (or the banked image's) uniform borders cut off"),
  method: z.enum(["phash", "phash-mirror", "phash-crop", "dhash", "dhash-mirror"]).optional()
    .describe("which hashes matched: pHash; pHash of the frame mirrored left to right; pHash against a 90–95 % crop of the banked image; dHash; dHash mirrored"),
});
const GalleryMatch = z.object({
  list: z.string().describe("face gallery list"),
  entry: z.string().describe("gallery entry the face matched"),
  similarity: z.number().describe("cosine similarity of the face embeddings"),
});
const KnownAudioMatch = z.object({
  list: z.string().describe("reference list (ANTHEN / BANEDAUDIO / COPYRIGHTSONGS)"),
  entry: z.string().describe("reference track matched"),
  offsetSec: z.number().describe("where the segment's start sits in the reference track, s"),
  score: z.number().describe("1 − fingerprint bit-error rate"),
  speed: z.number().optional().describe("present when the segment plays the track faster or slower (speed and pitch together): its speed, 1.06 = 6 % fast"),
});

/** Inner object of a `withAliases(…)` schema (a preprocess pipe). */
const aliased = (s: { out: z.ZodType }) => s.out;

/**
 * Extra properties per contract object (keyed by the zod definition, which `.meta()` / `.describe()` copies share).
 * Every one is a field server/task/stream-callbacks.ts, file-result.ts or audio-verdict.ts (and the detectors
 * behind them, server/detect/types.ts) may put into a body.
 */
const EXTENSION_FIELDS: ReadonlyArray<[z.ZodType, Record<string, z.ZodType>]> = [
  // request: the WHEP endpoint's bearer (streamType WEBRTC); accepted by the zod schema itself, listed here to be named
  [VideoStreamData, { headers: WhepHeaders }],
  [AudioStreamData, { headers: WhepHeaders }],
  // video stream frame (contentType 1)
  [FrameAuxInfo, {
    notAppliedTypes: notAppliedTypes("Present only when some type was not applied."),
    unchangedFrom: ext(z.string(), "the frame was checked without running the detectors: its pixels are unchanged from this earlier frame of the same stream (`<task>_v<n>`, the last one detected, at most 60 s before; every sample within 8 levels and every 8 × 8 block within 1 level on average), whose verdict it carries. Absent when the frame itself was detected."),
  }],
  [VideoStreamFrameDetail, { imgText: ext(z.string(), "the frame's OCR text (normalised), present when OCR ran (ADVERT or IMGTEXTRISK requested).") }],
  // audio segments (video stream contentType 2, audio stream)
  [aliased(VideoStreamAudioAuxInfo), { notAppliedTypes: notAppliedTypes("Present only when some type was not applied."), detectType: segmentDetectType }],
  [aliased(AudioStreamAuxInfo), { notAppliedTypes: notAppliedTypes("Present only when some type was not applied."), detectType: segmentDetectType }],
  // video file result (callback and Query 1100)
  [VideoFileAuxInfo, { notAppliedTypes: notAppliedTypes("Always present (empty when every requested type was applied). Files also list the types they had no track for: audio types of a file without audio, image types of one without video.") }],
  [VideoFileAudioDetail, { vadCode: ext(z.literal([0, 1]), "voice activity (Silero VAD): 1 when the segment holds speech, 0 otherwise (a tone, noise or instrumental music).") }],
  // risk details inside frames and segments
  [ImgRiskDetail, { hashMatch: ext(HashMatch, "the prohibited-image hash-bank entry behind a `prohibited:jinjitupian:*` label.") }],
  [AudioRiskDetail, { matchedTrack: ext(KnownAudioMatch, "the reference track behind a known-audio label (ANTHEN / BANEDAUDIO / COPYRIGHTSONGS), and where the segment sits in it.") }],
  [(MatchedList.shape.words.unwrap() as z.ZodArray<z.ZodType>).element, { entry: ext(z.string(), "which entry of the list matched: the word itself, or the id of a regex rule.") }],
  [ImgBusinessLabel.shape.businessDetail.unwrap(), {
    age: ext(z.number().min(0), "AGE / MINOR labels: the estimated age of the face, in years."),
    match: ext(GalleryMatch, "PUBLICFIGURE / TAINTEDSTAR labels: the gallery entry the face matched."),
  }],
  // /video/v4 answer for a btId still being processed
  [VideoFileResponse, { detail: ext(z.object({ errorCode: z.literal(1001), dupRequestId: z.string() }), "answer to a btId still queued or processing: the file is not started twice; requestId and dupRequestId name the running task.") }],
];

// ---------- cross-field rules the zod refinements enforce ----------

type JsonSchema = Record<string, unknown>;
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
  { if: { properties: { streamType: { const: "WEBRTC" } }, required: ["streamType"] }, else: { not: { required: ["headers"] } } },
  ...types.filter((t): t is keyof typeof RTC_PARAMS => t in RTC_PARAMS).map((t) => whenEquals("streamType", t, req(RTC_PARAMS[t]))),
];
const untrustedNeedsList = whenEquals("subscribeMode", "UNTRUSTED", { properties: { untrustedUserIdList: { minItems: 1 } }, required: ["untrustedUserIdList"] });

const TYPES_RULE = (a: string, b: string) => `at least one of \`${a}\` / \`${b}\` naming a type`;
const DATA_RULE = "`data` serialises to at most 1 MB";
const SOURCE_RULE = "`data.url` is required for streamType NORMAL; streamType WEBRTC (this service's extension) pulls `data.url`, an http(s) WHEP endpoint, over WebRTC (H.264/VP8 video, Opus audio), with the endpoint's bearer in `data.headers.Authorization` if it needs one (only WEBRTC takes `data.headers`); and an RTC streamType needs its provider object (AGORA → `data.agoraParam`, TRTC → `data.trtcParam`, …)";

interface Rules {
  /** JSON Schema keywords stating the rules exactly (each branch of allOf) */
  allOf?: JsonSchema[];
  /** the rules as text (including those JSON Schema cannot state) */
  text: string[];
}

/** Rules per contract object (requests: what the refinements check; results: what the server guarantees), keyed like EXTENSION_FIELDS. */
const CROSS_FIELD_RULES: ReadonlyArray<[z.ZodType, Rules]> = [
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

const defOf = (s: z.ZodType): object => s._zod.def;
const EXTENSIONS_BY_DEF = new Map(EXTENSION_FIELDS.map(([s, fields]) => [defOf(s), fields]));
const RULES_BY_DEF = new Map(CROSS_FIELD_RULES.map(([s, rules]) => [defOf(s), rules]));

function decorate(zodSchema: z.ZodType, json: JsonSchema, io: "input" | "output"): void {
  const fields = EXTENSIONS_BY_DEF.get(defOf(zodSchema));
  if (fields && json.type === "object") {
    const properties = ((json.properties as JsonSchema | undefined) ?? {}) as JsonSchema;
    for (const [key, schema] of Object.entries(fields)) {
      properties[key] = jsonSchemaOf(schema, io);
      EXTENSION_NAMES.add(key);
    }
    json.properties = properties;
  }
  const rules = RULES_BY_DEF.get(defOf(zodSchema));
  if (!rules) return;
  // a `.meta()` copy is decorated after its original and inherits part of it (allOf): add each part once
  const allOf = (json.allOf as JsonSchema[] | undefined) ?? [];
  const have = new Set(allOf.map((s) => JSON.stringify(s)));
  const missing = (rules.allOf ?? []).filter((s) => !have.has(JSON.stringify(s)));
  if (missing.length) json.allOf = [...allOf, ...missing];
  const description = typeof json.description === "string" ? json.description : "";
  if (!description.includes(RULES_HEADING)) {
    json.description = `${description ? `${description}\n\n` : ""}${RULES_HEADING}\n${rules.text.map((t) => `- ${t}`).join("\n")}`;
  }
}
const RULES_HEADING = "Cross-field rules:";

/** JSON Schema for one side of a zod schema, extensions and cross-field rules included; never throws (falls back to an unconstrained schema). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      override: ({ zodSchema, jsonSchema }) => decorate(zodSchema as unknown as z.ZodType, jsonSchema as JsonSchema, io),
    }) as Record<string, unknown>;
    return rest;
  } catch {
    return {};
  }
}

// ---------- the document ----------

const json = (schema: Record<string, unknown>) => ({ "application/json": { schema } });

/**
 * Request bodies: the service parses the body as JSON whatever the Content-Type. The vendor's PHP demo sends its JSON
 * as `application/x-www-form-urlencoded`, other demos as `text/plain` or with no Content-Type at all (the Lua demo):
 * listed so a gateway validating against this document lets real vendor clients through.
 */
const AS_JSON_TEXT = "The same JSON document as `application/json` (the body is parsed as JSON whatever the Content-Type; the vendor's PHP demo sends this content type). A request without any Content-Type is accepted the same way.";
const requestContent = (schema: Record<string, unknown>) => ({
  ...json(schema),
  "application/x-www-form-urlencoded": { schema: { description: AS_JSON_TEXT } },
  "text/plain": { schema: { description: AS_JSON_TEXT } },
});

/** The headers every callback carries (server/callback/dispatcher.ts, signer.ts). */
const WEBHOOK_HEADERS = [
  { name: "webhook-id", in: "header", required: true, description: "Delivery id (`msg_…`), the same on every retry of one callback: deduplicate on it. Standard Webhooks header, beyond the vendor contract.", schema: { type: "string" }, "x-extension": true },
  { name: "webhook-timestamp", in: "header", required: true, description: "Unix time in seconds of this attempt; reject signatures older than a few minutes. Standard Webhooks header, beyond the vendor contract.", schema: { type: "string", pattern: "^[0-9]+$" }, "x-extension": true },
  { name: "webhook-signature", in: "header", required: false, description: "`v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>` (see the `webhookSignature` security scheme). Sent when a signing secret is configured for the accessKey (CALLBACK_SIGNING_SECRETS) or globally (CALLBACK_SIGNING_SECRET). Beyond the vendor contract.", schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$" }, "x-extension": true },
  { name: "user-agent", in: "header", required: false, description: "`moderation-platform/1 callback`", schema: { type: "string" } },
];

const SIGNING = [
  "Callbacks are signed as in Standard Webhooks (https://www.standardwebhooks.com) when a signing secret is configured:",
  "`webhook-signature: v1,<base64(HMAC-SHA256(key, \"<webhook-id>.<webhook-timestamp>.<raw body>\"))>`.",
  "The key is the secret's UTF-8 bytes, or with a `whsec_` prefix the base64-decoded rest.",
  "Verify over the raw bytes received, accept any of the space-separated `v1,` signatures, compare in constant time,",
  "and refuse timestamps more than 5 minutes from now. Without a configured secret the header is absent.",
  "Beyond the vendor contract.",
].join(" ");

const RETRY_AFTER = { description: "Seconds to wait, sent with code 1901 (rate limits). Beyond the vendor contract.", schema: { type: "string", pattern: "^[0-9]+$" }, "x-extension": true };

/** `serverUrl` is PUBLIC_BASE_URL; null or absent gives a relative server (`/`): never derived from a request. */
export function buildOpenApi(opts: { serverUrl?: string | null } = {}): Record<string, unknown> {
  const serverUrl = opts.serverUrl ? opts.serverUrl.replace(/\/+$/, "") || "/" : "/";
  const paths: Record<string, unknown> = {};
  for (const e of ENDPOINTS) {
    paths[e.path] = {
      post: {
        operationId: e.operationId,
        summary: e.summary,
        description: "Body is parsed as JSON whatever the Content-Type; every handled request answers HTTP 200 with the business `code` in the body. The caller is identified by `accessKey` in the body (not an HTTP credential).",
        security: [],
        // Requests are documented as accepted (input side); answers as emitted (output side).
        requestBody: { required: true, content: requestContent(jsonSchemaOf(e.request, "input")) },
        responses: {
          "200": {
            description: "Business result; branch on `code`. Errors of any code carry only `code`, `message` and `requestId`.",
            headers: { "retry-after": RETRY_AFTER },
            content: json(jsonSchemaOf(e.response, "output")),
          },
        },
      },
    };
  }
  const webhooks: Record<string, unknown> = {};
  for (const [name, w] of Object.entries(WEBHOOKS)) {
    webhooks[name] = {
      post: {
        operationId: name,
        summary: w.summary,
        description: "POSTed as `application/json` to the URL given in the request; retried until the receiver answers exactly HTTP 200.",
        parameters: WEBHOOK_HEADERS,
        // signed when a secret is configured, unsigned otherwise
        security: [{ webhookSignature: [] }, {}],
        requestBody: { required: true, content: json(jsonSchemaOf(w.schema, "output")) },
        responses: { "200": { description: "Delivery acknowledged (exactly HTTP 200; anything else is retried)" } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Moderation API v4",
      version: "4",
      description: [
        "Video stream, audio stream and video file moderation (vendor v4 contract).",
        "Fields described as an extension (named in `x-extension-fields`) and headers marked `x-extension: true` are beyond the vendor contract: clients written for the vendor can ignore them. Schemas carry no `x-` keywords, so strict validators (Ajv's default) compile them.",
        "Schema keywords the zod contract cannot express natively are added from its refinements; each object's description lists its cross-field rules as text.",
        "Request bodies are parsed as JSON whatever the Content-Type (application/json, application/x-www-form-urlencoded, text/plain or none).",
      ].join(" "),
    },
    "x-extension-fields": [...EXTENSION_NAMES].sort(),
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: serverUrl }],
    paths,
    webhooks,
    components: {
      securitySchemes: {
        webhookSignature: { type: "apiKey", in: "header", name: "webhook-signature", description: SIGNING },
      },
    },
  };
}
