// What a live stream's results honestly say: which frames were checked, the risk "now" and at worst, whether
// detection is falling behind, and the worst level per lane. Pure: shared by the receiver, Status and the pages.
import type { RiskLevel, StreamSummary } from "./dashboard-api";

/** The window "detection behind" looks at. */
export const BEHIND_WINDOW_MS = 60_000;

const LEVELS: readonly RiskLevel[] = ["PASS", "REVIEW", "REJECT"];
const isLevel = (v: unknown): v is RiskLevel => typeof v === "string" && (LEVELS as readonly string[]).includes(v);
const obj = (v: unknown): Record<string, unknown> | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

export function worse(a: RiskLevel | null, b: RiskLevel | null): RiskLevel | null {
  if (a === null) return b;
  if (b === null) return a;
  return LEVELS.indexOf(a) >= LEVELS.indexOf(b) ? a : b;
}

/** Worst of some levels; null when there is none. */
export const worstOf = (levels: Iterable<RiskLevel | null>): RiskLevel | null => {
  let w: RiskLevel | null = null;
  for (const l of levels) w = worse(w, l);
  return w;
};

/**
 * A frame or audio-segment result (docs/api.md §3.2–3.4) the detectors did not look at: `auxInfo.detectType` 2
 * (detectStep, detection fell behind, the stream ended first, or no requested type has a detector).
 */
export function isNotChecked(frameDetail: unknown): boolean {
  return obj(obj(frameDetail)?.auxInfo)?.detectType === 2;
}

/** One result callback as the stream's state sees it; `level` null = no result (an error code instead). */
export type ResultFact = { kind: "frame" | "audio"; checked: boolean; level: RiskLevel | null };

/** A frame/segment callback body → the fact it carries. */
export function resultFact(kind: "frame" | "audio", body: Record<string, unknown>): ResultFact {
  const detail = obj(kind === "frame" ? body.frameDetail : body.audioDetail);
  const level = isLevel(detail?.riskLevel) ? detail.riskLevel : null;
  return { kind, checked: detail !== undefined && !isNotChecked(detail), level };
}

export interface RiskState {
  currentRisk: RiskLevel | null;
  worstRisk: RiskLevel | null;
}

/**
 * The stream's risk after one more result: "now" is the newest *checked* result and worst the worst of them;
 * a frame nobody checked says nothing about the content, so it moves neither.
 */
export function nextRisk(s: RiskState, f: ResultFact): RiskState {
  if (f.level === null || !f.checked) return s;
  return { currentRisk: f.level, worstRisk: worse(s.worstRisk, f.level) };
}

/** Frames received in the window, and how many of them were not checked. */
export interface FrameWindow {
  frames: number;
  notChecked: number;
}

/**
 * Detection is behind when fewer frames were checked in the window than the stream asked for: every frame
 * without detectStep, at least ⌊M / step⌋ of M consecutive frames with it (skips the step explains are not a
 * backlog).
 */
export function isBehind(w: FrameWindow, detectStep: number | null | undefined): boolean {
  if (w.notChecked === 0) return false;
  const step = detectStep && detectStep > 1 ? detectStep : 1;
  return w.frames - w.notChecked < Math.floor(w.frames / step);
}

export interface BehindNotice {
  notChecked: number;
  frames: number;
  text: string;
}

/** "detection behind: N of M frames not checked in the last minute", or null (ended, on time, or no recent frame). */
export function behindNotice(s: Pick<StreamSummary, "status" | "framesLastMinute" | "notCheckedLastMinute" | "detectStep" | "lastResultAt">, now: number): BehindNotice | null {
  if (s.status !== "running" || s.lastResultAt === null) return null;
  // the window was counted when the last result arrived: a minute later it no longer describes the last minute
  if (now - Date.parse(s.lastResultAt) > BEHIND_WINDOW_MS) return null;
  const w = { frames: s.framesLastMinute, notChecked: s.notCheckedLastMinute };
  if (!isBehind(w, s.detectStep)) return null;
  return { ...w, text: behindText(w) };
}

export const behindText = (w: FrameWindow) => `detection behind: ${w.notChecked} of ${w.frames} frames not checked in the last minute`;

/** Per-lane worst for the stream-end: checked frames and segments only. */
export function laneWorst(facts: Iterable<ResultFact>): { frames: RiskLevel | null; audio: RiskLevel | null } {
  let frames: RiskLevel | null = null;
  let audio: RiskLevel | null = null;
  for (const f of facts) {
    if (!f.checked) continue;
    if (f.kind === "frame") frames = worse(frames, f.level);
    else audio = worse(audio, f.level);
  }
  return { frames, audio };
}
