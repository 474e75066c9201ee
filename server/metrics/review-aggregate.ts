// Pure aggregation of the team review metrics (no store): buckets, nearest-rank percentiles, per-category counts,
// the backlog sweep and the overturn rate. server/metrics/review.ts feeds it rows read from the store.
import { BUCKET_MS, bucketCount, type BacklogGroup, type DurationStats, type LabelSeries, type Level, type MetricBucket, type OverturnRow, type ReviewerSeries } from "../../lib/review-metrics";

export interface Range {
  since: number;
  until: number;
  bucket: MetricBucket;
}

/** Start (ms) of every bucket of the range; the first is the UTC hour or day holding `since`. */
export function bucketStarts(r: Range): number[] {
  const w = BUCKET_MS[r.bucket];
  const first = Math.floor(r.since / w) * w;
  return Array.from({ length: bucketCount(r.since, r.until, r.bucket) }, (_, i) => first + i * w);
}

/** Index of the bucket holding `t`, or -1 outside [since, until). */
export function bucketIndex(r: Range, t: number): number {
  if (t < r.since || t >= r.until) return -1;
  const w = BUCKET_MS[r.bucket];
  return Math.floor(t / w) - Math.floor(r.since / w);
}

/** Nearest-rank percentile (the smallest value with at least p % of the values at or below it); null for none. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export function durationStats(values: readonly number[]): DurationStats {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50Sec: percentile(sorted, 50), p95Sec: percentile(sorted, 95) };
}

/** Events (a time, a category, a level; `n` of them, default 1) counted per bucket, one series per category and level, busiest first. */
export function countByLabel(r: Range, events: ReadonlyArray<{ at: number; label: string; level: Level; n?: number }>, name: (label: string) => string): LabelSeries[] {
  const n = bucketCount(r.since, r.until, r.bucket);
  const series = new Map<string, LabelSeries>();
  for (const e of events) {
    const i = bucketIndex(r, e.at);
    if (i < 0) continue;
    const key = `${e.label}\u0000${e.level}`;
    let s = series.get(key);
    if (!s) series.set(key, (s = { label: e.label, labelName: name(e.label), level: e.level, total: 0, counts: new Array<number>(n).fill(0) }));
    s.counts[i] += e.n ?? 1;
    s.total += e.n ?? 1;
  }
  return [...series.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label) || a.level.localeCompare(b.level));
}

/** Time to first decision (seconds) per bucket of the decision, and over the whole range. */
export function timeToFirstDecision(r: Range, decided: ReadonlyArray<{ createdAt: number; firstDecisionAt: number }>): DurationStats & { buckets: DurationStats[] } {
  const per: number[][] = bucketStarts(r).map(() => []);
  const all: number[] = [];
  for (const d of decided) {
    const i = bucketIndex(r, d.firstDecisionAt);
    if (i < 0) continue;
    const sec = Math.max(0, d.firstDecisionAt - d.createdAt) / 1000;
    per[i].push(sec);
    all.push(sec);
  }
  return { ...durationStats(all), buckets: per.map(durationStats) };
}

export interface BacklogItem {
  createdAt: number;
  /** null: still undecided */
  firstDecisionAt: number | null;
  key: string;
  name: string;
}

/** Open at `t`: created before it and not decided before it. */
const openAt = (x: BacklogItem, t: number) => x.createdAt < t && (x.firstDecisionAt === null || x.firstDecisionAt >= t);

/**
 * The backlog at the end of every bucket (the last one ends at `until`) and, per group (queue), at `until`: how
 * many incidents were open and the age (s) of the oldest of them. Items are those open at some point of the range.
 */
export function backlog(r: Range, items: readonly BacklogItem[], known: ReadonlyArray<{ key: string; name: string }> = []): { open: number[]; oldestOpenAgeSec: Array<number | null>; groups: BacklogGroup[] } {
  const w = BUCKET_MS[r.bucket];
  const ends = bucketStarts(r).map((s) => Math.min(s + w, r.until));
  const open: number[] = [];
  const oldest: Array<number | null> = [];
  for (const t of ends) {
    let count = 0;
    let first = Infinity;
    for (const x of items) {
      if (!openAt(x, t)) continue;
      count++;
      first = Math.min(first, x.createdAt);
    }
    open.push(count);
    oldest.push(count ? Math.round((t - first) / 1000) : null);
  }
  const groups = new Map<string, BacklogGroup & { first: number }>();
  // every known group (each queue) is listed, an empty one with 0 open
  for (const k of known) groups.set(k.key, { key: k.key, name: k.name, open: 0, oldestOpenAgeSec: null, first: Infinity });
  for (const x of items) {
    let g = groups.get(x.key);
    if (!g) groups.set(x.key, (g = { key: x.key, name: x.name, open: 0, oldestOpenAgeSec: null, first: Infinity }));
    if (!openAt(x, r.until)) continue;
    g.open++;
    g.first = Math.min(g.first, x.createdAt);
  }
  const out = [...groups.values()].map(({ first, ...g }) => ({ ...g, oldestOpenAgeSec: g.open ? Math.round((r.until - first) / 1000) : null }));
  return { open, oldestOpenAgeSec: oldest, groups: out.sort((a, b) => b.open - a.open || a.name.localeCompare(b.name)) };
}

export interface DecisionEvent {
  at: number;
  username: string;
  decision: string;
  /** how many decisions this event stands for (default 1) */
  n?: number;
}

/** Decisions per reviewer: per bucket, and totals by kind; busiest first. */
export function perReviewer(r: Range, decisions: readonly DecisionEvent[]): ReviewerSeries[] {
  const n = bucketCount(r.since, r.until, r.bucket);
  const by = new Map<string, ReviewerSeries>();
  for (const d of decisions) {
    const i = bucketIndex(r, d.at);
    if (i < 0) continue;
    let s = by.get(d.username);
    if (!s) by.set(d.username, (s = { username: d.username, total: 0, confirmed: 0, cleared: 0, escalated: 0, counts: new Array<number>(n).fill(0) }));
    const k = d.n ?? 1;
    s.counts[i] += k;
    s.total += k;
    if (d.decision === "confirmed" || d.decision === "cleared" || d.decision === "escalated") s[d.decision] += k;
  }
  return [...by.values()].sort((a, b) => b.total - a.total || a.username.localeCompare(b.username));
}

/** Hits of one category and engine level with one verdict (the latest decision that applies to each hit). */
export interface VerdictCount {
  label: string;
  level: Level;
  verdict: string;
  hits: number;
}

/**
 * Overturn rate per category: of the engine's REVIEW/REJECT hits that reviewers judged (confirmed or cleared),
 * the share they cleared. One row per category and level, and one "ALL" row per category; escalated hits are
 * counted apart and left out of the rate (not a verdict yet). Highest rate first.
 */
export function overturnRates(counts: readonly VerdictCount[], name: (label: string) => string): OverturnRow[] {
  const rows = new Map<string, OverturnRow>();
  const row = (label: string, level: Level | "ALL") => {
    const key = `${label}\u0000${level}`;
    let x = rows.get(key);
    if (!x) rows.set(key, (x = { label, labelName: name(label), level, judged: 0, confirmed: 0, cleared: 0, escalated: 0, rate: null }));
    return x;
  };
  for (const c of counts) {
    for (const x of [row(c.label, "ALL"), row(c.label, c.level)]) {
      if (c.verdict === "confirmed" || c.verdict === "cleared") {
        x[c.verdict] += c.hits;
        x.judged += c.hits;
      } else if (c.verdict === "escalated") x.escalated += c.hits;
    }
  }
  const order = { ALL: 0, REJECT: 1, REVIEW: 2 } as const;
  const out = [...rows.values()].map((x) => ({ ...x, rate: x.judged ? x.cleared / x.judged : null }));
  const allRate = (label: string) => rows.get(`${label}\u0000ALL`)!.cleared / Math.max(1, rows.get(`${label}\u0000ALL`)!.judged);
  return out.sort((a, b) => allRate(b.label) - allRate(a.label) || a.label.localeCompare(b.label) || order[a.level] - order[b.level]);
}
