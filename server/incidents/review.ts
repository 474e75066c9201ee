import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { BulkDecisionInput, DecisionInput, Incident, IncidentDetail, IncidentHit, IncidentQuery } from "../../lib/incidents";
import type { Db } from "../store/db";
import { users } from "../auth/schema";
import { incidentDecisions, incidentHits, incidents } from "../store/schema";
import { toDecision, withDecisions } from "./rows";

export interface ReviewDeps {
  db: Db;
  publish: (i: Incident) => void;
}

/** The filters of GET /api/incidents as SQL; `me` stands in for assignee "me". */
function where(q: IncidentQuery, me: string): SQL | undefined {
  const c: SQL[] = [];
  const status = q.status ?? "all";
  if (status !== "all") c.push(eq(incidents.status, status));
  if (q.riskLevel) c.push(eq(incidents.riskLevel, q.riskLevel));
  if (q.label) c.push(eq(incidents.label, q.label));
  if (q.kind) c.push(eq(incidents.sourceKind, q.kind));
  if (q.requestId) c.push(or(eq(incidents.requestId, q.requestId), eq(incidents.sourceRef, q.requestId))!);
  if (q.since) c.push(gte(incidents.updatedAt, new Date(q.since)));
  if (q.assignee === "none") c.push(isNull(incidents.assignee));
  else if (q.assignee) c.push(eq(incidents.assignee, q.assignee === "me" ? me : q.assignee));
  return c.length ? and(...c) : undefined;
}

const worstFirst = [desc(sql`CASE ${incidents.riskLevel} WHEN 'REJECT' THEN 2 ELSE 1 END`), desc(incidents.peakScore), desc(incidents.hits), desc(incidents.createdAt)];
// newest first; incidents created together (one file) in the order they happen in it
const newestFirst = [desc(incidents.createdAt), asc(incidents.startT), asc(incidents.id)];

export async function listIncidents(d: ReviewDeps, q: IncidentQuery, me: string): Promise<Incident[]> {
  const rows = await d.db
    .select()
    .from(incidents)
    .where(where(q, me))
    .orderBy(...(q.sort === "worst" ? worstFirst : newestFirst))
    .limit(q.limit ?? 500);
  return withDecisions(d.db, rows);
}

export async function getIncident(d: ReviewDeps, id: string): Promise<IncidentDetail | null> {
  const [row] = await d.db.select().from(incidents).where(eq(incidents.id, id)).limit(1);
  if (!row) return null;
  const [incident] = await withDecisions(d.db, [row]);
  const hits = await d.db.select({ hit: incidentHits.hit }).from(incidentHits).where(eq(incidentHits.incidentId, id)).orderBy(asc(incidentHits.t), asc(incidentHits.id));
  const decisions = await d.db.select().from(incidentDecisions).where(eq(incidentDecisions.incidentId, id)).orderBy(asc(incidentDecisions.at), asc(incidentDecisions.id));
  return { ...incident, hitList: hits.map((h) => h.hit as unknown as IncidentHit), decisions: decisions.map(toDecision) };
}

export async function publishIds(d: ReviewDeps, ids: string[]): Promise<Incident[]> {
  if (ids.length === 0) return [];
  const rows = await d.db.select().from(incidents).where(inArray(incidents.id, ids));
  const out = await withDecisions(d.db, rows);
  for (const i of out) d.publish(i);
  return out;
}

/** An incident another reviewer holds under a live claim (server/queues): not decided by anyone else. */
export interface HeldIncident {
  id: string;
  claimedBy: string;
  claimExpiresAt: string;
}
const notHeldByOther = (username: string) => or(isNull(incidents.claimedBy), eq(incidents.claimedBy, username), lt(incidents.claimExpiresAt, sql`now()`));

/**
 * Records a decision (who, when, note) on each existing incident and sets its state, ending its claim; unknown ids
 * are reported back, and so are incidents another reviewer holds claimed (left as they are).
 */
export async function decide(d: ReviewDeps, input: BulkDecisionInput, username: string): Promise<{ updated: Incident[]; missing: string[]; claimed: HeldIncident[] }> {
  const ids = [...new Set(input.ids)];
  const now = new Date();
  const found = await d.db.transaction(async (tx) => {
    const rows = await tx.update(incidents).set({ status: input.decision, updatedAt: now, claimedBy: null, claimExpiresAt: null }).where(and(inArray(incidents.id, ids), notHeldByOther(username))).returning({ id: incidents.id });
    if (rows.length) await tx.insert(incidentDecisions).values(rows.map((r) => ({ incidentId: r.id, decision: input.decision, note: input.note?.trim() || null, username, at: now })));
    return rows.map((r) => r.id);
  });
  const updated = await publishIds(d, found);
  const rest = ids.filter((id) => !found.includes(id));
  const held = rest.length ? await d.db.select({ id: incidents.id, claimedBy: incidents.claimedBy, claimExpiresAt: incidents.claimExpiresAt }).from(incidents).where(inArray(incidents.id, rest)) : [];
  const claimed = held.filter((h) => h.claimedBy && h.claimExpiresAt).map((h) => ({ id: h.id, claimedBy: h.claimedBy!, claimExpiresAt: h.claimExpiresAt!.toISOString() }));
  return { updated, missing: rest.filter((id) => !held.some((h) => h.id === id)), claimed };
}

export async function decideOne(d: ReviewDeps, id: string, input: DecisionInput, username: string): Promise<Incident | null> {
  return (await decide(d, { ...input, ids: [id] }, username)).updated[0] ?? null;
}

export type AssignAnswer = { ok: true; incident: Incident } | { ok: false; status: 404 | 422; error: string };

/** Sets the assignee (an existing, enabled account) or clears it (null). */
export async function assign(d: ReviewDeps, id: string, assignee: string | null): Promise<AssignAnswer> {
  if (assignee !== null) {
    const [u] = await d.db.select({ disabled: users.disabled }).from(users).where(eq(users.username, assignee)).limit(1);
    if (!u || u.disabled) return { ok: false, status: 422, error: `no active account named ${assignee}` };
  }
  const rows = await d.db.update(incidents).set({ assignee, updatedAt: new Date() }).where(eq(incidents.id, id)).returning({ id: incidents.id });
  if (rows.length === 0) return { ok: false, status: 404, error: "unknown incident" };
  const [incident] = await publishIds(d, [id]);
  return { ok: true, incident };
}
