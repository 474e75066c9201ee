// Frames of a stream's timeline placed on the preview's wall clock, and wall clock ↔ media time through the
// playlist's EXT-X-PROGRAM-DATE-TIME (hls.js keeps it on every fragment).
import type { RiskLevel, StreamEvent } from "@/lib/dashboard-api";
import { isNotChecked } from "@/lib/stream-state";
import { asRiskLevel } from "@/components/ui/risk";

export interface FrameMark {
  eventId: number;
  /** the frame's index (`<task>_v<n>`) */
  index: number | null;
  /** null: not checked (never a hit) */
  level: RiskLevel | null;
  /** capture time, ms since the epoch */
  atMs: number;
}

/** auxInfo.imgTime is the server's local time without a zone ("YYYY-MM-DD HH:mm:ss.SSS"): read it with the server's offset. */
export function imgTimeMs(imgTime: unknown, utcOffsetMin: number): number | null {
  const m = typeof imgTime === "string" ? /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?/.exec(imgTime) : null;
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const ms = Number((m[7] ?? "0").padEnd(3, "0"));
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - utcOffsetMin * 60_000;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

/** Every frame result with its capture time (oldest first). */
export function frameMarks(events: readonly StreamEvent[], utcOffsetMin: number): FrameMark[] {
  const marks: FrameMark[] = [];
  for (const e of events) {
    if (e.kind !== "frame") continue;
    const d = obj(e.body.frameDetail);
    const atMs = imgTimeMs(obj(d?.auxInfo)?.imgTime, utcOffsetMin);
    if (!d || atMs === null) continue;
    const index = /_v(\d+)$/.exec(String(e.body.requestId ?? ""))?.[1];
    marks.push({ eventId: e.id, index: index ? Number(index) : null, level: isNotChecked(d) ? null : asRiskLevel(d.riskLevel), atMs });
  }
  return marks;
}

export const isHit = (m: FrameMark) => m.level === "REVIEW" || m.level === "REJECT";

/** The part of a fragment hls.js exposes that the mapping needs. */
export interface DatedFragment {
  start: number;
  duration: number;
  programDateTime: number | null;
}

/** Media time (video.currentTime) of a wall-clock moment, or null when the playlist does not hold it. */
export function mediaTimeOf(frags: readonly DatedFragment[], atMs: number): number | null {
  for (const f of frags) {
    if (f.programDateTime === null) continue;
    if (atMs >= f.programDateTime && atMs < f.programDateTime + f.duration * 1000) return f.start + (atMs - f.programDateTime) / 1000;
  }
  return null;
}

/** Wall clock of a media time, or null outside the playlist. */
export function dateOf(frags: readonly DatedFragment[], t: number): number | null {
  for (const f of frags) if (f.programDateTime !== null && t >= f.start && t < f.start + f.duration + 1e-3) return f.programDateTime + (t - f.start) * 1000;
  return null;
}

/** First and last wall-clock moment the playlist holds. */
export function datedSpan(frags: readonly DatedFragment[]): { startMs: number; endMs: number } | null {
  const dated = frags.filter((f) => f.programDateTime !== null);
  if (dated.length === 0) return null;
  const last = dated[dated.length - 1];
  return { startMs: dated[0].programDateTime as number, endMs: (last.programDateTime as number) + last.duration * 1000 };
}
