// Messages between the pool (main thread) and a detect worker.
import type { EngineName, FaceEmbedding, FrameVerdict, OcrReaderName } from "./types";

export interface WorkerInit {
  /** file URL of worker.ts, imported by worker-boot.mjs after tsx is registered */
  entry: string;
  dataDir: string;
  engines?: EngineName[];
  galleryDir?: string;
  hashBankDir?: string;
  keywordsDir?: string;
  policyDir?: string;
  ocrReader?: OcrReaderName;
}

/** Embed the largest face of an image (gallery reference photos). */
export interface EmbedMessage {
  type: "embed";
  id: number;
  image: Uint8Array;
}

export interface JobMessage {
  type: "job";
  id: number;
  jpeg: Uint8Array;
  imgTypes: string[];
  imgBusinessTypes: string[];
  lang: "zh" | "en";
}

/** Frames detected together (detector.detectBatch): one "result" or "error" per job, each as soon as it is ready. */
export interface BatchMessage {
  type: "batch";
  jobs: JobMessage[];
}

export type ToWorker =
  | JobMessage
  | BatchMessage
  | EmbedMessage
  | { type: "close" }
  /** test hook: throw an uncaught error inside the worker */
  | { type: "crash" };

export type FromWorker =
  | { type: "ready"; loadMs: Record<string, number> }
  | { type: "init-error"; message: string }
  | { type: "result"; id: number; verdict: FrameVerdict }
  | { type: "embedded"; id: number; embedding: FaceEmbedding | null }
  | { type: "error"; id: number; name: string; message: string };
