// Frame-detection engine: a pool of worker threads running real models (QR, OCR + lists, NSFW, faces, objects, pHash) per frame.
import { WorkerDetectPool } from "./pool";
import type { DetectPool, DetectPoolOptions } from "./types";

export type {
  BusinessDetail, BusinessLabel, Capability, CapabilityView, DetectedFace, DetectedObject, DetectedPerson, DetectPool, DetectPoolOptions, DetectPoolStats,
  EngineName, FaceEmbedding, FrameInput, FrameLabel, FrameVerdict, GalleryMatch, HashMatch, ImgRiskDetail, MatchedList, MatchedWord, OcrText,
  RiskSegment,
} from "./types";
export { DetectorError, InvalidImageError, JobTimeoutError, PoolClosedError, QueueFullError, WorkerCrashedError } from "./errors";
export { capabilityTable, engineForImgType, planFrame } from "./registry";
export { DEFAULT_LISTS } from "./lists/default-lists";
export { POLICY } from "./policy";
export { fileFaceGallery, GALLERY_LISTS, type FaceEmbedder, type FaceGallery, type GalleryEntryInfo, type GalleryList } from "./gallery";
export { fileHashBank, type HashBank, type HashRecord } from "./hash-bank";
export { OBJECT_GROUPS } from "./object-map";

/** Start the workers (models load in the background; await pool.ready() before timing-sensitive work). */
export function createDetectPool(opts: DetectPoolOptions): DetectPool {
  return new WorkerDetectPool(opts);
}
