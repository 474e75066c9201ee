// Team review metrics (GET /api/metrics/review; docs/pending/metrics.md): read from the incidents, their hits and
// decisions, and the item decisions on single frames/segments; aggregated by ./review-aggregate.ts.
import { sql, type SQL } from "drizzle-orm";
import { BUCKET_MS, type Level, type MetricSeries, type MetricsQuery, type ReviewMetrics } from "../../lib/review-metrics";
import { DEFAULT_QUEUE_ID } from "../../lib/queues";
import { categoryName } from "../incidents/hits";
import { reviewQueues } from "../queues/schema";
import type { Db } from "../store/db";
import { metricsCsv } from "./review-csv";
import { backlog, bucketStarts, countByLabel, overturnRates, perReviewer, timeToFirstDecision, type Range, type VerdictCount } from "./review-aggregate";

type Row = Record<string, unknown>;
const rows = async (db: Db, q: SQL): Promise<Row[]> => ((await db.execute(q)) as unknown as { rows: Row[] }).rows;
const num = (v: unknown) => Number(v);
const ms = (col: SQL) => sql`(extract(epoch from ${col}) * 1000)::float8`;

/** The first decision of every decided incident (who and when): what takes an incident off the backlog. */
const FIRST_DECISIONS = sql`SELECT DISTINCT ON (incident_id) incident_id, username, at FROM incident_decisions ORDER BY incident_id, at, id`;

export interface ReviewMetricsOptions {
  db: Db;
}

/**
 * The figures of one range. `reviewer` set: decided, time to first decision, decisions and overturn count only
 * that reviewer's decisions (what a reviewer sees of themselves); opened and backlog are the team's shared work.
 */
export async function reviewMetrics(o: ReviewMetricsOptions, q: MetricsQuery): Promise<ReviewMetrics> {
  const r: Range = { since: q.since, until: q.until, bucket: q.bucket };
  const since = sql`${new Date(q.since).toISOString()}::timestamptz`;
  const until = sql`${new Date(q.until).toISOString()}::timestamptz`;
  const w = BUCKET_MS[q.bucket];
  const mine = (col: SQL) => (q.reviewer === undefined ? sql`true` : sql`${col} = ${q.reviewer}`);

  // opened: grouped in SQL per category, level and bucket (min(created) stands for its bucket)
  const opened = await rows(
    o.db,
    sql`SELECT label, risk_level AS level, count(*)::int AS n, min(${ms(sql`created_at`)}) AS at FROM incidents
        WHERE created_at >= ${since} AND created_at < ${until}
        GROUP BY label, risk_level, floor(${ms(sql`created_at`)} / ${w}::float8)`,
  );

  // decided: incidents whose first decision falls in the range (one row each: percentiles need them)
  const decided = await rows(
    o.db,
    sql`SELECT i.label, i.risk_level AS level, ${ms(sql`i.created_at`)} AS created, ${ms(sql`f.at`)} AS first_at
        FROM (${FIRST_DECISIONS}) f JOIN incidents i ON i.id = f.incident_id
        WHERE f.at >= ${since} AND f.at < ${until} AND ${mine(sql`f.username`)}`,
  );

  // backlog per review queue (server/queues; an incident never routed counts as the default queue's, as there):
  // incidents open at some point of the range (created before its end, not decided before its start)
  const open = await rows(
    o.db,
    sql`SELECT coalesce(i.queue_id, ${DEFAULT_QUEUE_ID}) AS queue, ${ms(sql`i.created_at`)} AS created, ${ms(sql`f.at`)} AS first_at
        FROM incidents i LEFT JOIN (${FIRST_DECISIONS}) f ON f.incident_id = i.id
        WHERE i.created_at < ${until} AND (f.at IS NULL OR f.at >= ${since})`,
  );
  const queues = await o.db.select({ key: reviewQueues.id, name: reviewQueues.name }).from(reviewQueues).orderBy(reviewQueues.position);
  // a queue deleted since keeps its incidents' group under its id
  const queueName = new Map(queues.map((q) => [q.key, q.name]));

  // decisions per reviewer, grouped in SQL per reviewer, decision and bucket
  const decisions = await rows(
    o.db,
    sql`SELECT username, decision, count(*)::int AS n, min(${ms(sql`at`)}) AS at FROM incident_decisions
        WHERE at >= ${since} AND at < ${until} AND ${mine(sql`username`)}
        GROUP BY username, decision, floor(${ms(sql`at`)} / ${w}::float8)`,
  );

  // overturn: each hit's verdict is its own latest item decision if it has one, else its incident's latest decision;
  // a hit counts in the range of the decision that gives its verdict. Two parts, each starting from the decisions
  // in the range (never a scan of every hit): hits judged on their own, then the other hits of incidents decided.
  const verdicts = await rows(
    o.db,
    sql`WITH last_incident AS (SELECT DISTINCT ON (incident_id) incident_id, decision, username, at FROM incident_decisions ORDER BY incident_id, at DESC, id DESC),
        last_item AS (SELECT DISTINCT ON (target_kind, target_id, item) target_kind, target_id, item, decision, username, at FROM review_decisions
                      WHERE item IS NOT NULL ORDER BY target_kind, target_id, item, at DESC, id DESC),
        judged AS (
          SELECT h.label, h.hit->>'riskLevel' AS level, li.decision AS verdict, li.username
            FROM last_item li JOIN incidents i ON i.source_kind = li.target_kind AND i.source_ref = li.target_id
            JOIN incident_hits h ON h.incident_id = i.id AND h.item_id = li.item
           WHERE li.at >= ${since} AND li.at < ${until}
          UNION ALL
          SELECT h.label, h.hit->>'riskLevel' AS level, lc.decision AS verdict, lc.username
            FROM last_incident lc JOIN incidents i ON i.id = lc.incident_id JOIN incident_hits h ON h.incident_id = lc.incident_id
           WHERE lc.at >= ${since} AND lc.at < ${until}
             AND NOT EXISTS (SELECT 1 FROM last_item li WHERE li.target_kind = i.source_kind AND li.target_id = i.source_ref AND li.item = h.item_id))
        SELECT label, level, verdict, count(*)::int AS hits FROM judged
        WHERE level IN ('REVIEW', 'REJECT') AND ${mine(sql`username`)}
        GROUP BY label, level, verdict`,
  );

  const starts = bucketStarts(r);
  return {
    range: { since: new Date(q.since).toISOString(), until: new Date(q.until).toISOString(), bucket: q.bucket, buckets: starts.map((s) => new Date(s).toISOString()) },
    scope: q.reviewer === undefined ? { kind: "team" } : { kind: "reviewer", username: q.reviewer },
    opened: countByLabel(r, opened.map((x) => ({ at: num(x.at), label: String(x.label), level: x.level as Level, n: num(x.n) })), categoryName),
    decided: countByLabel(r, decided.map((x) => ({ at: num(x.first_at), label: String(x.label), level: x.level as Level })), categoryName),
    backlog: {
      groupBy: "queue",
      ...backlog(r, open.map((x) => ({ createdAt: num(x.created), firstDecisionAt: x.first_at === null ? null : num(x.first_at), key: String(x.queue), name: queueName.get(String(x.queue)) ?? `Deleted queue ${String(x.queue)}` })), queues),
    },
    timeToFirstDecision: timeToFirstDecision(r, decided.map((x) => ({ createdAt: num(x.created), firstDecisionAt: num(x.first_at) }))),
    reviewers: perReviewer(r, decisions.map((x) => ({ at: num(x.at), username: String(x.username), decision: String(x.decision), n: num(x.n) }))),
    overturn: overturnRates(verdicts.map((x): VerdictCount => ({ label: String(x.label), level: x.level as Level, verdict: String(x.verdict), hits: num(x.hits) })), categoryName),
  };
}

export type ReviewMetricsApi = ReturnType<typeof createReviewMetrics>;

/** What route handlers reach through the registry: the JSON figures and one series as CSV. */
export function createReviewMetrics(o: ReviewMetricsOptions) {
  return {
    get: (q: MetricsQuery) => reviewMetrics(o, q),
    csv: async (q: MetricsQuery, series: MetricSeries) => metricsCsv(await reviewMetrics(o, q), series),
  };
}
