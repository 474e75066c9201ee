// POST /video/v4 and /video/query/v4 (docs/api.md §2.5, §2.6, §8).
import { z } from "zod";
import {
  AccessKey, AcceptLang, AppId, AudioDetectStep, DetectFrequency, DeviceId, Envelope, EventId, Extra, FileUrl,
  Flag, Gender, Ip, Lang, Level, ReceiveTokenId, TokenId, httpUrl, intRange, typeList,
} from "./common";
import { checkDataSize, requireOneOf } from "./request-rules";
import { AUDIO_BUSINESS_TYPES, AUDIO_TYPES, IMG_BUSINESS_TYPES, IMG_TYPES } from "./taxonomy";

export const VideoBtId = z.string().min(1).max(64);

/** Duration-dependent cadence: ≤p0 → f0, p(i-1)<d≤p(i) → f(i), >last → f(last). */
export const AdvancedFrequency = z
  .object({
    durationPoints: z.array(z.int().min(0)).max(5),
    frequencies: z.array(intRange(1, 60)).min(1).max(6),
  })
  .superRefine((v, ctx) => {
    if (v.frequencies.length !== v.durationPoints.length + 1) {
      ctx.addIssue({
        code: "custom",
        path: ["frequencies"],
        message: `must have durationPoints.length + 1 = ${v.durationPoints.length + 1} entries`,
      });
    }
  });
export type AdvancedFrequency = z.infer<typeof AdvancedFrequency>;

export const VideoFileData = z.object({
  btId: VideoBtId,
  tokenId: TokenId.optional(),
  url: FileUrl,
  /** CN JSON only; optional here (§7 #10): absent → checkFrameCount > advancedFrequency > detectFrequency. */
  screenshotType: intRange(0, 3).optional(),
  detectFrequency: DetectFrequency.optional().describe("capture every N s, 1–60, default 5"),
  advancedFrequency: AdvancedFrequency.optional(),
  checkFrameCount: z.int().min(1).optional(),
  audioDetectStep: AudioDetectStep.optional(),
  returnAllImg: Flag.optional(),
  returnAllAudio: Flag.optional(),
  returnAllVideo: Flag.optional(),
  lang: Lang.optional(),
  dataId: z.string().max(128).optional(),
  videoTitle: z.string().max(128).optional(),
  deviceId: DeviceId.optional(),
  ip: Ip.optional(),
  receiveTokenId: ReceiveTokenId.optional(),
  level: Level.optional(),
  gender: Gender.optional(),
  extra: Extra.optional(),
});
export type VideoFileData = z.infer<typeof VideoFileData>;

export const VIDEO_DEFAULTS = { detectFrequency: 5, lang: "zh", acceptLang: "zh" } as const;

export const VideoFileRequest = z
  .object({
    accessKey: AccessKey,
    appId: AppId,
    eventId: EventId,
    imgType: typeList(IMG_TYPES, "imgType").optional(),
    imgBusinessType: typeList(IMG_BUSINESS_TYPES, "imgBusinessType").optional(),
    audioType: typeList(AUDIO_TYPES, "audioType").optional(),
    audioBusinessType: typeList(AUDIO_BUSINESS_TYPES, "audioBusinessType").optional(),
    callback: httpUrl(500).optional().describe("absent = results by polling /video/query/v4 only"),
    acceptLang: AcceptLang.optional(),
    data: VideoFileData,
  })
  .superRefine((v, ctx) => {
    requireOneOf(v, "imgType", "imgBusinessType", ctx);
    requireOneOf(v, "audioType", "audioBusinessType", ctx);
    checkDataSize(v.data, ctx);
  })
  .meta({ description: "Submit a video file for moderation (POST /video/v4)" });
export type VideoFileRequest = z.infer<typeof VideoFileRequest>;
export type VideoFileRequestInput = z.input<typeof VideoFileRequest>;

export const VideoFileResponse = Envelope.extend({ btId: z.string().optional().describe("echoed on 1100") })
  .meta({ description: "Answer of POST /video/v4" });
export type VideoFileResponse = z.infer<typeof VideoFileResponse>;

export const VideoQueryRequest = z.object({ accessKey: AccessKey, btId: VideoBtId })
  .meta({ description: "Poll a video file result (POST /video/query/v4)" });
export type VideoQueryRequest = z.infer<typeof VideoQueryRequest>;

/** The callback body lives in video-result.ts; re-exported here under its endpoint-facing name. */
export { VideoFileResult as VideoFileCallback, VideoQueryResponse } from "./video-result";
