import { and, asc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { DEFAULT_QUEUE_ID, globMatch, type QueueRule } from "../../lib/queues";
import type { Db } from "../store/db";
import { dashboardStreams, incidents, tasks } from "../store/schema";
import { reviewQueues, type QueueRow } from "./schema";

/** What a rule is matched against: the incident's own columns and the facts of its source kept with it. */
export interface RouteFacts {
  label: string;
  level: "REVIEW" | "REJECT";
  kind: "stream" | "file";
  title: string | null;
  appId: string | null;
  eventId: string | null;
  tokenId: string | null;
  lists: string[];
  /** a live rule's "queue" action put the incident in this queue (server/rules): routing keeps it there while that queue exists */
  pinned?: string;
}
export type StoredFacts = NonNullable<(typeof incidents.$inferSelect)["routeFacts"]>;

const anyOf = <T>(allowed: readonly T[] | undefined, v: T | null) => !allowed || allowed.length === 0 || (v !== null && allowed.includes(v));
const pattern = (p: string | undefined, v: string | null) => !p || (v !== null && globMatch(p, v));
const sameText = (allowed: readonly string[] | undefined, v: string | null) => anyOf(allowed?.map((a) => a.toLowerCase()), v?.toLowerCase() ?? null);

/** All given fields must match (a list field: any of its values); an empty rule matches everything. */
export function ruleMatches(rule: QueueRule, f: RouteFacts): boolean {
  return (
    anyOf(rule.labels, f.label) &&
    anyOf(rule.levels, f.level) &&
    anyOf(rule.kinds, f.kind) &&
    sameText(rule.appIds, f.appId) &&
    sameText(rule.eventIds, f.eventId) &&
    pattern(rule.titlePattern, f.title) &&
    pattern(rule.tokenIdPattern, f.tokenId) &&
    (!rule.lists || rule.lists.length === 0 || rule.lists.some((l) => f.lists.some((x) => x.toLowerCase() === l.toLowerCase())))
  );
}

/** Queues in routing order: by position, the default one last. */
export const routingOrder = (qs: QueueRow[]) => [...qs].sort((a, b) => Number(a.isDefault) - Number(b.isDefault) || a.position - b.position || a.createdAt.getTime() - b.createdAt.getTime());

/** The first queue (in routing order) whose rule matches; the default queue's rule is never read: it takes the rest. */
export function pickQueue(ordered: QueueRow[], f: RouteFacts): string {
  if (f.pinned && ordered.some((q) => q.id === f.pinned)) return f.pinned;
  return ordered.find((q) => !q.isDefault && ruleMatches(q.rule, f))?.id ?? DEFAULT_QUEUE_ID;
}

export const loadQueues = async (db: Db) => routingOrder(await db.select().from(reviewQueues));

type Row = Pick<typeof incidents.$inferSelect, "id" | "requestId" | "sourceKind" | "label" | "riskLevel" | "title" | "routeFacts">;
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

/** appId, eventId and tokenId of each source: its task (the embedded service), else the dashboard's own submission's. */
async function sourceFacts(db: Db, rows: Row[]): Promise<Map<string, Omit<StoredFacts, "lists">>> {
  const ids = [...new Set(rows.map((r) => r.requestId))];
  const out = new Map<string, Omit<StoredFacts, "lists">>();
  if (ids.length === 0) return out;
  const found = await db.select({ id: tasks.requestId, appId: tasks.appId, eventId: tasks.eventId, request: tasks.request }).from(tasks).where(inArray(tasks.requestId, ids));
  for (const t of found) {
    const data = (t.request as { data?: Record<string, unknown> }).data ?? {};
    out.set(t.id, { appId: t.appId, eventId: t.eventId, tokenId: str(data.tokenId) });
  }
  // a remote service's tasks are not in this store: the dashboard submits them itself, always as appId "default"
  const missing = rows.filter((r) => !out.has(r.requestId));
  if (missing.length === 0) return out;
  const streams = await db.select({ id: dashboardStreams.requestId, kind: dashboardStreams.kind }).from(dashboardStreams).where(inArray(dashboardStreams.requestId, [...new Set(missing.map((r) => r.requestId))]));
  const streamKind = new Map(streams.map((s) => [s.id, s.kind]));
  for (const r of missing) {
    const kind = streamKind.get(r.requestId);
    if (r.sourceKind === "file") out.set(r.requestId, { appId: "default", eventId: "video", tokenId: "dashboard" });
    else if (kind) out.set(r.requestId, { appId: "default", eventId: kind === "audio" ? "AUDIOSTREAM" : "VIDEOSTREAM", tokenId: "dashboard" });
  }
  return out;
}

/** The list names among the evidence of every hit of each incident (keyword lists, matched track, matched image). */
async function listNames(db: Db, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const res = (await db.execute(sql`
    SELECT DISTINCT h.incident_id AS id, l.name AS name FROM incident_hits h
    CROSS JOIN LATERAL (
      SELECT w->>'list' AS name FROM jsonb_array_elements(CASE WHEN jsonb_typeof(h.hit->'evidence'->'words') = 'array' THEN h.hit->'evidence'->'words' ELSE '[]'::jsonb END) w
      UNION ALL SELECT h.hit->'evidence'->'track'->>'list'
      UNION ALL SELECT h.hit->'evidence'->'hashMatch'->>'list'
    ) l
    WHERE h.incident_id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)}) AND l.name IS NOT NULL AND l.name <> ''`)) as unknown as { rows: Array<{ id: string; name: string }> };
  for (const r of res.rows) out.set(r.id, [...(out.get(r.id) ?? []), r.name]);
  return out;
}

const factsOf = (r: Row, stored: StoredFacts): RouteFacts => ({ label: r.label, level: r.riskLevel, kind: r.sourceKind, title: r.title, ...stored });

/** Claim free (none, or expired): only such incidents move between queues. */
export const unclaimed = (): SQL => or(isNull(incidents.claimedBy), lt(incidents.claimExpiresAt, sql`now()`))!;

/** Sets queue_id of many incidents at once, one statement per target queue (claimed ones keep theirs). */
async function moveAll(db: Db, targets: Map<string, string>, onlyUnclaimed: boolean): Promise<number> {
  const byQueue = new Map<string, string[]>();
  for (const [id, q] of targets) byQueue.set(q, [...(byQueue.get(q) ?? []), id]);
  let moved = 0;
  for (const [q, ids] of byQueue) {
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = await db
        .update(incidents)
        .set({ queueId: q })
        .where(and(inArray(incidents.id, chunk), eq(incidents.status, "open"), sql`${incidents.queueId} IS DISTINCT FROM ${q}`, onlyUnclaimed ? unclaimed() : undefined))
        .returning({ id: incidents.id });
      moved += rows.length;
    }
  }
  return moved;
}

/**
 * Created or extended incidents: their source facts and list names are (re)read and kept with them, and each open,
 * unclaimed one goes to the first queue whose rule matches (its level or lists may have changed with a new hit).
 */
export async function routeIncidents(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db
    .select({ id: incidents.id, requestId: incidents.requestId, sourceKind: incidents.sourceKind, label: incidents.label, riskLevel: incidents.riskLevel, title: incidents.title, routeFacts: incidents.routeFacts })
    .from(incidents)
    .where(and(inArray(incidents.id, ids), eq(incidents.status, "open")));
  if (rows.length === 0) return;
  const [queues, sources, lists] = await Promise.all([loadQueues(db), sourceFacts(db, rows.filter((r) => !r.routeFacts)), listNames(db, rows.map((r) => r.id))]);
  const targets = new Map<string, string>();
  for (const r of rows) {
    const src = r.routeFacts ?? sources.get(r.requestId) ?? { appId: null, eventId: null, tokenId: null };
    const stored: StoredFacts = { appId: src.appId, eventId: src.eventId, tokenId: src.tokenId, lists: (lists.get(r.id) ?? []).sort(), ...(r.routeFacts?.pinned ? { pinned: r.routeFacts.pinned } : {}) };
    if (JSON.stringify(stored) !== JSON.stringify(r.routeFacts)) await db.update(incidents).set({ routeFacts: stored }).where(eq(incidents.id, r.id));
    targets.set(r.id, pickQueue(queues, factsOf(r, stored)));
  }
  await moveAll(db, targets, true);
}

/**
 * Queues changed: every open incident is routed again by the new rules (claimed ones stay where they are, unless
 * their queue is gone). Incidents never routed (no facts yet) are routed in full first. Returns how many moved.
 */
export async function rerouteOpen(db: Db): Promise<number> {
  const fresh = await db.select({ id: incidents.id }).from(incidents).where(and(eq(incidents.status, "open"), isNull(incidents.routeFacts)));
  for (let i = 0; i < fresh.length; i += 500) await routeIncidents(db, fresh.slice(i, i + 500).map((r) => r.id));
  const queues = await loadQueues(db);
  const known = new Set(queues.map((q) => q.id));
  const rows = await db
    .select({ id: incidents.id, requestId: incidents.requestId, sourceKind: incidents.sourceKind, label: incidents.label, riskLevel: incidents.riskLevel, title: incidents.title, routeFacts: incidents.routeFacts, queueId: incidents.queueId, claimedBy: incidents.claimedBy, claimExpiresAt: incidents.claimExpiresAt })
    .from(incidents)
    .where(eq(incidents.status, "open"))
    .orderBy(asc(incidents.createdAt));
  const free = new Map<string, string>();
  const orphaned = new Map<string, string>();
  const now = Date.now();
  for (const r of rows) {
    const target = pickQueue(queues, factsOf(r, r.routeFacts ?? { appId: null, eventId: null, tokenId: null, lists: [] }));
    if (target === r.queueId) continue;
    const held = r.claimedBy !== null && (r.claimExpiresAt?.getTime() ?? 0) > now;
    if (!held) free.set(r.id, target);
    else if (!r.queueId || !known.has(r.queueId)) orphaned.set(r.id, target);
  }
  return (await moveAll(db, free, true)) + (await moveAll(db, orphaned, false));
}

/**
 * A rule's "queue" action: the open incident goes to the queue named `name` (case-insensitive) and stays there through
 * later routing (unless that queue is deleted). A claimed incident keeps its claim and moves when it is released.
 */
export async function pinToQueue(db: Db, incidentId: string, name: string): Promise<{ ok: boolean; error?: string }> {
  const queue = (await loadQueues(db)).find((q) => q.name.toLowerCase() === name.toLowerCase() || q.id === name);
  if (!queue) return { ok: false, error: `no queue named "${name}"` };
  const [row] = await db.select({ routeFacts: incidents.routeFacts }).from(incidents).where(eq(incidents.id, incidentId)).limit(1);
  if (!row) return { ok: false, error: "unknown incident" };
  const facts = { ...(row.routeFacts ?? { appId: null, eventId: null, tokenId: null, lists: [] }), pinned: queue.id };
  await db.update(incidents).set({ routeFacts: facts }).where(eq(incidents.id, incidentId));
  await moveAll(db, new Map([[incidentId, queue.id]]), true);
  return { ok: true };
}
