// Team review metrics (issue 26 item 6): the pure parts — query parsing and range bounds, UTC buckets, nearest-rank
// percentiles, per-category counts, the backlog sweep, decisions per reviewer, the overturn rate and the CSV.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bucketCount, MAX_BUCKETS, parseMetricsQuery } from "../../lib/review-metrics";
import { backlog, bucketIndex, bucketStarts, countByLabel, overturnRates, percentile, perReviewer, timeToFirstDecision, type Range } from "../../server/metrics/review-aggregate";
import { csvCell } from "../../server/metrics/review-csv";

const H = 3_600_000;
const T0 = Date.parse("2026-11-20T00:00:00Z");
const name = (l: string) => l.toUpperCase();

test("query: ISO or Unix seconds, defaults, since < until, a clear 400 text when the range has too many buckets", () => {
  const now = T0 + 10 * H;
  const d = parseMetricsQuery({}, now);
  assert.ok(d.ok);
  assert.deepEqual(d.query, { since: now - 24 * H, until: now, bucket: "hour", reviewer: undefined, series: undefined });
  const unix = parseMetricsQuery({ since: String(T0 / 1000), until: "2026-11-20T06:30:00Z", bucket: "hour" }, now);
  assert.ok(unix.ok);
  assert.equal(unix.query.since, T0);
  assert.equal(unix.query.until, T0 + 6.5 * H);
  const week = parseMetricsQuery({ since: "2026-11-01T00:00:00Z", until: "2026-11-08T00:00:00Z" }, now);
  assert.ok(week.ok && week.query.bucket === "day", "a range over 3 days defaults to days");
  const bad = (q: Record<string, string>) => {
    const r = parseMetricsQuery(q, now);
    assert.ok(!r.ok, JSON.stringify(q));
    return r.error;
  };
  assert.match(bad({ since: "yesterday" }), /^since: an ISO 8601 time/);
  assert.match(bad({ bucket: "minute" }), /^bucket: hour or day/);
  assert.match(bad({ since: "2026-11-20T05:00:00Z", until: "2026-11-20T05:00:00Z" }), /since: must be before until/);
  assert.match(bad({ since: "2026-01-01T00:00:00Z", until: "2026-03-01T00:00:00Z", bucket: "hour" }), new RegExp(`1416 hour buckets, at most ${MAX_BUCKETS}: choose bucket=day`));
  assert.match(bad({ series: "everything" }), /^series: one of opened, decided/);
});

test("buckets are UTC hours/days: the first holds since, the last the instant before until; outside is -1", () => {
  const r: Range = { since: T0 + 0.5 * H, until: T0 + 3 * H, bucket: "hour" };
  assert.equal(bucketCount(r.since, r.until, r.bucket), 3);
  assert.deepEqual(bucketStarts(r), [T0, T0 + H, T0 + 2 * H]);
  assert.equal(bucketIndex(r, T0 + 0.4 * H), -1, "before since");
  assert.equal(bucketIndex(r, T0 + 0.5 * H), 0);
  assert.equal(bucketIndex(r, T0 + 3 * H - 1), 2);
  assert.equal(bucketIndex(r, T0 + 3 * H), -1, "until is exclusive");
  assert.equal(bucketCount(T0, T0 + 24 * H + 1, "day"), 2);
});

test("nearest-rank percentiles", () => {
  assert.equal(percentile([], 50), null);
  assert.equal(percentile([7], 95), 7);
  assert.equal(percentile([1, 2, 3, 4], 50), 2);
  assert.equal(percentile([1, 2, 3, 4], 95), 4);
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(hundred, 50), 50);
  assert.equal(percentile(hundred, 95), 95);
});

test("counts per category and level per bucket; time to first decision per bucket of the decision", () => {
  const r: Range = { since: T0, until: T0 + 2 * H, bucket: "hour" };
  const s = countByLabel(r, [{ at: T0, label: "ad", level: "REVIEW" }, { at: T0 + H, label: "ad", level: "REVIEW", n: 3 }, { at: T0 + 5, label: "porn", level: "REJECT" }, { at: T0 + 2 * H, label: "ad", level: "REVIEW" }], name);
  assert.deepEqual(s, [
    { label: "ad", labelName: "AD", level: "REVIEW", total: 4, counts: [1, 3] },
    { label: "porn", labelName: "PORN", level: "REJECT", total: 1, counts: [1, 0] },
  ]);
  const t = timeToFirstDecision(r, [
    { createdAt: T0, firstDecisionAt: T0 + 60_000 },
    { createdAt: T0, firstDecisionAt: T0 + 120_000 },
    { createdAt: T0, firstDecisionAt: T0 + H + 600_000 },
    { createdAt: T0, firstDecisionAt: T0 + 3 * H },
  ]);
  assert.deepEqual(t, { count: 3, p50Sec: 120, p95Sec: 4200, buckets: [{ count: 2, p50Sec: 60, p95Sec: 120 }, { count: 1, p50Sec: 4200, p95Sec: 4200 }] });
});

test("backlog: open at the end of each bucket and at until, with the oldest open age, overall and per group", () => {
  const r: Range = { since: T0, until: T0 + 2.5 * H, bucket: "hour" };
  const items = [
    { createdAt: T0 - H, firstDecisionAt: T0 + 1.5 * H, key: "ad", name: "Ad" }, // open until 1.5 h
    { createdAt: T0 + 0.5 * H, firstDecisionAt: null, key: "ad", name: "Ad" }, // never decided
    { createdAt: T0 + 1.2 * H, firstDecisionAt: T0 + 2 * H, key: "porn", name: "Porn" }, // decided exactly at the 2 h end: not open then
    { createdAt: T0 + 2.2 * H, firstDecisionAt: null, key: "porn", name: "Porn" },
  ];
  const b = backlog(r, items, [{ key: "empty", name: "Empty queue" }]);
  assert.deepEqual(b.open, [2, 2, 2]);
  assert.deepEqual(b.oldestOpenAgeSec, [7200, 5400, 7200]);
  assert.deepEqual(b.groups, [
    { key: "ad", name: "Ad", open: 1, oldestOpenAgeSec: 7200 },
    { key: "porn", name: "Porn", open: 1, oldestOpenAgeSec: 1080 },
    { key: "empty", name: "Empty queue", open: 0, oldestOpenAgeSec: null },
  ]);
});

test("decisions per reviewer, busiest first, by kind", () => {
  const r: Range = { since: T0, until: T0 + 2 * H, bucket: "hour" };
  const p = perReviewer(r, [
    { at: T0, username: "rev-b", decision: "cleared" },
    { at: T0 + H, username: "rev-a", decision: "confirmed", n: 2 },
    { at: T0 + 1.5 * H, username: "rev-a", decision: "escalated" },
    { at: T0 - 1, username: "rev-b", decision: "cleared" },
  ]);
  assert.deepEqual(p, [
    { username: "rev-a", total: 3, confirmed: 2, cleared: 0, escalated: 1, counts: [0, 3] },
    { username: "rev-b", total: 1, confirmed: 0, cleared: 1, escalated: 0, counts: [1, 0] },
  ]);
});

test("overturn rate: cleared ÷ (confirmed + cleared) per category, per level and ALL; escalated apart; highest first", () => {
  const rows = overturnRates(
    [
      { label: "ad", level: "REVIEW", verdict: "cleared", hits: 3 },
      { label: "ad", level: "REVIEW", verdict: "confirmed", hits: 1 },
      { label: "ad", level: "REJECT", verdict: "confirmed", hits: 4 },
      { label: "porn", level: "REJECT", verdict: "cleared", hits: 1 },
      { label: "porn", level: "REJECT", verdict: "confirmed", hits: 1 },
      { label: "porn", level: "REJECT", verdict: "escalated", hits: 2 },
    ],
    name,
  );
  assert.deepEqual(
    rows.map((x) => [x.label, x.level, x.judged, x.cleared, x.escalated, x.rate]),
    [
      ["porn", "ALL", 2, 1, 2, 0.5],
      ["porn", "REJECT", 2, 1, 2, 0.5],
      ["ad", "ALL", 8, 3, 0, 0.375],
      ["ad", "REJECT", 4, 0, 0, 0],
      ["ad", "REVIEW", 4, 3, 0, 0.75],
    ],
  );
  assert.equal(overturnRates([{ label: "x", level: "REVIEW", verdict: "escalated", hits: 1 }], name)[0].rate, null, "nothing judged: no rate");
});

test("CSV cells are quoted and never start a formula", () => {
  assert.equal(csvCell('a,"b"'), '"a,""b"""');
  assert.equal(csvCell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
  assert.equal(csvCell(-3), "-3", "numbers stay numbers");
  assert.equal(csvCell(null), "");
});
