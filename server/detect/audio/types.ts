// Public types of the audio-segment detection engine.
import type { Capability, MatchedList, RiskCore, RiskSegment } from "../types";
import type { ReferenceTracks } from "./references";

export type { Capability, MatchedList, RiskSegment };
export type AudioRiskSource = 1000 | 1001 | 1003;

export type TranscriberOption =
  | { kind: "moonshine" }
  | { kind: "pocketsphinx" }
  | { kind: "openai"; baseUrl: string; apiKey?: string; /** default "whisper-1" */ model?: string };

export interface AudioDetectorOptions {
  /** writable folder for the keyword-spotting files and temporary padded segments */
  dataDir: string;
  /** default Moonshine tiny (offline, English, in process); pocketsphinx (offline, English, child processes) or a remote API */
  transcriber?: TranscriberOption;
  /** keyword-list folder (operator changes over the built-in lists, ../lists/store.ts); default: built-in lists only */
  keywordsDir?: string;
  /** run-time threshold overrides (../settings/policy-store.ts); default: the policy defaults */
  policyDir?: string;
  /** reference tracks for ANTHEN / BANEDAUDIO / COPYRIGHTSONGS; without them those types are not applied */
  references?: ReferenceTracks;
  /** segments running at once (default 1: pocketsphinx already uses a core per process) */
  concurrency?: number;
  /** queued + running segments before detectSegment rejects with AudioQueueFullError (default 16) */
  queueLimit?: number;
  /** binaries, default from PATH */
  bins?: { pocketsphinx?: string; fpcalc?: string };
}

export interface SegmentInput {
  /** 16-bit PCM WAV, 16 kHz mono (what the ingest layer cuts) */
  wavPath: string;
  /** audioType (§5.2) or audio stream `type` (§5.5) values */
  types: string[];
  /** audioBusinessType (§5.3) or audio stream `businessType` (§5.6) values */
  businessTypes: string[];
  /** language of riskDescription / businessDescription; default zh */
  lang?: "zh" | "en";
  /** transcript of the previous segment (returnPreText): matched together with this one; see docs/api.md (returnPreText) */
  previousText?: string;
}

export interface AudioRiskDetail {
  riskSource: AudioRiskSource;
  audioText?: string;
  matchedLists?: MatchedList[];
  riskSegments?: RiskSegment[];
}

export interface AudioLabel extends RiskCore {
  probability: number;
  riskDetail: AudioRiskDetail;
}

export interface AudioBusinessLabel {
  businessLabel1: string;
  businessLabel2: string;
  businessLabel3: string;
  businessDescription: string;
  probability: number;
  confidenceLevel: 0 | 1 | 2;
}

export interface KnownAudioMatch {
  list: string;
  entry: string;
  /** where this segment's start sits in the reference track, seconds */
  offsetSec: number;
  /** 1 − fingerprint bit-error rate */
  score: number;
  /** present when the segment plays the track at another speed (pitch with it): its speed, 1.06 = 6 % fast */
  speed?: number;
}

export interface SegmentVerdict extends RiskCore {
  /** Silero VAD: 1 when the segment holds speech (a tone, noise or instrumental music is 0) */
  vadCode: 0 | 1;
  riskDetail: AudioRiskDetail;
  allLabels: AudioLabel[];
  businessLabels: AudioBusinessLabel[];
  /** transcript (with previousText in front when given) when speech was found and a transcriber ran */
  audioText?: string;
  /** this segment's own transcript, to pass as the next segment's previousText (not a vendor field) */
  segmentText?: string;
  audioTags?: { song?: 0 | 1 };
  match?: KnownAudioMatch;
  /** no audible signal at all (loudest 20 ms frame below the policy floor): nothing ran (not a vendor field) */
  silent: boolean;
  applied: string[];
  notApplied: string[];
  /** per stage: decode, vad, stt, kws, fingerprint, song, total */
  timingsMs: Record<string, number>;
}

export interface AudioDetector {
  /** checks the binaries, loads the VAD model and writes the keyword-spotting files */
  ready(): Promise<void>;
  /** rejects with AudioQueueFullError when queueLimit segments are pending */
  detectSegment(input: SegmentInput): Promise<SegmentVerdict>;
  capabilities(): Capability[];
  /** waits for running segments, rejects queued ones with AudioDetectorClosedError, releases the VAD */
  close(): Promise<void>;
}
