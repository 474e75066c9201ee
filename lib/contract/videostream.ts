// POST /videostream/v4 and /finish_videostream/v4 (docs/api.md §2.1, §2.2, §1.4, §8).
import { z } from "zod";
import {
  AccessKey, AcceptLang, AppId, AudioDetectStep, CallbackUrl, DetectFrequency, DeviceId, DuplicateDetail,
  Envelope, EventId, Extra, Flag, Gender, Ip, Lang, Level, ReceiveTokenId, Room, StreamUrl, TaskRequestId,
  TokenId, httpUrl, typeList,
} from "./common";
import { audioRequested, checkDataSize, requireOneOf } from "./request-rules";
import { AgoraParam, TrtcParam, VideoAliParam, VideoZegoParam, VolcParam, WhepHeaders, checkStreamSource } from "./rtc";
import { AUDIO_BUSINESS_TYPES, AUDIO_TYPES, IMG_BUSINESS_TYPES, IMG_TYPES, VIDEOSTREAM_STREAM_TYPES } from "./taxonomy";

export const VideoStreamData = z
  .object({
    streamType: z.enum(VIDEOSTREAM_STREAM_TYPES),
    tokenId: TokenId.optional(),
    /** §8: the vendor demo sends data.btId; kept and echoed. */
    btId: z.string().max(128).optional(),
    url: StreamUrl.optional(),
    headers: WhepHeaders.optional(),
    agoraParam: AgoraParam.optional(),
    trtcParam: TrtcParam.optional(),
    zegoParam: VideoZegoParam.optional(),
    volcParam: VolcParam.optional(),
    aliParam: VideoAliParam.optional(),
    lang: Lang.optional(),
    detectFrequency: DetectFrequency.optional().describe("capture every N s, 1–60, default 3; fraction floored"),
    detectStep: z.int().min(1).optional(),
    imgBusinessDetectStep: z.int().min(1).optional(),
    audioDetectStep: AudioDetectStep.optional(),
    returnAllImg: Flag.optional(),
    returnAllText: Flag.optional(),
    returnPreText: Flag.optional(),
    returnPreAudio: Flag.optional(),
    returnFinishInfo: Flag.optional(),
    room: Room.optional(),
    streamName: z.string().max(64).optional(),
    anchorName: z.string().optional(),
    liveTitle: z.string().optional(),
    liveCover: z.string().optional(),
    imgCompareBase: httpUrl(1024).optional(),
    deviceId: DeviceId.optional(),
    ip: Ip.optional(),
    receiveTokenId: ReceiveTokenId.optional(),
    level: Level.optional(),
    gender: Gender.optional(),
    extra: Extra.optional(),
  })
  .superRefine(checkStreamSource);
export type VideoStreamData = z.infer<typeof VideoStreamData>;

/** Defaults the service applies when a field is absent (kept out of the schema so echoes stay as sent). */
export const VIDEOSTREAM_DEFAULTS = { detectFrequency: 3, imgBusinessDetectStep: 1, lang: "zh", acceptLang: "zh" } as const;

export const VideoStreamRequest = z
  .object({
    accessKey: AccessKey,
    appId: AppId,
    eventId: EventId,
    imgType: typeList(IMG_TYPES, "imgType").optional(),
    imgBusinessType: typeList(IMG_BUSINESS_TYPES, "imgBusinessType").optional(),
    audioType: typeList(AUDIO_TYPES, "audioType").optional(),
    audioBusinessType: typeList(AUDIO_BUSINESS_TYPES, "audioBusinessType").optional(),
    imgCallback: CallbackUrl.optional(),
    audioCallback: CallbackUrl.optional(),
    /** §8 demo form: one URL serving as imgCallback and audioCallback when those are absent. */
    callback: CallbackUrl.optional(),
    acceptLang: AcceptLang.optional(),
    data: VideoStreamData,
  })
  .superRefine((v, ctx) => {
    requireOneOf(v, "imgType", "imgBusinessType", ctx);
    requireOneOf(v, "audioType", "audioBusinessType", ctx);
    if (v.imgCallback === undefined && v.callback === undefined) {
      ctx.addIssue({ code: "custom", path: ["imgCallback"], message: "required (or the single callback)" });
    }
    if (audioRequested(v) && v.audioCallback === undefined && v.callback === undefined) {
      ctx.addIssue({ code: "custom", path: ["audioCallback"], message: "required when audio is detected (audioType other than NONE or audioBusinessType set)" });
    }
    checkDataSize(v.data, ctx);
  })
  .transform(({ callback, ...v }) => ({
    ...v,
    imgCallback: (v.imgCallback ?? callback) as string,
    audioCallback: v.audioCallback ?? callback,
  }))
  .meta({ description: "Open a video stream moderation task (POST /videostream/v4)" });
export type VideoStreamRequest = z.infer<typeof VideoStreamRequest>;
export type VideoStreamRequestInput = z.input<typeof VideoStreamRequest>;

/** Submit ack; `detail` only on a duplicate submission (§1.4). */
export const VideoStreamResponse = Envelope.extend({ detail: DuplicateDetail.optional() })
  .meta({ description: "Answer of POST /videostream/v4" });
export type VideoStreamResponse = z.infer<typeof VideoStreamResponse>;

export const CloseStreamRequest = z.object({ accessKey: AccessKey, requestId: TaskRequestId });
export type CloseStreamRequest = z.infer<typeof CloseStreamRequest>;
export const CloseStreamResponse = Envelope;
export type CloseStreamResponse = z.infer<typeof CloseStreamResponse>;

export const VideoStreamCloseRequest = CloseStreamRequest.meta({ description: "Close a video stream task (POST /finish_videostream/v4)" });
export type VideoStreamCloseRequest = z.infer<typeof VideoStreamCloseRequest>;
export const VideoStreamCloseResponse = CloseStreamResponse.meta({ description: "Answer of POST /finish_videostream/v4" });
export type VideoStreamCloseResponse = z.infer<typeof VideoStreamCloseResponse>;
