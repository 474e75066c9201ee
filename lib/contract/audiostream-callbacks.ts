// Audio stream callback bodies (docs/api.md §3.4, §3.5), all posted to the request's `callback`.
import { z } from "zod";
import {
  AudioAllLabel, AudioBusinessLabel, AudioRiskDetail, CallbackRequestId, PassThrough, RequestParams, RiskCore,
  TimestampMs, isPlainObject, tokenLabelsShape, withAliases,
} from "./common";
import { StreamEndAuxInfo, requireOn1100 } from "./videostream-callbacks";

const TagProbability = z.number().min(0).max(100);
const TagLabel = z.object({ label: z.string(), probability: TagProbability });
export const LanguageTag = z.object({ label: z.int().describe("0 Mandarin … 6 Korean, -1 other"), probability: TagProbability });

/** §5.7 audioTags; `language` as a single object (table form) is wrapped into the array form (§7 #23). */
export const AudioTags = z.object({
  gender: TagLabel.optional(),
  timbre: z.array(TagLabel).optional(),
  song: z.literal([0, 1]).optional(),
  language: z.preprocess((v) => (isPlainObject(v) ? [v] : v), z.array(LanguageTag)).optional(),
});
export type AudioTags = z.infer<typeof AudioTags>;

export const SpeakerSample = z.object({ uid: z.int(), volume: z.int().min(0).max(255) });

export const AudioStreamAuxInfo = withAliases(
  { audio_starttime: "audioStartTime", audio_endtime: "audioEndTime" },
  z.object({
    audioStartTime: z.string(),
    audioEndTime: z.string(),
    beginProcessTime: TimestampMs,
    finishProcessTime: TimestampMs,
    userId: z.int().optional(),
    strUserId: z.string().optional(),
    room: z.string().optional(),
    seiInfo: z.array(z.unknown()).optional(),
    passThrough: PassThrough.optional(),
  }),
);

export const AudioStreamAudioDetail = RiskCore.extend({
  audioUrl: z.string(),
  auxInfo: AudioStreamAuxInfo,
  audioText: z.string().optional(),
  preAudioUrl: z.string().optional(),
  riskDetail: AudioRiskDetail.optional(),
  businessLabels: z.array(AudioBusinessLabel).optional(),
  allLabels: z.array(AudioAllLabel).optional(),
  /** Token labels sit inside audioDetail for this product (§7 #24). */
  ...tokenLabelsShape,
  vadCode: z.literal([0, 1]).optional(),
  speakers: z.array(z.array(SpeakerSample)).max(10).optional(),
  audioTags: AudioTags.optional(),
});
export type AudioStreamAudioDetail = z.infer<typeof AudioStreamAudioDetail>;

const head = {
  requestId: CallbackRequestId,
  btId: z.string(),
  code: z.int(),
  message: z.string(),
};

/** §3.4 segment result (also the returnAllText "heartbeat"); `btid` accepted on input (§7 #4). */
export const AudioStreamSegmentResult = withAliases(
  { btid: "btId" },
  z
    .object({
      ...head,
      statCode: z.literal(0).default(0),
      requestParams: RequestParams,
      audioDetail: AudioStreamAudioDetail.optional(),
    })
    .superRefine(requireOn1100("audioDetail")),
).meta({ description: "Audio stream 10 s segment result" });
export type AudioStreamSegmentResult = z.infer<typeof AudioStreamSegmentResult>;

/** §3.5 audio stream-end; `btid`/`auxinfo` accepted on input. */
export const AudioStreamEnd = withAliases(
  { btid: "btId", auxinfo: "auxInfo" },
  z.object({
    ...head,
    statCode: z.literal(1),
    requestParams: RequestParams,
    auxInfo: StreamEndAuxInfo,
  }),
).meta({ description: "Audio stream end (statCode 1)" });
export type AudioStreamEnd = z.infer<typeof AudioStreamEnd>;

export const AudioStreamCallback = z.union([AudioStreamSegmentResult, AudioStreamEnd])
  .meta({ description: "Body posted to an audio stream callback" });
export type AudioStreamCallback = z.infer<typeof AudioStreamCallback>;
