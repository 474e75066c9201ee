// Fields our server sends beyond the vendor contract, per contract object, for the OpenAPI document
// (lib/contract/openapi.ts): each is described as an extension; openapi-schema.ts adds them to the generated JSON Schema.
import { z } from "zod";
import { AudioStreamAuxInfo } from "./audiostream-callbacks";
import { AudioStreamData } from "./audiostream";
import { AudioRiskDetail, ImgBusinessLabel, ImgRiskDetail, MatchedList } from "./common";
import { WhepHeaders } from "./rtc";
import { VideoFileResponse } from "./video";
import { VideoFileAudioDetail, VideoFileAuxInfo } from "./video-result";
import { FrameAuxInfo, VideoStreamAudioAuxInfo, VideoStreamFrameDetail } from "./videostream-callbacks";
import { VideoStreamData } from "./videostream";

const BEYOND = "Extension beyond the vendor v4 contract (clients written for the vendor can ignore it)";
/**
 * A documented extension field: its description says so. No `x-` keyword inside a schema: validators in strict mode
 * (Ajv's default) refuse unknown keywords; the document's `x-extension-fields` lists them by name instead.
 */
const ext = <T extends z.ZodType>(schema: T, what: string): T => schema.meta({ description: `${BEYOND}: ${what}` }) as T;

const notAppliedTypes = (when: string) =>
  ext(z.array(z.string()), `requested types that no detector on this server covers (see GET /capabilities/v4); no result is produced for them. ${when}`);

const segmentDetectType = ext(z.literal([1, 2]), "2 when the segment was not checked (its stream ended before detection finished, the stream's detection backlog overflowed, or none of the requested types has a detector here: all are in notAppliedTypes): the result is an unlabelled PASS; absent when it was checked.");

const HashMatch = z.object({
  list: z.string().describe("hash-bank list"),
  entry: z.string().describe("bank entry the frame matched"),
  distance: z.int().min(0).max(64).describe("Hamming distance of the two 64-bit perceptual hashes that matched"),
  trimmed: z.boolean().optional().describe("true when the match needed the frame's (or the banked image's) uniform borders cut off"),
  method: z.enum(["phash", "phash-mirror", "phash-crop", "dhash", "dhash-mirror"]).optional()
    .describe("which hashes matched: pHash; pHash of the frame mirrored left to right; pHash against a 90–95 % crop of the banked image; dHash; dHash mirrored"),
});
const GalleryMatch = z.object({
  list: z.string().describe("face gallery list"),
  entry: z.string().describe("gallery entry the face matched"),
  similarity: z.number().describe("cosine similarity of the face embeddings"),
});
const KnownAudioMatch = z.object({
  list: z.string().describe("reference list (ANTHEN / BANEDAUDIO / COPYRIGHTSONGS)"),
  entry: z.string().describe("reference track matched"),
  offsetSec: z.number().describe("where the segment's start sits in the reference track, s"),
  score: z.number().describe("1 − fingerprint bit-error rate"),
  speed: z.number().optional().describe("present when the segment plays the track faster or slower (speed and pitch together): its speed, 1.06 = 6 % fast"),
});

/** Inner object of a `withAliases(…)` schema (a preprocess pipe). */
export const aliased = (s: { out: z.ZodType }) => s.out;

/**
 * Extra properties per contract object (keyed by the zod definition, which `.meta()` / `.describe()` copies share).
 * Every one is a field server/task/stream-callbacks.ts, file-result.ts or audio-verdict.ts (and the detectors
 * behind them, server/detect/types.ts) may put into a body.
 */
export const EXTENSION_FIELDS: ReadonlyArray<[z.ZodType, Record<string, z.ZodType>]> = [
  // request: the WHEP endpoint's bearer (streamType WEBRTC); accepted by the zod schema itself, listed here to be named
  [VideoStreamData, { headers: WhepHeaders }],
  [AudioStreamData, { headers: WhepHeaders }],
  // video stream frame (contentType 1)
  [FrameAuxInfo, {
    notAppliedTypes: notAppliedTypes("Present only when some type was not applied."),
    unchangedFrom: ext(z.string(), "the frame was checked without running the detectors: its pixels are unchanged from this earlier frame of the same stream (`<task>_v<n>`, the last one detected, at most 60 s before; every sample within 8 levels and every 8 × 8 block within 1 level on average), whose verdict it carries. Absent when the frame itself was detected."),
  }],
  [VideoStreamFrameDetail, { imgText: ext(z.string(), "the frame's OCR text (normalised), present when OCR ran (ADVERT or IMGTEXTRISK requested).") }],
  // audio segments (video stream contentType 2, audio stream)
  [aliased(VideoStreamAudioAuxInfo), { notAppliedTypes: notAppliedTypes("Present only when some type was not applied."), detectType: segmentDetectType }],
  [aliased(AudioStreamAuxInfo), { notAppliedTypes: notAppliedTypes("Present only when some type was not applied."), detectType: segmentDetectType }],
  // video file result (callback and Query 1100)
  [VideoFileAuxInfo, { notAppliedTypes: notAppliedTypes("Always present (empty when every requested type was applied). Files also list the types they had no track for: audio types of a file without audio, image types of one without video.") }],
  [VideoFileAudioDetail, { vadCode: ext(z.literal([0, 1]), "voice activity (Silero VAD): 1 when the segment holds speech, 0 otherwise (a tone, noise or instrumental music).") }],
  // risk details inside frames and segments
  [ImgRiskDetail, { hashMatch: ext(HashMatch, "the prohibited-image hash-bank entry behind a `prohibited:jinjitupian:*` label.") }],
  [AudioRiskDetail, { matchedTrack: ext(KnownAudioMatch, "the reference track behind a known-audio label (ANTHEN / BANEDAUDIO / COPYRIGHTSONGS), and where the segment sits in it.") }],
  [(MatchedList.shape.words.unwrap() as z.ZodArray<z.ZodType>).element, { entry: ext(z.string(), "which entry of the list matched: the word itself, or the id of a regex rule.") }],
  [ImgBusinessLabel.shape.businessDetail.unwrap(), {
    age: ext(z.number().min(0), "AGE / MINOR labels: the estimated age of the face, in years."),
    match: ext(GalleryMatch, "PUBLICFIGURE / TAINTEDSTAR labels: the gallery entry the face matched."),
  }],
  // /video/v4 answer for a btId still being processed
  [VideoFileResponse, { detail: ext(z.object({ errorCode: z.literal(1001), dupRequestId: z.string() }), "answer to a btId still queued or processing: the file is not started twice; requestId and dupRequestId name the running task.") }],
];
