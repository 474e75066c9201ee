// UI view of the v4 video-file query/callback body (docs/api.md §2.6, §3.6). Optional where the vendor marks N,
// and lenient, because the page renders whatever GET /api/files/{btId}/result relays unchanged.
import type { RiskLevel } from "@/lib/dashboard-api";

export const QUERY_DONE = 1100;
export const QUERY_PROCESSING = 1101;

export interface RiskCore {
  riskLevel: RiskLevel;
  riskLabel1: string;
  riskLabel2: string;
  riskLabel3: string;
  riskDescription: string;
}

export interface MatchedWord {
  word: string;
  position?: number[];
}

export interface MatchedList {
  name: string;
  words?: MatchedWord[];
}

export interface RiskSegment {
  segment: string;
  position?: number[];
}

export interface DetectedObject {
  id?: string;
  name?: string;
  location?: number[];
  probability?: number;
  qrContent?: string;
}

export interface OcrText {
  text: string;
  matchedLists?: MatchedList[];
  riskSegments?: RiskSegment[];
}

export interface ImgRiskDetail {
  riskSource?: number;
  faces?: Array<{ id?: string; name?: string; location?: number[]; probability?: number; face_ratio?: number }>;
  face_num?: number;
  persons?: Array<{ id?: string; location?: number[]; probability?: number; person_ratio?: number }>;
  person_num?: number;
  objects?: DetectedObject[];
  ocrText?: OcrText;
  /** extension: the prohibited-image hash bank entry that matched */
  hashMatch?: { list: string; entry: string; distance: number };
}

export interface AudioRiskDetail {
  riskSource?: number;
  audioText?: string;
  /** extension: the reference track that matched (known audio) */
  matchedTrack?: { list: string; entry: string; offsetSec: number; score: number };
  matchedLists?: MatchedList[];
  riskSegments?: RiskSegment[];
}

export interface AllLabel<D> extends RiskCore {
  probability?: number;
  riskDetail?: D;
}

export interface BusinessLabel {
  businessLabel1: string;
  businessLabel2?: string;
  businessLabel3?: string;
  businessDescription?: string;
  probability?: number;
  confidenceLevel?: number;
}

export interface FrameDetail extends RiskCore {
  requestId: string;
  imgUrl: string;
  time: number;
  riskDetail?: ImgRiskDetail;
  allLabels?: AllLabel<ImgRiskDetail>[];
  auxInfo?: { similarity?: number; qrContent?: string };
  imgText?: string;
  businessLabels?: BusinessLabel[];
}

export interface AudioDetail extends RiskCore {
  requestId: string;
  audioUrl?: string;
  audioStarttime?: number;
  audioEndtime?: number;
  audioText?: string;
  riskDetail?: AudioRiskDetail;
  allLabels?: AllLabel<AudioRiskDetail>[];
  businessLabels?: BusinessLabel[];
}

export interface FileResultAuxInfo {
  frameCount?: number;
  billingImgNum?: number;
  billingAudioDuration?: number;
  time?: number;
  /** requested types with no real detector behind them (dashboard extension; may be absent) */
  notAppliedTypes?: string[];
}

/** code 1100: the full result. */
export interface FileResult {
  code: typeof QUERY_DONE;
  riskLevel: RiskLevel;
  message: string;
  requestId: string;
  btId: string;
  auxInfo?: FileResultAuxInfo;
  frameDetail?: FrameDetail[];
  audioDetail?: AudioDetail[];
}

/** 1101 (processing) or any error code: envelope only. */
export interface FileQueryEnvelope {
  code: number;
  message: string;
  requestId?: string;
  btId?: string;
}

export type FileQueryResponse = FileResult | FileQueryEnvelope;

export function isFileResult(r: FileQueryResponse | undefined): r is FileResult {
  return r !== undefined && r.code === QUERY_DONE;
}
