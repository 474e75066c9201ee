// Audio-segment detection engine: Silero VAD, pocketsphinx / OpenAI-compatible transcription + keyword lists,
// chromaprint known-audio matching and a SING measure, for the 10 s 16 kHz mono WAV segments ingest cuts.
import { AudioSegmentDetector } from "./detector";
import type { AudioDetector, AudioDetectorOptions } from "./types";

export type {
  AudioBusinessLabel, AudioDetector, AudioDetectorOptions, AudioLabel, AudioRiskDetail, Capability, KnownAudioMatch,
  SegmentInput, SegmentVerdict, TranscriberOption,
} from "./types";
export { InvalidAudioError } from "./detector";
export { AudioDetectorClosedError, AudioQueueFullError } from "./queue";
export { compareFingerprints, fingerprintFile, FingerprintError, ITEM_SEC } from "./fingerprint";
export { compareWithTrack } from "./known";
export { fileReferenceTracks, REFERENCE_LISTS, type FileReferenceTracks, type ReferenceListName, type ReferenceTrack, type ReferenceTracks } from "./references";
export { SttError } from "./stt/pocketsphinx";
export { DEFAULT_AUDIO_LISTS } from "./lists";
export { AUDIO_POLICY } from "./policy";
export { AUDIO_TYPE_REGISTRY } from "./registry";

/** The detector (models load on ready(), or lazily on the first segment). */
export function createAudioDetector(o: AudioDetectorOptions): AudioDetector {
  return new AudioSegmentDetector(o);
}
