import { and, eq, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { DEFAULT_QUEUE_ID, type IncidentQueueInfo, type QueueOrder } from "../../lib/queues";
import type { Db } from "../store/db";
import { incidents } from "../store/schema";
import { reviewQueues } from "./schema";

/**
 * Claims: an open incident held by one reviewer until claim_expires_at (a lease the page renews). Every change is one
 * atomic statement on the store, with the lease on the database's clock, so two reviewers on any dashboard nodes
 * never hold the same incident: a claim takes a row whose claim is free or expired, locked with FOR UPDATE SKIP
 * LOCKED (a concurrent claimer skips it and takes the next one).
 */

type Rows<T> = { rows: T[] };
/** a claim that has not lapsed, on the database's clock (the one every node's leases are written with) */
const liveClaim = sql<boolean>`(${incidents.claimedBy} IS NOT NULL AND ${incidents.claimExpiresAt} > now())`;
const lease = (sec: number) => sql`now() + make_interval(secs => ${sec})`;
/** incidents routed to the queue (never-routed ones count as the default queue's) */
const inQueue = (queueId: string): SQL => (queueId === DEFAULT_QUEUE_ID ? sql`(queue_id = ${queueId} OR queue_id IS NULL)` : sql`queue_id = ${queueId}`);
const orderOf = (o: QueueOrder): SQL => (o === "worst" ? sql`CASE risk_level WHEN 'REJECT' THEN 2 ELSE 1 END DESC, peak_score DESC, created_at ASC, id ASC` : sql`created_at ASC, start_t ASC, id ASC`);
const notIn = (ids: string[]): SQL => (ids.length ? sql`AND id NOT IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})` : sql``);

/**
 * The caller's next incident of a queue: their own live claim there first (renewed: one claim per reviewer and
 * queue, so a reload or a second tab resumes it), else the oldest or worst open unclaimed one, claimed for them.
 * `skip`: ids the caller passed over on this page. Null when nothing is left.
 */
export async function claimNext(db: Db, o: { queueId: string; order: QueueOrder; username: string; leaseSec: number; skip?: string[] }): Promise<string | null> {
  const skip = o.skip ?? [];
  const mine = (await db.execute(sql`
    WITH c AS (
      SELECT id FROM incidents WHERE ${inQueue(o.queueId)} AND status = 'open' AND claimed_by = ${o.username} AND claim_expires_at > now() ${notIn(skip)}
      ORDER BY claim_expires_at ASC LIMIT 1 FOR UPDATE
    )
    UPDATE incidents i SET claim_expires_at = ${lease(o.leaseSec)} FROM c WHERE i.id = c.id RETURNING i.id AS id`)) as unknown as Rows<{ id: string }>;
  if (mine.rows[0]) return mine.rows[0].id;
  const taken = (await db.execute(sql`
    WITH c AS (
      SELECT id FROM incidents WHERE ${inQueue(o.queueId)} AND status = 'open' AND (claimed_by IS NULL OR claim_expires_at < now()) ${notIn(skip)}
      ORDER BY ${orderOf(o.order)} LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    UPDATE incidents i SET claimed_by = ${o.username}, claim_expires_at = ${lease(o.leaseSec)} FROM c
    WHERE i.id = c.id AND i.status = 'open' AND (i.claimed_by IS NULL OR i.claim_expires_at < now())
    RETURNING i.id AS id`)) as unknown as Rows<{ id: string }>;
  return taken.rows[0]?.id ?? null;
}

export type ClaimAnswer = { ok: true; claimExpiresAt: string } | { ok: false; status: 404 | 409; error: string };

/**
 * Claims one incident for the caller, or renews the caller's claim on it. `renewOnly` (the page, while it shows the
 * incident): only a live claim of the caller's is extended, so a renewal that arrives after a Skip takes nothing back.
 */
export async function claimOne(db: Db, id: string, username: string, leaseSec: number, renewOnly = false): Promise<ClaimAnswer> {
  const free = renewOnly ? sql`claimed_by = ${username} AND claim_expires_at > now()` : sql`(claimed_by IS NULL OR claimed_by = ${username} OR claim_expires_at < now())`;
  const res = (await db.execute(sql`
    UPDATE incidents SET claimed_by = ${username}, claim_expires_at = ${lease(leaseSec)}
    WHERE id = ${id} AND status = 'open' AND ${free}
    RETURNING claim_expires_at AS "until"`)) as unknown as Rows<{ until: Date | string }>;
  if (res.rows[0]) return { ok: true, claimExpiresAt: new Date(res.rows[0].until).toISOString() };
  return refusal(db, id, renewOnly);
}

async function refusal(db: Db, id: string, renewOnly: boolean): Promise<{ ok: false; status: 404 | 409; error: string }> {
  const [row] = await db.select({ status: incidents.status, claimedBy: incidents.claimedBy, until: incidents.claimExpiresAt }).from(incidents).where(eq(incidents.id, id)).limit(1);
  if (!row) return { ok: false, status: 404, error: "unknown incident" };
  if (row.status !== "open") return { ok: false, status: 409, error: `incident ${id} is already decided (${row.status})` };
  if (renewOnly && (row.claimedBy === null || (row.until?.getTime() ?? 0) <= Date.now())) return { ok: false, status: 409, error: `your claim on incident ${id} lapsed or was released: it is back in its queue` };
  return { ok: false, status: 409, error: `incident ${id} is claimed by ${row.claimedBy} until ${row.until?.toISOString()}` };
}

export type ReleaseAnswer = { ok: true; released: boolean; claimedBy: string | null } | { ok: false; status: 404 | 409; error: string };

/** Gives a claim back to its queue: the holder's own, or anyone's when `anyHolder` (supervisors). Releasing nothing is fine. */
export async function release(db: Db, id: string, username: string, anyHolder: boolean): Promise<ReleaseAnswer> {
  const [row] = await db.select({ claimedBy: incidents.claimedBy, live: liveClaim }).from(incidents).where(eq(incidents.id, id)).limit(1);
  if (!row) return { ok: false, status: 404, error: "unknown incident" };
  if (row.live && row.claimedBy !== username && !anyHolder) return { ok: false, status: 409, error: `incident ${id} is claimed by ${row.claimedBy}: only they or a supervisor may release it` };
  if (!row.claimedBy) return { ok: true, released: false, claimedBy: null };
  const holder = row.claimedBy;
  // released only if still held by the one read above (a new claim in between stays)
  const done = await db.update(incidents).set({ claimedBy: null, claimExpiresAt: null }).where(and(eq(incidents.id, id), eq(incidents.claimedBy, holder))).returning({ id: incidents.id });
  return { ok: true, released: done.length > 0, claimedBy: holder };
}

/** Expired claims go back to their queue for good (they are free to claim already): counts and details say so. */
export async function expireClaims(db: Db): Promise<number> {
  const rows = await db
    .update(incidents)
    .set({ claimedBy: null, claimExpiresAt: null })
    .where(and(isNotNull(incidents.claimedBy), lt(incidents.claimExpiresAt, sql`now()`)))
    .returning({ id: incidents.id });
  return rows.length;
}

/** The queue an incident is in and its live claim (GET /api/incidents/<id>). */
export async function queueInfo(db: Db, id: string): Promise<IncidentQueueInfo> {
  const [row] = await db
    .select({ status: incidents.status, queueId: incidents.queueId, claimedBy: incidents.claimedBy, until: incidents.claimExpiresAt, live: liveClaim, name: reviewQueues.name })
    .from(incidents)
    .leftJoin(reviewQueues, eq(reviewQueues.id, sql`coalesce(${incidents.queueId}, CASE WHEN ${incidents.status} = 'open' THEN ${DEFAULT_QUEUE_ID} END)`))
    .where(eq(incidents.id, id))
    .limit(1);
  if (!row) return { queue: null, claimedBy: null, claimExpiresAt: null };
  const live = row.live === true && row.until !== null;
  return {
    queue: row.name !== null ? { id: row.queueId ?? DEFAULT_QUEUE_ID, name: row.name } : null,
    claimedBy: live ? row.claimedBy : null,
    claimExpiresAt: live ? row.until!.toISOString() : null,
  };
}
