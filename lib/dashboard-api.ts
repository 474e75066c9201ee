// Shapes of the dashboard's own JSON API (app/api/*), used by components and route handlers.
import type { FileCoverage, FileRequestedTypes } from "./file-coverage";

export type RiskLevel = "PASS" | "REVIEW" | "REJECT";

export type CaptureMode = "detectFrequency" | "checkFrameCount" | "advancedFrequency" | "keyframes";

export interface FileSubmitInput {
  url: string;
  captureMode: CaptureMode;
  /** seconds for detectFrequency, count for checkFrameCount */
  captureValue?: number;
  advancedFrequency?: { durationPoints: number[]; frequencies: number[] };
  imgTypes: string[];
  audioTypes: string[]; // ["NONE"] for no audio
  /** empty → the dashboard's own receiver */
  callback?: string;
  returnAllImg: boolean;
  returnAllAudio: boolean;
  title?: string;
  /** the end user (contract tokenId) of the video; absent: none known */
  tokenId?: string;
}

export interface FileSummary {
  requestId: string;
  btId: string;
  url: string;
  title: string | null;
  status: "queued" | "processing" | "done" | "failed";
  riskLevel: RiskLevel | null;
  code: number | null;
  framesDone: number;
  framesTotal: number;
  createdAt: string; // ISO
  callbackReceivedAt: string | null;
  /** "api": submitted through the public API (embedded service only); keyName names its accessKey (never the key) */
  origin: TaskOrigin;
  keyName: string | null;
  /** the types the request asked for; null when the dashboard cannot read the request (a remote service's file) */
  requested: FileRequestedTypes | null;
  /** how much of that was really checked, once the result is known (lib/file-coverage.ts); null before */
  coverage: FileCoverage | null;
}

export type TaskOrigin = "dashboard" | "api";

export type ApiError = { error: string; code?: number };

export interface DashboardConfig {
  serviceBaseUrl: string;
  embedded: boolean;
  pollIntervalMs: number;
  /** UPLOAD_MAX_MB; null: this server takes no uploads */
  uploadMaxMb: number | null;
}

// ---- live streams ----

export type StreamKind = "video" | "audio";

export interface StreamStartInput {
  kind: StreamKind;
  url: string;
  /** NORMAL (default): rtmp(s), HTTP-FLV or HLS; WEBRTC: `url` is a WHEP endpoint (the contract's extension) */
  streamType?: "NORMAL" | "WEBRTC";
  /** the end user (contract tokenId) of the stream; absent: none known */
  tokenId?: string;
  title?: string;
  /** video: frame capture cadence in seconds (1–60, default 3) */
  detectFrequency?: number;
  /** video: imgType values; audio streams ignore it */
  imgTypes: string[];
  /** video: audioType values (["NONE"] = frames only); audio: the `type` values */
  audioTypes: string[];
  returnAllImg: boolean;
  returnAllText: boolean;
  returnFinishInfo: boolean;
  detectStep?: number;
  audioDetectStep?: number;
}

export interface StreamSummary {
  requestId: string;
  kind: StreamKind;
  url: string;
  title: string | null;
  status: "running" | "ended";
  /** risk of the most recent checked frame or segment result (frames the detectors skipped never count) */
  currentRisk: RiskLevel | null;
  /** worst checked result */
  worstRisk: RiskLevel | null;
  lastResultAt: string | null; // ISO
  startedAt: string; // ISO
  endedAt: string | null;
  /** stream-end reason: auxInfo.errorCode (3001–3005) when a pull failure ended it */
  endErrorCode: number | null;
  endReason: string | null;
  frames: number;
  segments: number;
  /** frames the detectors looked at / did not (auxInfo.detectType 2); frames = the two together */
  framesChecked: number;
  framesNotChecked: number;
  /** frames received in the minute before the last result, and how many of them were not checked (running streams) */
  framesLastMinute: number;
  notCheckedLastMinute: number;
  /** detectStep the dashboard asked for (null = every frame) */
  detectStep: number | null;
  /** "api": started through the public API (embedded service only); keyName names its accessKey (never the key) */
  origin: TaskOrigin;
  keyName: string | null;
  /** same-origin link to the newest captured frame's image (checked or not); null before the first frame */
  lastFrameUrl: string | null;
}

/** One callback the dashboard's receiver accepted, as shown on the timeline. `id` grows monotonically. */
export interface StreamEvent {
  id: number;
  requestId: string;
  kind: "frame" | "audio" | "end";
  receivedAt: string; // ISO
  body: Record<string, unknown>; // the contract callback body (VideoStreamFrameResult, …AudioResult, AudioStreamSegmentResult, *End)
}

export interface StreamDetail {
  stream: StreamSummary;
  events: StreamEvent[]; // oldest first
  /** the server's UTC offset (min): imgTime / audioStartTime are its local time without a zone */
  utcOffsetMin?: number;
}

// ---- reference lists ----
export type ListKind = "faces" | "images" | "audio";
export const LIST_KINDS: readonly ListKind[] = ["faces", "images", "audio"];

// ---- keyword lists (image text and speech; /api/lists → keywords, /api/lists/keywords) ----
export type KeywordScope = "image" | "speech";
export const KEYWORD_SCOPES: readonly KeywordScope[] = ["image", "speech"];
/** The contract types a keyword list can answer, per scope. */
export const KEYWORD_SCOPE_TYPES: Readonly<Record<KeywordScope, readonly string[]>> = {
  image: ["ADVERT", "IMGTEXTRISK"],
  speech: ["ADVERT", "DIRTY", "EROTIC", "POLITY", "BAN", "VIOLENT", "ADLAW"],
};

export interface KeywordListView {
  scope: KeywordScope;
  name: string;
  type: string;
  riskLevel: RiskLevel;
  labels: [string, string, string];
  /** false for lists an operator created */
  builtIn: boolean;
  /** `entry` is what hits report in matchedLists[].words[].entry; rules are built-in regular expressions */
  entries: Array<{ entry: string; kind: "word" | "rule"; builtIn: boolean }>;
  /** built-in entries switched off (adding one again restores it) */
  removed: string[];
}

// ---- run-time thresholds (/api/policy) ----
export interface PolicyThreshold {
  review: number | null;
  reject: number | null;
  enabled: boolean;
}

export interface PolicyRule {
  key: string;
  detector: string;
  label: string;
  score: string;
  /** atLeast: a score at or above a threshold fires; atMost: at or below (distances) */
  direction: "atLeast" | "atMost";
  range: [number, number];
  defaults: PolicyThreshold;
  effective: PolicyThreshold;
  overridden: boolean;
}
