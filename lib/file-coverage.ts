// How much of a finished file's request was really checked: the Files row and the result page's verdict both
// read it here, so a PASS over checks that never ran is never shown as a plain, clean PASS.

/** The types a /video/v4 request asked for, per channel (business types included; audio without NONE). */
export interface FileRequestedTypes {
  image: string[];
  audio: string[];
}

/** What a Query 1100 body says about what ran. null: the body does not say. */
export interface FileResultFacts {
  /** requested types no detector ran for (no engine, or its list / bank is empty) */
  notAppliedTypes: string[];
  /** false: the file has no audio track */
  hasAudio: boolean | null;
  /** false: no frame was captured (no video track) */
  hasFrames: boolean | null;
}

export type CoverageState = "checked" | "partial" | "not-checked";
export type CoverageGapReason = "no-detector" | "no-audio-track" | "no-video-track";

export interface CoverageGap {
  reason: CoverageGapReason;
  types: string[];
}

export interface FileCoverage {
  /** checked: every requested type ran; not-checked: none did; partial: some did not */
  state: CoverageState;
  gaps: CoverageGap[];
  hasAudio: boolean | null;
  /** false when the request was not known (a remote service's file): the state rests on the result alone */
  requestKnown: boolean;
}

export const GAP_REASON_TEXT: Readonly<Record<CoverageGapReason, string>> = {
  "no-detector": "no detector runs for it here, or its list is empty",
  "no-audio-track": "audio requested, but the file has no audio track",
  "no-video-track": "image types requested, but no frame could be captured (no video track)",
};

const GAP_REASON_SHORT: Readonly<Record<CoverageGapReason, string>> = {
  "no-detector": "no detector",
  "no-audio-track": "no audio track",
  "no-video-track": "no video track",
};

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
/** Facts from a Query 1100 body: top-level and per-item notAppliedTypes, and whether audio and frames were there. */
export function resultFactsOf(result: unknown): FileResultFacts {
  const r = isObj(result) ? result : {};
  const aux = isObj(r.auxInfo) ? r.auxInfo : {};
  const items = [...(Array.isArray(r.frameDetail) ? r.frameDetail : []), ...(Array.isArray(r.audioDetail) ? r.audioDetail : [])];
  const notApplied = new Set(strings(aux.notAppliedTypes));
  for (const item of items) if (isObj(item) && isObj(item.auxInfo)) strings(item.auxInfo.notAppliedTypes).forEach((t) => notApplied.add(t));
  const audioItems = Array.isArray(r.audioDetail) ? r.audioDetail.length : 0;
  const frameItems = Array.isArray(r.frameDetail) ? r.frameDetail.length : 0;
  const audioSec = num(aux.billingAudioDuration);
  const durationSec = num(aux.time);
  const grabbed = num(aux.billingImgNum);
  // the service bills a file's audio as its whole duration when it has a track, 0 when it has none
  const hasAudio = audioItems > 0 || (audioSec ?? 0) > 0 ? true : audioSec === 0 && (durationSec ?? 0) > 0 ? false : null;
  const hasFrames = frameItems > 0 || (grabbed ?? 0) > 0 ? true : grabbed === 0 ? false : null;
  return { notAppliedTypes: [...notApplied], hasAudio, hasFrames };
}

/** One honest coverage state from what was asked (null: not known) and what the result says ran. */
export function fileCoverage(requested: FileRequestedTypes | null, facts: FileResultFacts): FileCoverage {
  const notApplied = new Set(facts.notAppliedTypes);
  const gaps: CoverageGap[] = [];
  // the service lists the types a missing track kept from running too: those are said once, as that track's gap
  const byTrack = new Set([...(requested && facts.hasAudio === false ? requested.audio : []), ...(requested && facts.hasFrames === false ? requested.image : [])]);
  const noDetector = [...notApplied].filter((t) => !byTrack.has(t));
  if (noDetector.length > 0) gaps.push({ reason: "no-detector", types: noDetector });
  if (!requested) return { state: gaps.length ? "partial" : "checked", gaps, hasAudio: facts.hasAudio, requestKnown: false };

  const channels = [
    { types: requested.image, present: facts.hasFrames !== false, other: requested.audio, otherPresent: facts.hasAudio !== false },
    { types: requested.audio, present: facts.hasAudio !== false, other: requested.image, otherPresent: facts.hasFrames !== false },
  ];
  if (facts.hasAudio === false && requested.audio.length > 0) gaps.push({ reason: "no-audio-track", types: requested.audio });
  if (facts.hasFrames === false && requested.image.length > 0) gaps.push({ reason: "no-video-track", types: requested.image });
  // notAppliedTypes is one list for both channels: a type asked of both may have run on one of them
  let ranOrMayHave = 0;
  for (const c of channels) {
    if (!c.present) continue;
    ranOrMayHave += c.types.filter((t) => !notApplied.has(t) || (c.otherPresent && c.other.includes(t))).length;
  }
  const state: CoverageState = gaps.length === 0 ? "checked" : ranOrMayHave === 0 ? "not-checked" : "partial";
  return { state, gaps, hasAudio: facts.hasAudio, requestKnown: true };
}

/** "POLITY, VIOLENT: no detector runs …; ADVERT: audio requested, but …" for titles and notes. */
export function describeGaps(c: FileCoverage): string {
  return c.gaps.map((g) => `${g.types.join(", ")}: ${GAP_REASON_TEXT[g.reason]}`).join("; ");
}

/** "POLITY, VIOLENT (no detector); ADVERT (no audio track)" where a line has little room. */
export function summariseGaps(c: FileCoverage): string {
  return c.gaps.map((g) => `${g.types.join(", ")} (${GAP_REASON_SHORT[g.reason]})`).join("; ");
}

export interface VerdictDisplay {
  /** "not-checked" replaces the risk badge: a PASS over nothing checked is no verdict */
  badge: "risk" | "not-checked";
  /** said beside the risk badge; null: the badge alone is the whole truth */
  tag: "partly checked" | "coverage unknown" | null;
}

/** What a finished file shows for its verdict: a plain PASS only when every requested check ran. */
export function verdictDisplay(level: string, coverage: FileCoverage | null): VerdictDisplay {
  if (!coverage) return { badge: "risk", tag: level === "PASS" ? "coverage unknown" : null };
  // a remote service's file: its request is unknown here, so audio it may have asked for cannot be ruled out
  if (coverage.state === "checked") return { badge: "risk", tag: !coverage.requestKnown && coverage.hasAudio === false && level === "PASS" ? "coverage unknown" : null };
  if (coverage.state === "not-checked" && level === "PASS") return { badge: "not-checked", tag: null };
  return { badge: "risk", tag: "partly checked" };
}
