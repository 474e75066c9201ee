// Frame-detection engine: a pool of worker threads running real models (QR, OCR + lists, NSFW) per frame.
import { WorkerDetectPool } from "./pool";
import type { DetectPool, DetectPoolOptions } from "./types";

export type {
  Capability, DetectedObject, DetectPool, DetectPoolOptions, DetectPoolStats, FrameInput, FrameLabel, FrameVerdict,
  ImgRiskDetail, MatchedList, MatchedWord, OcrText, RiskSegment,
} from "./types";
export { DetectorError, InvalidImageError, JobTimeoutError, PoolClosedError, QueueFullError, WorkerCrashedError } from "./errors";
export { capabilityTable, engineForImgType } from "./registry";
export { DEFAULT_LISTS } from "./lists/default-lists";
export { POLICY } from "./policy";

/** Start the workers (models load in the background; await pool.ready() before timing-sensitive work). */
export function createDetectPool(opts: DetectPoolOptions): DetectPool {
  return new WorkerDetectPool(opts);
}
