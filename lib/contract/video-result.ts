// Video file result (docs/api.md §3.6): the callback body and the /video/query/v4 answer (§2.6).
import { z } from "zod";
import {
  AudioAllLabel, AudioBusinessLabel, AudioRiskDetail, CallbackRequestId, ErrorCode, ImgAllLabel, ImgBusinessLabel,
  ImgRiskDetail, PassThrough, Probability, RiskCore, RiskLevel, tokenLabelsShape,
} from "./common";

export const VideoFileFrameDetail = RiskCore.extend({
  requestId: CallbackRequestId.describe("<task>_v<sec>"),
  imgUrl: z.string(),
  time: z.number().min(0).describe("s from the start of the file"),
  riskDetail: ImgRiskDetail,
  allLabels: z.array(ImgAllLabel),
  auxInfo: z.object({
    similarity: Probability.describe("vs the previous frame (first frame vs black)"),
    qrContent: z.string().optional(),
  }),
  imgText: z.string().optional(),
  businessLabels: z.array(ImgBusinessLabel).optional(),
});
export type VideoFileFrameDetail = z.infer<typeof VideoFileFrameDetail>;

export const VideoFileAudioDetail = RiskCore.extend({
  requestId: CallbackRequestId.describe("<task>_a0001"),
  audioUrl: z.string(),
  riskDetail: AudioRiskDetail,
  allLabels: z.array(AudioAllLabel),
  /** Vendor spelling kept for this product (§7 #3): float s relative to the file start. */
  audioStarttime: z.number().min(0).optional(),
  audioEndtime: z.number().min(0).optional(),
  audioText: z.string().optional(),
  businessLabels: z.array(AudioBusinessLabel).optional(),
});
export type VideoFileAudioDetail = z.infer<typeof VideoFileAudioDetail>;

export const VideoFileAuxInfo = z.object({
  frameCount: z.int().min(0).describe("frames returned"),
  billingImgNum: z.int().min(0).describe("frames grabbed"),
  billingAudioDuration: z.number().min(0).describe("s of audio track; 0 without audio"),
  time: z.number().min(0).describe("video length in s"),
  passThrough: PassThrough.optional().describe("callback only; the query omits it"),
});

/** code 1100: the full result. */
export const VideoFileResultSuccess = z.object({
  code: z.literal(1100),
  message: z.string(),
  requestId: z.string(),
  btId: z.string(),
  riskLevel: RiskLevel,
  auxInfo: VideoFileAuxInfo,
  frameDetail: z.array(VideoFileFrameDetail).optional(),
  audioDetail: z.array(VideoFileAudioDetail).optional(),
  ...tokenLabelsShape,
});
export type VideoFileResultSuccess = z.infer<typeof VideoFileResultSuccess>;

/** Any other code: only code, message, requestId, btId. */
export const VideoFileResultFailure = z.object({
  code: ErrorCode,
  message: z.string(),
  requestId: z.string(),
  btId: z.string(),
});
export type VideoFileResultFailure = z.infer<typeof VideoFileResultFailure>;

/** Callback body (when `callback` was given). */
export const VideoFileResult = z.discriminatedUnion("code", [VideoFileResultSuccess, VideoFileResultFailure])
  .meta({ description: "Video file result posted to callback" });
export type VideoFileResult = z.infer<typeof VideoFileResult>;

export const VideoQueryProcessing = z.object({
  code: z.literal(1101),
  message: z.string(),
  requestId: z.string(),
  btId: z.string(),
});
export type VideoQueryProcessing = z.infer<typeof VideoQueryProcessing>;

/** Query errors (e.g. 1902 unknown/expired btId) may lack btId. */
export const VideoQueryFailure = VideoFileResultFailure.extend({ btId: z.string().optional() });

/** 1101 still processing · 1100 the §3.6 body (without passThrough) · other codes bare. */
export const VideoQueryResponse = z.discriminatedUnion("code", [VideoQueryProcessing, VideoFileResultSuccess, VideoQueryFailure])
  .meta({ description: "Answer of POST /video/query/v4" });
export type VideoQueryResponse = z.infer<typeof VideoQueryResponse>;
