// Scaled mode, graceful handover without a gap (docs/deployment.md). A holder stopping gracefully offers each stream
// it pulls; a worker with room claims the offer and opens a bridge pull of the same stream
// (server/task/stream-bridge.ts) and says when that pull captures. Only then does the holder stop its pull, drain what
// it captured, save the state (with the capture time of its last frame) and pass the lease straight to that worker,
// whose task takes the bridge's frames captured after the holder's last one (server/task/stream-adopt.ts): no cadence
// slot is missed, no number repeats. Nobody claims the offer within OFFER_WAIT_MS (no worker with room) → the stream is
// handed back as before (the next worker to claim it reconnects).
import { and, eq, inArray, sql } from "drizzle-orm";
import { streamHandovers, tasks, type TaskRow } from "../store/schema";
import type { EngineContext } from "../task/context";
import type { StreamRunner } from "../task/stream-runner";
import { livePeers } from "./stream-workers";

/** How long a holder waits for some worker to claim its offer, then for the claimer's bridge to capture. */
export const OFFER_WAIT_MS = 3000;
export const READY_WAIT_MS = 8000;
/** Offers older than this are stale (their holder died mid-handover): nobody claims them. */
const OFFER_STALE_SEC = 60;
const POLL_MS = 100;
/** A standby whose handover did not come within this is dropped. */
const STANDBY_MAX_MS = 30_000;

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

export interface HandoverOptions {
  ctx: EngineContext;
  runner: StreamRunner;
  /** this process's name in leases and offers */
  owner: string;
  leaseSec: number;
  /** streams being stopped here (shed, or their lease lost): not offered, not released twice */
  releasing: Set<string>;
  /** a graceful stop of this worker is under way: it stands by for nothing new */
  stopping(): boolean;
  /** the lease of a stream stood by for came here: its task starts, adopting the bridge */
  take(row: TaskRow, from: string): void;
}

/** One worker's side of graceful handovers: the streams it stands by for, and handing its own over when it stops. */
export class StreamHandovers {
  /** streams this process stands by for (a bridge pull runs), since when */
  private readonly standbySince = new Map<string, { at: number; from: string }>();

  constructor(private readonly o: HandoverOptions) {}

  /** How many streams this process stands by for. */
  get standingBy(): number {
    return this.standbySince.size;
  }

  /** Claims one stream a holder stopping gracefully offers, and starts its bridge pull; returns whether it did. */
  async standBy(): Promise<boolean> {
    const { ctx, owner } = this.o;
    const offer = await claimOffer(ctx, owner);
    if (!offer) return false;
    const [row] = await ctx.store.db.select().from(tasks).where(eq(tasks.requestId, offer.id));
    const bridge = row && row.status === "running" && !this.o.stopping() ? this.o.runner.standby(row, owner) : null;
    if (!bridge) {
      await withdrawClaim(ctx, owner, offer.id);
      return false;
    }
    this.standbySince.set(offer.id, { at: Date.now(), from: offer.from });
    ctx.log(`stream ${offer.id}: ${owner} stands by to take it over from ${offer.from} (bridge pull started)`);
    void bridge.ready
      .then((ok) => (ok ? markReady(ctx, owner, offer.id) : this.dropStandby(offer.id, "its bridge pull ended before capturing")))
      .catch((err: Error) => ctx.log(`stream ${offer.id}: standby: ${err.message}`));
    return true;
  }

  /** Each stream stood by for: the lease came → taken with the bridge; the offer went elsewhere or the stream ended → dropped. */
  async followStandbys(): Promise<void> {
    const { ctx, runner, owner } = this.o;
    const ids = [...this.standbySince.keys()];
    if (!ids.length) return;
    const states = await standbyStates(ctx, ids);
    for (const id of ids) {
      const st = states.get(id);
      const since = this.standbySince.get(id)!;
      if (runner.isRunning(id)) this.standbySince.delete(id); // claimed the ordinary way meanwhile (its holder died): the bridge went with it
      else if (st?.running && st.leaseOwner === owner) {
        this.standbySince.delete(id);
        const [row] = await ctx.store.db.select().from(tasks).where(eq(tasks.requestId, id));
        if (row) this.o.take(row, since.from);
        else await runner.dropStandby(id);
      } else if (!st?.running || st.offeredTo !== owner) await this.dropStandby(id, "the handover did not come here");
      else if (Date.now() - since.at > STANDBY_MAX_MS) await this.dropStandby(id, "the handover took too long");
    }
  }

  /** Stops standing by for every stream, one after another. */
  async dropStandbys(why: string): Promise<void> {
    for (const id of [...this.standbySince.keys()]) await this.dropStandby(id, why);
  }

  private async dropStandby(id: string, why: string): Promise<void> {
    if (!this.standbySince.delete(id)) return;
    this.o.ctx.log(`stream ${id}: ${this.o.owner} stops standing by: ${why}`);
    await withdrawClaim(this.o.ctx, this.o.owner, id).catch(() => undefined);
    await this.o.runner.dropStandby(id);
  }

  /**
   * Graceful stop, first step: each stream pulled here is offered to the workers with room; the one that claims it
   * pulls it too, and once that pull captures this one stops, drains, saves and passes it the lease. Streams nobody
   * claims are handed back by the rest of the stop.
   */
  async handOver(): Promise<void> {
    const { ctx, runner, owner, leaseSec, releasing } = this.o;
    const ids = runner.ids().filter((id) => !runner.isEnding(id) && !releasing.has(id));
    if (!ids.length) return;
    const peers = (await livePeers(ctx, leaseSec)).filter((p) => p.name !== owner && p.behind === 0 && (p.capacity === 0 || p.held < p.capacity));
    if (!peers.length) return;
    await offerHandovers(ctx, owner, ids);
    await Promise.all(
      ids.map(async (id) => {
        const next = await awaitSuccessor(ctx, owner, id).catch(() => null);
        if (next) {
          releasing.add(id);
          await runner.release(id);
        }
        const passed = await passLease(ctx, owner, id, next?.to ?? null, leaseSec).finally(() => releasing.delete(id));
        if (next) ctx.log(`stream ${id}: ${passed ? `handed over to ${next.to}${next.ready ? " (its pull captures)" : " (its pull still connecting)"}` : "ended or taken meanwhile"}`);
      }),
    );
  }
}
