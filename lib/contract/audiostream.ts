// POST /audiostream/v4 and /finish_audiostream/v4 (docs/api.md §2.3, §2.4, §8).
import { z } from "zod";
import {
  AccessKey, AcceptLang, AppId, AudioDetectStep, CallbackUrl, DeviceId, DuplicateDetail, Envelope, EventId,
  Extra, Flag, Gender, Ip, Lang, Level, ReceiveTokenId, Room, StreamUrl, TokenId, intRange, typeList,
} from "./common";
import { checkDataSize, requireOneOf } from "./request-rules";
import {
  AgoraParam, AudioAliParam, AudioZegoParam, GinParam, TrtcParam, VolcParam, YunxinParam, WhepHeaders, checkStreamSource,
} from "./rtc";
import { AUDIOSTREAM_BUSINESS_TYPES, AUDIOSTREAM_STREAM_TYPES, AUDIOSTREAM_TYPES } from "./taxonomy";
import { CloseStreamRequest, CloseStreamResponse } from "./videostream";

export const AudioBtId = z.string().min(1).max(128);

export const AudioStreamData = z
  .object({
    tokenId: TokenId.optional(),
    /** Required, but may come from the top level instead (§8); the request transform fills it. */
    btId: AudioBtId.optional(),
    /** §8: the vendor demos omit it. */
    streamType: z.enum(AUDIOSTREAM_STREAM_TYPES).default("NORMAL"),
    url: StreamUrl.optional(),
    headers: WhepHeaders.optional(),
    zegoParam: AudioZegoParam.optional(),
    agoraParam: AgoraParam.optional(),
    trtcParam: TrtcParam.optional(),
    volcParam: VolcParam.optional(),
    ginParam: GinParam.optional(),
    aliParam: AudioAliParam.optional(),
    yunxinParam: YunxinParam.optional(),
    initDomain: intRange(0, 6).optional(),
    lang: Lang.optional(),
    room: Room.optional(),
    returnAllText: Flag.optional(),
    returnPreText: Flag.optional(),
    returnPreAudio: Flag.optional(),
    returnFinishInfo: Flag.optional(),
    audioDetectStep: AudioDetectStep.optional(),
    extra: Extra.optional(),
    liveTitle: z.string().optional(),
    anchorName: z.string().optional(),
    receiveTokenId: ReceiveTokenId.optional(),
    deviceId: DeviceId.optional(),
    ip: Ip.optional(),
    level: Level.optional(),
    gender: Gender.optional(),
  })
  .superRefine(checkStreamSource);
export type AudioStreamData = z.infer<typeof AudioStreamData>;

export const AudioStreamRequest = z
  .object({
    accessKey: AccessKey,
    appId: AppId,
    eventId: EventId,
    type: typeList(AUDIOSTREAM_TYPES, "type").optional(),
    businessType: typeList(AUDIOSTREAM_BUSINESS_TYPES, "businessType").optional(),
    callback: CallbackUrl,
    acceptLang: AcceptLang.optional(),
    /** §8 demo form: btId at the top level; data.btId wins when both are given. */
    btId: AudioBtId.optional(),
    data: AudioStreamData,
  })
  .superRefine((v, ctx) => {
    requireOneOf(v, "type", "businessType", ctx);
    if (v.data.btId === undefined && v.btId === undefined) {
      ctx.addIssue({ code: "custom", path: ["data", "btId"], message: "required (in data or at the top level)" });
    }
    checkDataSize(v.data, ctx);
  })
  .transform(({ btId, ...v }) => ({ ...v, data: { ...v.data, btId: (v.data.btId ?? btId) as string } }))
  .meta({ description: "Open an audio stream moderation task (POST /audiostream/v4)" });
export type AudioStreamRequest = z.infer<typeof AudioStreamRequest>;
export type AudioStreamRequestInput = z.input<typeof AudioStreamRequest>;

export const AudioStreamResponse = Envelope.extend({ detail: DuplicateDetail.optional() })
  .meta({ description: "Answer of POST /audiostream/v4" });
export type AudioStreamResponse = z.infer<typeof AudioStreamResponse>;

export const AudioStreamCloseRequest = CloseStreamRequest.meta({ description: "Close an audio stream task (POST /finish_audiostream/v4)" });
export type AudioStreamCloseRequest = z.infer<typeof AudioStreamCloseRequest>;
export const AudioStreamCloseResponse = CloseStreamResponse.meta({ description: "Answer of POST /finish_audiostream/v4" });
export type AudioStreamCloseResponse = z.infer<typeof AudioStreamCloseResponse>;
