import crypto from "node:crypto";
import { and, asc, eq, gt, gte, sql } from "drizzle-orm";
import type { IncidentHit } from "../../lib/incidents";
import type { BacktestJob, BacktestResult, BacktestSource, RuleHit, RuleInput } from "../../lib/rules";
import type { Db } from "../store/db";
import { incidentHits, incidents } from "../store/schema";
import { describeAction } from "./actions";
import { hitMatches, sourceMatches, windowFires } from "./match";
import { sourceInfo } from "./source";

/** Bounded work: at most this many stored hits are read per backtest (the answer says when it stopped there). */
export const BACKTEST_MAX_HITS = 200_000;
const PAGE = 2000;

const toRuleHit = (media: string, itemId: string, label: string, h: IncidentHit): RuleHit => {
  const lists = new Set<string>();
  for (const w of h.evidence?.words ?? []) if (w.list) lists.add(w.list);
  if (h.evidence?.hashMatch?.list) lists.add(h.evidence.hashMatch.list);
  if (h.evidence?.track?.list) lists.add(h.evidence.track.list);
  return { itemId: `${media}:${itemId}`, t: h.t, label, level: h.riskLevel === "REJECT" ? "REJECT" : "REVIEW", score: h.score, lists: [...lists], mediaUrl: h.mediaUrl };
};

/** Replays a rule over the stored hits of incidents opened since `since`, page by page (cancellable between pages). */
export async function runBacktest(db: Db, rule: RuleInput, since: Date, job: BacktestJob): Promise<BacktestResult> {
  const bySource = new Map<string, { kind: "stream" | "file"; hits: RuleHit[] }>();
  let lastId = 0;
  let read = 0;
  let truncated = false;
  for (;;) {
    if (job.state === "cancelled") break;
    const rows = await db
      .select({ id: incidentHits.id, requestId: incidentHits.requestId, media: incidentHits.media, label: incidentHits.label, itemId: incidentHits.itemId, hit: incidentHits.hit, kind: incidents.sourceKind })
      .from(incidentHits)
      .innerJoin(incidents, eq(incidents.id, incidentHits.incidentId))
      .where(and(gte(incidents.createdAt, since), gt(incidentHits.id, lastId)))
      .orderBy(asc(incidentHits.id))
      .limit(PAGE);
    for (const r of rows) {
      const h = toRuleHit(r.media, r.itemId, r.label, r.hit as unknown as IncidentHit);
      if (!hitMatches(rule.when, h)) continue;
      const s = bySource.get(r.requestId) ?? { kind: r.kind, hits: [] };
      s.hits.push(h);
      bySource.set(r.requestId, s);
    }
    read += rows.length;
    job.progress.hitsRead = read;
    if (rows.length < PAGE) break;
    lastId = rows[rows.length - 1].id;
    if (read >= BACKTEST_MAX_HITS) {
      truncated = true;
      break;
    }
  }
  const sources: BacktestSource[] = [];
  for (const [requestId, s] of bySource) {
    const info = await sourceInfo(db, s.kind, requestId);
    if (!sourceMatches(rule.when, info)) continue;
    const fires = rule.when.incident ? incidentFires(rule, s.hits) : windowFires(s.hits.map((h) => h.t), rule.when.count, rule.when.withinSec);
    if (fires.length === 0) continue;
    const states = await db.select({ status: incidents.status }).from(incidents).where(eq(incidents.requestId, requestId));
    const count = (st: string) => states.filter((x) => x.status === st).length;
    sources.push({
      requestId, kind: s.kind, title: info.title, firstAt: fires[0], fires: fires.length,
      actions: rule.then.map(describeAction).filter((a) => s.kind === "stream" || a !== "close the stream"),
      hits: s.hits.sort((a, b) => a.t - b.t).slice(0, 10),
      decisions: { confirmed: count("confirmed"), cleared: count("cleared"), escalated: count("escalated"), open: count("open") },
    });
  }
  sources.sort((a, b) => a.firstAt - b.firstAt);
  const wouldClose = rule.then.some((a) => a.action === "close") ? sources.filter((s) => s.kind === "stream").length : 0;
  return {
    since: since.toISOString(), hitsRead: read, truncated, sources,
    summary: {
      sources: sources.length, wouldClose,
      confirmedViolations: sources.filter((s) => s.decisions.confirmed > 0).length,
      cleared: sources.filter((s) => s.decisions.confirmed === 0 && s.decisions.cleared > 0).length,
      undecided: sources.filter((s) => s.decisions.confirmed + s.decisions.cleared + s.decisions.escalated === 0).length,
    },
  };
}

/** Incident conditions replayed: by category, the moment the Nth matching hit arrived (and the level when asked). */
function incidentFires(rule: RuleInput, hits: RuleHit[]): number[] {
  const cond = rule.when.incident!;
  const fires: number[] = [];
  for (const label of new Set(hits.map((h) => h.label))) {
    const own = hits.filter((h) => h.label === label).sort((a, b) => a.t - b.t);
    const at = own.findIndex((h, i) => i + 1 >= (cond.minHits ?? 1) && (cond.level !== "REJECT" || own.slice(0, i + 1).some((x) => x.level === "REJECT")));
    if (at >= 0) fires.push(own[at].t);
  }
  return fires.sort((a, b) => a - b);
}

/** Backtests running in this process: one per user at a time; kept 10 minutes after they end. */
export function createBacktests(db: Db) {
  const jobs = new Map<string, BacktestJob & { owner: string; endedAt?: number }>();
  const sweep = () => {
    for (const [id, j] of jobs) if (j.endedAt && Date.now() - j.endedAt > 10 * 60_000) jobs.delete(id);
  };
  return {
    start(owner: string, rule: RuleInput, since: Date): BacktestJob | { error: string } {
      sweep();
      if ([...jobs.values()].some((j) => j.owner === owner && j.state === "running")) return { error: "a backtest of yours is still running: wait for it or cancel it" };
      const job: BacktestJob & { owner: string; endedAt?: number } = { id: crypto.randomBytes(8).toString("hex"), state: "running", progress: { hitsRead: 0, of: null }, owner };
      jobs.set(job.id, job);
      void db.select({ n: sql<number>`count(*)` }).from(incidentHits).innerJoin(incidents, eq(incidents.id, incidentHits.incidentId)).where(gte(incidents.createdAt, since)).then(([r]) => (job.progress.of = Math.min(Number(r.n), BACKTEST_MAX_HITS))).catch(() => undefined);
      runBacktest(db, rule, since, job)
        .then((result) => {
          if (job.state === "running") Object.assign(job, { state: "done", result });
        })
        .catch((err: Error) => Object.assign(job, { state: "failed", error: err.message }))
        .finally(() => (job.endedAt = Date.now()));
      return job;
    },
    get: (id: string, owner: string) => {
      const j = jobs.get(id);
      return j && j.owner === owner ? j : null;
    },
    cancel(id: string, owner: string): boolean {
      const j = jobs.get(id);
      if (!j || j.owner !== owner || j.state !== "running") return false;
      j.state = "cancelled";
      return true;
    },
  };
}
export type Backtests = ReturnType<typeof createBacktests>;
