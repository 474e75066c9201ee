// Scaled mode, graceful handover without a gap (README "Deployment"). A holder stopping gracefully offers each stream
// it pulls; a worker with room claims the offer and opens a bridge pull of the same stream (server/task/stream-bridge.ts)
// and says when that pull captures. Only then does the holder stop its pull, drain what it captured, save the state
// (with the capture time of its last frame) and pass the lease straight to that worker, whose task takes the bridge's
// frames captured after the holder's last one: no cadence slot is missed, no number repeats. Nobody claims the offer
// within OFFER_WAIT_MS (no worker with room) → the stream is handed back as before (the next worker to claim it
// reconnects).
import { and, eq, inArray, sql } from "drizzle-orm";
import { streamHandovers, tasks } from "../store/schema";
import type { EngineContext } from "../task/context";

/** How long a holder waits for some worker to claim its offer, then for the claimer's bridge to capture. */
export const OFFER_WAIT_MS = 3000;
export const READY_WAIT_MS = 8000;
/** Offers older than this are stale (their holder died mid-handover): nobody claims them. */
const OFFER_STALE_SEC = 60;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The holder offers these streams (an earlier offer of the same stream is replaced). */
export async function offerHandovers(ctx: EngineContext, owner: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await ctx.store.db
    .insert(streamHandovers)
    .values(ids.map((requestId) => ({ requestId, fromOwner: owner, createdAt: sql`now()` as unknown as Date })))
    .onConflictDoUpdate({ target: streamHandovers.requestId, set: { fromOwner: owner, toOwner: null, readyAt: null, createdAt: sql`now()` } });
}

/**
 * The holder waits for a successor: the worker that claimed the offer once its bridge captures (or when the wait
 * runs out while it still connects); null when nobody claimed it.
 */
export async function awaitSuccessor(ctx: EngineContext, owner: string, id: string): Promise<{ to: string; ready: boolean } | null> {
  const start = Date.now();
  for (;;) {
    const [row] = await ctx.store.db
      .select({ to: streamHandovers.toOwner, readyAt: streamHandovers.readyAt })
      .from(streamHandovers)
      .where(and(eq(streamHandovers.requestId, id), eq(streamHandovers.fromOwner, owner)));
    const waited = Date.now() - start;
    if (!row) return null;
    if (row.to && row.readyAt) return { to: row.to, ready: true };
    if (!row.to && waited >= OFFER_WAIT_MS) return null;
    if (row.to && waited >= READY_WAIT_MS) return { to: row.to, ready: false };
    await sleep(POLL_MS);
  }
}

/**
 * After the holder stopped pulling and saved: the lease goes to the successor (held for a lease period, which it
 * then renews), or back to nobody. Fenced: only a holder that still has the lease passes it.
 */
export async function passLease(ctx: EngineContext, owner: string, id: string, to: string | null, leaseSec: number): Promise<boolean> {
  const db = ctx.store.db;
  const passed = await db
    .update(tasks)
    .set(to ? { leaseOwner: to, leaseUntil: sql`now() + make_interval(secs => ${leaseSec})` } : { leaseOwner: null, leaseUntil: null })
    .where(and(eq(tasks.requestId, id), eq(tasks.leaseOwner, owner), eq(tasks.status, "running")))
    .returning({ id: tasks.requestId });
  await db.delete(streamHandovers).where(and(eq(streamHandovers.requestId, id), eq(streamHandovers.fromOwner, owner)));
  return passed.length > 0;
}

/** A worker with room claims the oldest open offer of another holder; returns it, or null. */
export async function claimOffer(ctx: EngineContext, owner: string): Promise<{ id: string; from: string } | null> {
  const res = (await ctx.store.db.execute(sql`
    WITH c AS (
      SELECT request_id FROM stream_handovers
      WHERE to_owner IS NULL AND from_owner <> ${owner} AND created_at > now() - make_interval(secs => ${OFFER_STALE_SEC})
      ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    UPDATE stream_handovers h SET to_owner = ${owner} FROM c WHERE h.request_id = c.request_id
    RETURNING h.request_id AS id, h.from_owner AS "from"`)) as unknown as { rows: Array<{ id: string; from: string }> };
  return res.rows[0] ?? null;
}

/** The claimer's bridge captures: the holder may stop pulling now. */
export async function markReady(ctx: EngineContext, owner: string, id: string): Promise<void> {
  await ctx.store.db.update(streamHandovers).set({ readyAt: sql`now()` }).where(and(eq(streamHandovers.requestId, id), eq(streamHandovers.toOwner, owner)));
}

/** The claimer gives up standing by (its bridge stopped, or it is stopping): the offer is open again. */
export async function withdrawClaim(ctx: EngineContext, owner: string, id: string): Promise<void> {
  await ctx.store.db.update(streamHandovers).set({ toOwner: null, readyAt: null }).where(and(eq(streamHandovers.requestId, id), eq(streamHandovers.toOwner, owner)));
}

/** For the streams a worker stands by for: who holds each now, whether it still runs, and whom its offer names. */
export async function standbyStates(ctx: EngineContext, ids: string[]): Promise<Map<string, { leaseOwner: string | null; running: boolean; offeredTo: string | null }>> {
  const out = new Map<string, { leaseOwner: string | null; running: boolean; offeredTo: string | null }>();
  if (!ids.length) return out;
  const rows = await ctx.store.db
    .select({ id: tasks.requestId, leaseOwner: tasks.leaseOwner, status: tasks.status, endReason: sql<string | null>`${tasks.state}->>'endReason'`, offeredTo: streamHandovers.toOwner })
    .from(tasks)
    .leftJoin(streamHandovers, eq(streamHandovers.requestId, tasks.requestId))
    .where(inArray(tasks.requestId, ids));
  for (const r of rows) out.set(r.id, { leaseOwner: r.leaseOwner, running: r.status === "running" && !r.endReason, offeredTo: r.offeredTo });
  return out;
}
