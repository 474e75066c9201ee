// Pure helpers of the long-stream timeline: audio rows with PASS runs collapsed, the whole-stream risk strip,
// offsets. Items are newest first, as the lanes show them.
import type { RiskLevel } from "@/lib/dashboard-api";
import type { AudioView, FailedView, FrameView } from "./event-view";

/** A strip bucket: the worst checked level in it, and whether something in it went unchecked. */
export interface Bucket {
  from: number;
  to: number;
  worst: RiskLevel | null;
  notChecked: number;
  items: number;
  /** when the bucket's worst item happened (the first of them): where a click on the bucket jumps */
  peakT: number | null;
}

const RANK: Record<RiskLevel, number> = { PASS: 0, REVIEW: 1, REJECT: 2 };

export function worse(a: RiskLevel | null, b: RiskLevel | null): RiskLevel | null {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[b] > RANK[a] ? b : a;
}

/** Something placed on the stream's time axis: `level` null = captured but not checked. */
export interface TimedItem {
  t: number;
  level: RiskLevel | null;
}

/** `count` equal buckets over [0, duration] with the worst level of what fell in each. */
export function bucketize(items: Iterable<TimedItem>, duration: number, count: number): Bucket[] {
  const span = Math.max(duration, 1);
  const width = span / count;
  const buckets: Bucket[] = Array.from({ length: count }, (_, i) => ({ from: i * width, to: (i + 1) * width, worst: null, notChecked: 0, items: 0, peakT: null }));
  for (const it of items) {
    const b = buckets[Math.min(count - 1, Math.max(0, Math.floor(it.t / width)))];
    b.items += 1;
    if (it.level === null) {
      b.notChecked += 1;
      if (b.worst === null && (b.peakT === null || it.t < b.peakT)) b.peakT = it.t;
    } else if (b.worst === null || RANK[it.level] > RANK[b.worst] || (it.level === b.worst && it.t < (b.peakT ?? Infinity))) {
      b.worst = it.level;
      b.peakT = it.t;
    }
  }
  return buckets;
}

/** Frames and segments as timed items (failed callbacks carry no level and no time: left out). */
export function timedItems(frames: ReadonlyArray<FrameView | FailedView>, audio: ReadonlyArray<AudioView | FailedView>): TimedItem[] {
  const out: TimedItem[] = [];
  for (const f of frames) if (f.kind === "frame") out.push({ t: f.detail.time, level: f.level });
  for (const a of audio) if (a.kind === "audio") out.push({ t: a.t, level: a.level });
  return out;
}

export type AudioRow =
  | { kind: "item"; item: AudioView | FailedView }
  /** consecutive PASS segments of one kind (speech or no speech), shown as one row until expanded */
  | { kind: "run"; key: string; noSpeech: boolean; segments: AudioView[] }
  /** the head of an expanded run, to fold it again */
  | { kind: "fold"; key: string; noSpeech: boolean; count: number };

const quiet = (a: AudioView | FailedView): a is AudioView => a.kind === "audio" && a.level === "PASS";

/**
 * Audio rows, newest first: consecutive PASS segments (speech, or no speech) of at least `min` collapse into one
 * run row unless their run is expanded; the newest segment, risky segments and failed callbacks always stand alone.
 */
export function audioRows(segments: ReadonlyArray<AudioView | FailedView>, expanded: ReadonlySet<string>, min = 3): AudioRow[] {
  const rows: AudioRow[] = [];
  let run: AudioView[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const key = `run-${run[run.length - 1].id}`;
    if (run.length >= min && !expanded.has(key)) rows.push({ kind: "run", key, noSpeech: run[0].vad === 0, segments: run });
    else {
      if (run.length >= min) rows.push({ kind: "fold", key, noSpeech: run[0].vad === 0, count: run.length });
      for (const s of run) rows.push({ kind: "item", item: s });
    }
    run = [];
  };
  segments.forEach((s, i) => {
    // the newest segment always stands alone: the live edge stays readable
    if (i === 0) rows.push({ kind: "item", item: s });
    else if (quiet(s) && (run.length === 0 || (run[0].vad === 0) === (s.vad === 0))) run.push(s);
    else {
      flush();
      if (quiet(s)) run.push(s);
      else rows.push({ kind: "item", item: s });
    }
  });
  flush();
  return rows;
}

/** Index of the item nearest to `t` (items with no time are skipped); -1 when none has one. */
export function nearestIndex<T>(items: readonly T[], t: number, timeOf: (item: T) => number | undefined): number {
  let best = -1;
  let gap = Infinity;
  items.forEach((it, i) => {
    const at = timeOf(it);
    if (at === undefined) return;
    const d = Math.abs(at - t);
    if (d < gap) {
      gap = d;
      best = i;
    }
  });
  return best;
}

/** Seconds → "+H:MM:SS" (stream offset). */
export function formatOffset(sec: number): string {
  const s = Math.max(0, Math.floor(sec));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `+${h}:${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}
