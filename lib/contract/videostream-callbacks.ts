// Video stream callback bodies (docs/api.md §3.2, §3.3, §3.5): frames → imgCallback, audio → audioCallback.
import { z } from "zod";
import {
  AudioAllLabel, AudioBusinessLabel, AudioRiskDetail, CallbackRequestId, ImgAllLabel, ImgBusinessLabel, ImgRiskDetail,
  PassThrough, RequestParams, RiskCore, RiskLevel, TimestampMs, tokenLabelsShape, withAliases,
} from "./common";
import { STREAM_END_ERROR_CODES } from "./codes";

/** Result fields are present only with code 1100. */
function requireOn1100(key: string) {
  return (v: { code: number } & Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (v.code === 1100 && v[key] === undefined) {
      ctx.addIssue({ code: "custom", path: [key], message: "required when code is 1100" });
    }
  };
}
export { requireOn1100 };

const callbackHead = {
  code: z.int(),
  message: z.string(),
  requestId: CallbackRequestId,
};
/** Top-level auxInfo of running-task callbacks: only the client's passThrough. */
const TopAuxInfo = z.object({ passThrough: PassThrough.optional() });

export const FrameAuxInfo = z.object({
  beginProcessTime: TimestampMs,
  finishProcessTime: TimestampMs,
  imgTime: z.string().optional().describe("absolute capture time YYYY-MM-DD HH:mm:ss.SSS"),
  room: z.string().optional(),
  detectType: z.literal([1, 2]).optional().describe("1 detected / 2 skipped (only with detectStep)"),
  similarityDedup: z.literal(1).optional(),
  userId: z.int().optional(),
  strUserId: z.string().optional(),
});

export const VideoStreamFrameDetail = RiskCore.extend({
  imgUrl: z.string(),
  allLabels: z.array(ImgAllLabel),
  riskDetail: ImgRiskDetail,
  auxInfo: FrameAuxInfo,
  businessLabels: z.array(ImgBusinessLabel).optional(),
});
export type VideoStreamFrameDetail = z.infer<typeof VideoStreamFrameDetail>;

/** §3.2 frame result, contentType 1. statCode is always emitted; 0 assumed when absent. */
export const VideoStreamFrameResult = z
  .object({
    ...callbackHead,
    contentType: z.literal(1),
    statCode: z.literal(0).default(0),
    btId: z.string().optional().describe("the request's data.btId, echoed when it was given (vendor demos send it)"),
    frameDetail: VideoStreamFrameDetail.optional(),
    auxInfo: TopAuxInfo.optional(),
    ...tokenLabelsShape,
  })
  .superRefine(requireOn1100("frameDetail"))
  .meta({ description: "Video stream frame result (contentType 1) posted to imgCallback" });
export type VideoStreamFrameResult = z.infer<typeof VideoStreamFrameResult>;

/** Absolute segment times; `audio_starttime`/`audio_endtime` accepted on input (§7 #2). */
export const VideoStreamAudioAuxInfo = withAliases(
  { audio_starttime: "audioStartTime", audio_endtime: "audioEndTime" },
  z.object({
    audioStartTime: z.string(),
    audioEndTime: z.string(),
    beginProcessTime: TimestampMs,
    finishProcessTime: TimestampMs,
    room: z.string().optional(),
    userId: z.int().optional(),
    strUserId: z.string().optional(),
    passThrough: PassThrough.optional(),
  }),
);

export const VideoStreamAudioDetail = RiskCore.extend({
  audioUrl: z.string(),
  vadCode: z.literal([0, 1]),
  allLabels: z.array(AudioAllLabel),
  auxInfo: VideoStreamAudioAuxInfo,
  riskDetail: AudioRiskDetail.optional(),
  content: z.string().optional(),
  audioText: z.string().optional(),
  preAudioUrl: z.string().optional(),
  businessLabels: z.array(AudioBusinessLabel).optional(),
});
export type VideoStreamAudioDetail = z.infer<typeof VideoStreamAudioDetail>;

/** §3.3 audio-segment result, contentType 2. */
export const VideoStreamAudioResult = z
  .object({
    ...callbackHead,
    contentType: z.literal(2),
    statCode: z.literal(0).default(0),
    btId: z.string().optional().describe("the request's data.btId, echoed when it was given (vendor demos send it)"),
    audioDetail: VideoStreamAudioDetail.optional(),
    requestParams: RequestParams.optional(),
    ...tokenLabelsShape,
  })
  .superRefine(requireOn1100("audioDetail"))
  .meta({ description: "Video stream audio-segment result (contentType 2) posted to audioCallback" });
export type VideoStreamAudioResult = z.infer<typeof VideoStreamAudioResult>;

export const StreamEndErrorCodeSchema = z.literal(STREAM_END_ERROR_CODES);

export const StreamEndAuxInfo = z.object({
  streamTime: z.number().min(0).optional().describe("moderated duration in s"),
  errorCode: StreamEndErrorCodeSchema.optional().describe("only when a pull failure ended the task (§4)"),
});

/** §3.5 video stream-end: once per content type; `auxinfo` accepted on input (§7 #5). */
export const VideoStreamEnd = withAliases(
  { auxinfo: "auxInfo" },
  z.object({
    ...callbackHead,
    statCode: z.literal(1),
    contentType: z.literal([1, 2]),
    riskLevel: RiskLevel,
    pullStreamSuccess: z.boolean(),
    auxInfo: StreamEndAuxInfo.extend({ streamTime: z.number().min(0) }),
    detail: z.object({ requestParams: RequestParams }).optional().describe("contentType 1: echo of request data"),
    requestParams: RequestParams.optional().describe("contentType 2: echo of request data"),
  }),
).meta({ description: "Video stream end (statCode 1), one per content type" });
export type VideoStreamEnd = z.infer<typeof VideoStreamEnd>;

/** Everything posted to imgCallback. */
export const VideoStreamImgCallback = z.union([VideoStreamFrameResult, VideoStreamEnd])
  .meta({ description: "Body posted to a video stream imgCallback" });
export type VideoStreamImgCallback = z.infer<typeof VideoStreamImgCallback>;
/** Everything posted to audioCallback. */
export const VideoStreamAudioCallback = z.union([VideoStreamAudioResult, VideoStreamEnd])
  .meta({ description: "Body posted to a video stream audioCallback" });
export type VideoStreamAudioCallback = z.infer<typeof VideoStreamAudioCallback>;
export const VideoStreamCallback = z.union([VideoStreamFrameResult, VideoStreamAudioResult, VideoStreamEnd]);
export type VideoStreamCallback = z.infer<typeof VideoStreamCallback>;
