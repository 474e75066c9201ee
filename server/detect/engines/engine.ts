// Contract between the worker and one model-backed engine (loaded once per worker, run per frame).
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import type { Thresholds } from "../settings/thresholds";
import type { BusinessDetail, DetectedFace, DetectedObject, DetectedPerson, HashMatch, MatchedList, RiskSegment } from "../types";

export interface Frame {
  jpeg: Uint8Array;
  width: number;
  height: number;
  /** decoded RGB pixels, decoded once per frame on first use (shared by the engines) */
  rgb: () => Promise<RgbPixels>;
  /** the image needs no EXIF rotation: `rgb()` holds its pixels as stored, as a plain decode would */
  upright?: boolean;
}

/** the long side above which `Frame.rgb()` decodes smaller: BlazeFace and CenterNet see 256 / 512 px inputs anyway */
export const MAX_DECODE_SIDE = 2048;

/** A frame's pixels, 3-channel RGB at full size. */
export interface FullRgb {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The frame's shared decode when it is exactly what an engine's own plain decode would give (full size, upright, 3
 * channels), so reading it instead changes nothing but the cost; otherwise undefined (the engine decodes itself).
 */
export async function fullSizeRgb(frame: Frame): Promise<FullRgb | undefined> {
  // a frame larger than the shared decode's bound is decoded smaller: not what the engine would read
  if (!frame.upright || Math.max(frame.width, frame.height) > MAX_DECODE_SIDE) return undefined;
  const px = await frame.rgb().catch(() => undefined);
  // pixels that do not decode here are the engine's own business (its decoder may read more of a damaged image)
  if (!px || px.width !== frame.width || px.height !== frame.height || px.data.length !== px.width * px.height * 3) return undefined;
  return { data: px.data, width: px.width, height: px.height };
}

export interface RgbPixels {
  data: Uint8Array;
  width: number;
  height: number;
  /** frame pixels per decoded pixel (> 1 when a very large frame was decoded smaller) */
  scale: number;
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
  /** face hits (POLITY gallery match): the faces behind this label */
  faces?: DetectedFace[];
  /** hash-bank hits */
  hashMatch?: HashMatch;
}

/** One business label, before its description is attached. */
export interface BusinessHit {
  labels: [string, string, string];
  probability: number;
  confidenceLevel: 0 | 1 | 2;
  detail: BusinessDetail;
}

export interface EngineOutput {
  hits: Hit[];
  /** OCR engine: the normalised text every position refers to */
  text?: string;
  /** QR engine: every decoded code */
  objects?: DetectedObject[];
  /** raw model scores, reported as verdict.scores[engine] */
  scores?: Record<string, number>;
  business?: BusinessHit[];
  /** face engine: faces found (reported ≤ 10) and how many in all */
  faces?: DetectedFace[];
  faceNum?: number;
  /** object engine: persons found (reported ≤ 10) and how many in all */
  persons?: DetectedPerson[];
  personNum?: number;
}

export interface EngineContext {
  dataDir: string;
}

/** What one frame asked for. */
export interface FrameRequest {
  imgTypes: ReadonlySet<string>;
  businessTypes: ReadonlySet<string>;
  /** run-time thresholds (defaults + operator overrides) in force for this frame */
  thresholds: Thresholds;
}

export interface Engine {
  /** key in timingsMs / stats / scores */
  readonly name: string;
  /** imgTypes this engine answers */
  readonly imgTypes: readonly string[];
  init(ctx: EngineContext): Promise<void>;
  /** `requested` = the frame's imgTypes; `req` adds its imgBusinessTypes */
  run(frame: Frame, requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput>;
  close(): Promise<void>;
}
