// Team review metrics (GET /api/metrics/review): the query and the answer, shared by server/metrics/review*.ts,
// the route handlers and the /team page.
import { z } from "zod";

export const METRIC_BUCKETS = ["hour", "day"] as const;
export type MetricBucket = (typeof METRIC_BUCKETS)[number];
export const BUCKET_MS: Record<MetricBucket, number> = { hour: 3_600_000, day: 86_400_000 };
/** At most this many buckets in one answer (31 days of hours): a longer range must use bucket=day. */
export const MAX_BUCKETS = 744;
/** The default range when `since` is absent: the 24 hours before `until`. */
export const DEFAULT_RANGE_MS = 86_400_000;

/** The series a CSV can be asked for (`GET /api/metrics/review.csv?series=`). */
export const METRIC_SERIES = ["opened", "decided", "backlog", "time-to-decision", "reviewers", "overturn"] as const;
export type MetricSeries = (typeof METRIC_SERIES)[number];

/** An instant as ISO 8601 (with a zone or Z) or Unix seconds (digits, optional fraction). */
const Instant = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const ms = /^\d{1,12}(\.\d+)?$/.test(s) ? Number(s) * 1000 : /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) ? Date.parse(s) : NaN;
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: "custom", message: "an ISO 8601 time (2026-11-28T14:00:00Z) or Unix seconds" });
      return z.NEVER;
    }
    return ms;
  });

/** The raw query; `parseMetricsQuery` adds the defaults and the range checks. */
export const MetricsQueryRaw = z.object({
  since: Instant.optional(),
  until: Instant.optional(),
  bucket: z.enum(METRIC_BUCKETS, { message: "hour or day" }).optional(),
  /** supervisors only: one reviewer's own figures */
  reviewer: z.string().trim().min(1).max(64).optional(),
  series: z.enum(METRIC_SERIES, { message: `one of ${METRIC_SERIES.join(", ")}` }).optional(),
});

export interface MetricsQuery {
  /** ms since epoch, inclusive */
  since: number;
  /** ms since epoch, exclusive */
  until: number;
  bucket: MetricBucket;
  reviewer?: string;
  series?: MetricSeries;
}

/** Defaults (until = now, since = until − 24 h, bucket = hour up to 3 days, else day), then the range rules. */
export function parseMetricsQuery(params: Record<string, string>, now: number): { ok: true; query: MetricsQuery } | { ok: false; error: string } {
  const r = MetricsQueryRaw.safeParse(params);
  if (!r.success) return { ok: false, error: r.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; ") };
  const until = r.data.until ?? now;
  const since = r.data.since ?? until - DEFAULT_RANGE_MS;
  if (since >= until) return { ok: false, error: "since: must be before until" };
  const bucket = r.data.bucket ?? (until - since <= 3 * DEFAULT_RANGE_MS ? "hour" : "day");
  const n = bucketCount(since, until, bucket);
  if (n > MAX_BUCKETS) return { ok: false, error: `bucket: this range is ${n} ${bucket} buckets, at most ${MAX_BUCKETS}: choose bucket=day or a shorter range` };
  return { ok: true, query: { since, until, bucket, reviewer: r.data.reviewer, series: r.data.series } };
}

/** Buckets are aligned to UTC hours or days: the first one holds `since`, the last one the instant before `until`. */
export function bucketCount(since: number, until: number, bucket: MetricBucket): number {
  const w = BUCKET_MS[bucket];
  return Math.floor((until - 1) / w) - Math.floor(since / w) + 1;
}

export type Level = "REVIEW" | "REJECT";

/** Counts per bucket of one category and level. */
export interface LabelSeries {
  label: string;
  labelName: string;
  level: Level;
  total: number;
  counts: number[];
}

export interface BacklogGroup {
  /** the review queue's id (server/queues) */
  key: string;
  name: string;
  open: number;
  /** age in seconds, at `until`, of the oldest incident still open then; null when none */
  oldestOpenAgeSec: number | null;
}

export interface DurationStats {
  count: number;
  p50Sec: number | null;
  p95Sec: number | null;
}

export interface ReviewerSeries {
  username: string;
  total: number;
  confirmed: number;
  cleared: number;
  escalated: number;
  counts: number[];
}

export interface OverturnRow {
  label: string;
  labelName: string;
  /** the engine's level on the hit; "ALL" sums both */
  level: Level | "ALL";
  /** hits whose verdict is confirmed or cleared (escalated ones are not a verdict yet) */
  judged: number;
  confirmed: number;
  cleared: number;
  escalated: number;
  /** cleared ÷ judged; null when nothing was judged */
  rate: number | null;
}

export interface ReviewMetrics {
  range: { since: string; until: string; bucket: MetricBucket; buckets: string[] };
  /** team: every reviewer; reviewer: only that reviewer's decisions count in the decision figures */
  scope: { kind: "team" } | { kind: "reviewer"; username: string };
  opened: LabelSeries[];
  decided: LabelSeries[];
  backlog: {
    groupBy: "queue";
    /** state at `until` */
    groups: BacklogGroup[];
    /** open incidents and the oldest one's age at the end of each bucket (or at `until` for the last) */
    open: number[];
    oldestOpenAgeSec: Array<number | null>;
  };
  timeToFirstDecision: DurationStats & { buckets: DurationStats[] };
  reviewers: ReviewerSeries[];
  overturn: OverturnRow[];
}
