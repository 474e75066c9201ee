// Contract between the worker and one model-backed engine (loaded once per worker, run per frame).
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import type { DetectedObject, MatchedList, RiskSegment } from "../types";

export interface Frame {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

/** One label a frame earned, before display names are attached. */
export interface Hit {
  imgType: string;
  riskLevel: RiskLevel;
  labels: [string, string, string];
  probability: number;
  riskSource: 1001 | 1002;
  objects?: DetectedObject[];
  /** text hits: the lists and segments behind this label */
  matchedLists?: MatchedList[];
  riskSegments?: RiskSegment[];
}

export interface EngineOutput {
  hits: Hit[];
  /** OCR engine: the normalised text every position refers to */
  text?: string;
  /** QR engine: every decoded code */
  objects?: DetectedObject[];
  /** raw model scores, reported as verdict.scores[engine] */
  scores?: Record<string, number>;
}

export interface EngineContext {
  dataDir: string;
}

export interface Engine {
  /** key in timingsMs / stats / scores */
  readonly name: string;
  /** imgTypes this engine answers */
  readonly imgTypes: readonly string[];
  init(ctx: EngineContext): Promise<void>;
  run(frame: Frame, requested: ReadonlySet<string>): Promise<EngineOutput>;
  close(): Promise<void>;
}
