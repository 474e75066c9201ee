// Shapes of the dashboard's own JSON API (app/api/*), used by components and route handlers.
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
}

export type ApiError = { error: string; code?: number };

export interface DashboardConfig {
  serviceBaseUrl: string;
  embedded: boolean;
  pollIntervalMs: number;
}
