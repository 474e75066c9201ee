// Public types of the frame-detection engine (shared by the pool, the worker and the task pipeline).
import type { RiskLevel } from "../../lib/contract/taxonomy";

export type { RiskLevel };
export type ImgRiskSource = 1000 | 1001 | 1002;

export interface DetectPoolOptions {
  /** worker threads, each with its own copy of every model; default 1 */
  workers?: number;
  /** jobs queued + in flight before detectFrame rejects with QueueFullError; default 64 */
  queueLimit?: number;
  /** writable folder for model caches (tesseract traineddata) */
  dataDir: string;
  /** a job running longer than this kills its worker (restarted) and rejects; default 60 000 */
  jobTimeoutMs?: number;
  /**
   * Face gallery folder (see gallery.ts): PUBLICFIGURE / TAINTEDSTAR / POLITY match faces against it. Workers
   * re-read it when it changes. Default none: those types are reported unsupported / not applied.
   */
  galleryDir?: string;
  /** Prohibited-image hash bank folder (see hash-bank.ts). Default none: no bank matching. */
  hashBankDir?: string;
  /** Keyword-list folder (lists/store.ts): operator changes over the built-in lists, re-read when they change. Default: built-in only. */
  keywordsDir?: string;
  /** Run-time threshold overrides (settings/policy-store.ts), re-read when they change. Default: the policy.ts defaults. */
  policyDir?: string;
  /** Load only these engines (default all): a faces-only pool starts faster and uses less memory. */
  engines?: EngineName[];
  /** What reads image text (OCR_READER): PaddleOCR PP-OCRv4 (default) or Tesseract. */
  ocrReader?: OcrReaderName;
  /**
   * At most this many frames waiting at the same moment go to a free worker together, their NSFW model call as one
   * batch (DETECT_BATCH); default 1 (no batching). Nothing waits for a batch to fill.
   */
  maxBatch?: number;
}

export type OcrReaderName = "paddle" | "tesseract";

export type EngineName = "qrcode" | "ocr" | "nsfw" | "faces" | "objects" | "hash";

export interface FrameInput {
  /**
   * JPEG bytes. Ownership passes to the pool: when the view spans its whole ArrayBuffer, that buffer is
   * transferred to the worker (zero copy) and is detached (length 0) for the caller afterwards;
   * otherwise the bytes are copied once. Keep your own copy if you still need the bytes.
   */
  jpeg: Uint8Array;
  imgTypes: string[];
  imgBusinessTypes: string[];
  /** language of riskDescription; default zh */
  lang?: "zh" | "en";
}

export interface DetectedObject {
  id: string;
  name: string;
  /** [x1, y1, x2, y2] in pixels of the submitted frame */
  location: [number, number, number, number];
  probability: number;
  qrContent?: string;
}

export interface MatchedWord {
  /** the matched text, equal to text.slice(position[0], position[1]) */
  word: string;
  /** [start, end): 0-based UTF-16 offsets into ocrText.text, end exclusive */
  position: [number, number];
  /** which entry of the list matched: the word itself, or the id of a regex rule */
  entry: string;
}

export interface MatchedList {
  name: string;
  words: MatchedWord[];
}

export interface RiskSegment {
  segment: string;
  /** [start, end): 0-based UTF-16 offsets into ocrText.text, end exclusive */
  position: [number, number];
}

export interface OcrText {
  text: string;
  matchedLists?: MatchedList[];
  riskSegments?: RiskSegment[];
}

export interface DetectedFace {
  id: string;
  /** gallery entry this face matched, else "" */
  name: string;
  /** [x1, y1, x2, y2] in pixels of the submitted frame */
  location: [number, number, number, number];
  probability: number;
  /** face box area / frame area */
  face_ratio: number;
}

export interface DetectedPerson {
  id: string;
  location: [number, number, number, number];
  probability: number;
  /** person box area / frame area */
  person_ratio: number;
}

/** Which comparison matched a bank entry (server/detect/hash-bank.ts#match). */
export type HashMatchMethod = "phash" | "phash-mirror" | "phash-crop" | "dhash" | "dhash-mirror";

/** Why a frame matched the prohibited-image hash bank (not a vendor field). */
export interface HashMatch {
  list: string;
  entry: string;
  /** Hamming distance of the two 64-bit hashes that matched */
  distance: number;
  /** true when the match needed the frame's (or the banked image's) uniform borders cut off */
  trimmed?: boolean;
  /** which hashes matched: pHash, pHash of the mirrored frame, pHash vs a 90–95 % crop of the entry, dHash, dHash mirrored */
  method?: HashMatchMethod;
}

/** A face that matched a gallery entry (not a vendor field). */
export interface GalleryMatch {
  list: string;
  entry: string;
  /** cosine similarity of the face embeddings */
  similarity: number;
}

export interface ImgRiskDetail {
  riskSource: ImgRiskSource;
  /** faces found (≤ 10, largest first) when the face engine ran */
  faces?: DetectedFace[];
  face_num?: number;
  /** persons found (≤ 10) when the object engine ran */
  persons?: DetectedPerson[];
  person_num?: number;
  objects?: DetectedObject[];
  ocrText?: OcrText;
  /** extension: the bank entry behind a `prohibited:jinjitupian:*` label */
  hashMatch?: HashMatch;
}

export interface BusinessDetail {
  faces?: DetectedFace[];
  face_num?: number;
  persons?: DetectedPerson[];
  person_num?: number;
  objects?: DetectedObject[];
  /** extension: AGE / MINOR, the estimated age in years */
  age?: number;
  /** extension: PUBLICFIGURE / TAINTEDSTAR, the gallery entry matched */
  match?: GalleryMatch;
}

export interface BusinessLabel {
  businessLabel1: string;
  businessLabel2: string;
  businessLabel3: string;
  businessDescription: string;
  probability: number;
  /** 0 low, 1 medium, 2 high */
  confidenceLevel: 0 | 1 | 2;
  businessDetail: BusinessDetail;
}

export interface RiskCore {
  riskLevel: RiskLevel;
  riskLabel1: string;
  riskLabel2: string;
  riskLabel3: string;
  riskDescription: string;
}

export interface FrameLabel extends RiskCore {
  probability: number;
  riskDetail: ImgRiskDetail;
}

export interface FrameVerdict extends RiskCore {
  riskDetail: ImgRiskDetail;
  allLabels: FrameLabel[];
  /** one label per requested imgBusinessType finding (faces, attributes, gallery matches, objects) */
  businessLabels: BusinessLabel[];
  imgText?: string;
  qrContent?: string;
  applied: string[];
  notApplied: string[];
  /** per engine ("decode", "qrcode", "ocr", "nsfw", "faces", "objects", "hash"), wall-clock ms inside the worker */
  timingsMs: Record<string, number>;
  /** raw model scores per engine, e.g. scores.nsfw = { Neutral: 0.9, Porn: 0.01, … } (not part of the vendor contract) */
  scores?: Record<string, Record<string, number>>;
}

export interface Capability {
  group: "imgType" | "imgBusinessType" | "audioType" | "audioBusinessType" | "audiostreamType" | "audiostreamBusinessType";
  type: string;
  supported: boolean;
  engine?: string;
  note?: string;
}

export interface DetectPoolStats {
  pending: number;
  processed: number;
  perDetectorMs: Record<string, { count: number; totalMs: number }>;
  /** batches of ≥ 2 frames handed to a worker together (maxBatch), and the frames in them */
  batches: { count: number; frames: number };
}

export interface DetectPool {
  /** resolves once models are loaded in every worker */
  ready(): Promise<void>;
  /** rejects with QueueFullError when queueLimit jobs are pending */
  detectFrame(input: FrameInput): Promise<FrameVerdict>;
  /** `counts: false`: the gallery's and bank's sizes are left out of the notes (strangers' view) */
  capabilities(o?: CapabilityView): Capability[];
  stats(): DetectPoolStats;
  /** rejects queued and running jobs with PoolClosedError and terminates the workers */
  close(): Promise<void>;
  /** the embedding of the largest face in an image (for gallery.add); null when no face reaches the threshold */
  embedLargestFace?(image: Uint8Array): Promise<FaceEmbedding | null>;
}

export interface FaceEmbedding {
  /** faces found in the image at or above the face threshold */
  faces: number;
  /** faceres descriptor of the largest face (1024 numbers) */
  embedding: number[];
  location: [number, number, number, number];
  probability: number;
  age?: number;
}

/** How much a capability table tells: `counts` (default true) includes how many entries the gallery and bank hold. */
export interface CapabilityView {
  counts?: boolean;
}
