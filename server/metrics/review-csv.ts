// One series of the team review metrics as CSV (GET /api/metrics/review.csv?series=): one row per bucket and
// group, times in ISO 8601 UTC, durations in seconds.
import type { LabelSeries, MetricSeries, ReviewMetrics } from "../../lib/review-metrics";

/** RFC 4180 quoting; a leading =+-@ is prefixed with ' so a spreadsheet never runs a cell as a formula. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const lines = (rows: unknown[][]) => rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";

function byLabel(m: ReviewMetrics, series: LabelSeries[]): unknown[][] {
  const out: unknown[][] = [["bucket_start", "label", "label_name", "level", "incidents"]];
  m.range.buckets.forEach((b, i) => {
    for (const s of series) out.push([b, s.label, s.labelName, s.level, s.counts[i]]);
  });
  return out;
}

export function metricsCsv(m: ReviewMetrics, series: MetricSeries): string {
  const b = m.range.buckets;
  switch (series) {
    case "opened":
      return lines(byLabel(m, m.opened));
    case "decided":
      return lines(byLabel(m, m.decided));
    case "backlog":
      return lines([
        ["at", "group", "name", "open", "oldest_open_age_sec"],
        ...b.map((t, i) => [i === b.length - 1 ? m.range.until : b[i + 1], "all", "All incidents", m.backlog.open[i], m.backlog.oldestOpenAgeSec[i]]),
        ...m.backlog.groups.map((g) => [m.range.until, g.key, g.name, g.open, g.oldestOpenAgeSec]),
      ]);
    case "time-to-decision":
      return lines([
        ["bucket_start", "decided", "p50_sec", "p95_sec"],
        ...b.map((t, i) => [t, m.timeToFirstDecision.buckets[i].count, m.timeToFirstDecision.buckets[i].p50Sec, m.timeToFirstDecision.buckets[i].p95Sec]),
        ["all", m.timeToFirstDecision.count, m.timeToFirstDecision.p50Sec, m.timeToFirstDecision.p95Sec],
      ]);
    case "reviewers":
      return lines([["bucket_start", "reviewer", "decisions"], ...b.flatMap((t, i) => m.reviewers.map((r) => [t, r.username, r.counts[i]]))]);
    case "overturn":
      return lines([
        ["label", "label_name", "level", "judged_hits", "confirmed", "cleared", "escalated", "overturn_rate"],
        ...m.overturn.map((o) => [o.label, o.labelName, o.level, o.judged, o.confirmed, o.cleared, o.escalated, o.rate === null ? null : Number(o.rate.toFixed(4))]),
      ]);
  }
}
