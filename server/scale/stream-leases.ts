// Scaled mode (docs/deployment.md): live streams are held by the processes that take work, one holder per stream,
// through a lease in PostgreSQL that the holder renews every tick. A holder that dies stops renewing; once its lease
// has run out (STREAM_LEASE_SEC) another worker with room claims the stream and resumes it from its stored state
// (frame and segment numbers continue; what was called back is not sent again). A holder stopped gracefully hands its
// streams over without a gap: a worker with room starts pulling first (stream-handover.ts). Each worker declares its
// capacity and load in `stream_workers` (a heartbeat); the least loaded worker with room claims the next unheld
// stream, and one whose detectors are behind claims nothing.
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { noteLoopError } from "../store/unavailable";
import { streamWorkers, tasks, type TaskRow } from "../store/schema";
import type { EngineContext } from "../task/context";
import type { StreamRunner } from "../task/stream-runner";
import { StreamHandovers } from "./stream-handover";
import { livePeers } from "./stream-workers";

export interface LeaseOptions {
  /** this process's name in leases and the heartbeat table (unique per process) */
  owner: string;
  leaseSec: number;
  /** streams this process takes (STREAM_CAPACITY) */
  capacity: number;
  /** detection behind within this window → this worker claims no new stream (STREAM_ADMISSION_WINDOW_SEC) */
  behindWindowMs: number;
}

const LIVE_KINDS = ["videostream", "audiostream"] as const;
/** While it stands by for a handover, a worker looks this often whether the lease came (the holder waits on it). */
const STANDBY_TICK_MS = 200;
/** a shed stream still stopping after this long no longer holds back the next shed */
const SHED_STOP_WAIT_MS = 120_000;

export class StreamLeases {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  /** graceful stop under way: the ticks keep renewing what still drains here, and claim nothing */
  private stopping = false;
  private readonly tickMs: number;
  /** when this process claimed each stream it holds (the newest is shed first) */
  private readonly claimedAt = new Map<string, number>();
  private lastShed = 0;
  /** streams being stopped here (shed, or their lease lost): not released twice, not shed again */
  private readonly releasing = new Set<string>();
  /** when the stream being shed began stopping here (0: none); a stop that never ends blocks shedding only so long */
  private sheddingSince = 0;
  /** graceful handovers: the streams this process stands by for, and its own handed over when it stops */
  private readonly handovers: StreamHandovers;
  /** when the last full tick (renewals, heartbeat, claims) began: between them a standby only looks for its lease */
  private lastFullTick = 0;

  constructor(
    private readonly ctx: EngineContext,
    private readonly runner: StreamRunner,
    private readonly o: LeaseOptions,
  ) {
    this.tickMs = Math.min(1000, Math.floor((o.leaseSec * 1000) / 3));
    const { owner, leaseSec } = o;
    this.handovers = new StreamHandovers({ ctx, runner, owner, leaseSec, releasing: this.releasing, stopping: () => this.stopping, take: (row, from) => this.take(row, from, null, true) });
  }

  start(): void {
    this.ctx.log(`stream leases: ${this.o.owner} takes up to ${this.o.capacity} streams (lease ${this.o.leaseSec} s)`);
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick()
        .catch((err: Error) => noteLoopError("stream leases", err, (m) => this.ctx.log(m)))
        .finally(() => {
          this.ticking = null;
          this.schedule(this.handovers.standingBy ? STANDBY_TICK_MS : this.tickMs);
        });
    }, ms);
  }

  private get leaseEnd() {
    return sql`now() + make_interval(secs => ${this.o.leaseSec})`;
  }

  /** Renew what this process holds (and act on Closes asked elsewhere), announce the load, claim one stream if room. */
  private async tick(): Promise<void> {
    // standing by, the ticks come every STANDBY_TICK_MS; renewing and claiming keep their own pace
    if (this.handovers.standingBy && !this.stopping && Date.now() - this.lastFullTick < this.tickMs) return this.handovers.followStandbys();
    this.lastFullTick = Date.now();
    const db = this.ctx.store.db;
    const { owner } = this.o;
    const held = this.runner.ids();
    if (held.length) {
      const kept = await db
        .update(tasks)
        .set({ leaseUntil: this.leaseEnd })
        .where(and(inArray(tasks.requestId, held), eq(tasks.leaseOwner, owner), eq(tasks.status, "running")))
        .returning({ id: tasks.requestId, closeAsked: tasks.closeRequestedAt });
      const keptIds = new Set(kept.map((k) => k.id));
      for (const id of this.claimedAt.keys()) if (!held.includes(id)) this.claimedAt.delete(id);
      for (const id of held) {
        if (keptIds.has(id) || this.runner.isEnding(id) || this.releasing.has(id)) continue;
        // another process holds it now (this one was paused past its lease): stop pulling here, never twice
        this.ctx.log(`stream ${id}: lease lost, stopping here`);
        this.releasing.add(id);
        void this.runner
          .release(id, { drain: false })
          .then(() => this.ctx.log(`stream ${id}: stopped here; its holder has it`))
          .catch((err: Error) => this.ctx.log(`stream ${id}: stopping after the lease was lost failed: ${err.message}`))
          .finally(() => this.releasing.delete(id));
      }
      for (const k of kept) if (k.closeAsked && !this.runner.isEnding(k.id)) this.closeHere(k.id);
    }
    // stopping: the heartbeat row is gone (no one counts this process as room) and nothing new is claimed
    if (this.stopping || this.stopped) return;
    const behind = this.o.behindWindowMs > 0 ? this.runner.behind(this.o.behindWindowMs) : 0;
    // the database's clock, not this machine's: workers whose clocks differ still see each other alive
    const load = { capacity: this.o.capacity, held: this.runner.active, behind, heartbeatAt: sql`now()` };
    await db.insert(streamWorkers).values({ name: owner, ...load }).onConflictDoUpdate({ target: streamWorkers.name, set: load });
    if (this.stopping || this.stopped) {
      // stop() began while this tick wrote the heartbeat: take it back, no one is to count on this process
      await db.delete(streamWorkers).where(eq(streamWorkers.name, owner));
      return;
    }
    await this.handovers.followStandbys();
    const peers = await livePeers(this.ctx, this.o.leaseSec);
    if (behind > 0) {
      // at most one stream shed per lease period after the last one left, so the detectors get the time to catch up
      if (Date.now() - this.lastShed > Math.max(this.o.leaseSec * 1000, this.o.behindWindowMs)) await this.shed(peers);
      return;
    }
    if (this.o.capacity > 0 && this.runner.active + this.handovers.standingBy >= this.o.capacity) return;
    // the least loaded worker with room takes the next stream: spreads streams evenly
    if (peers.some((p) => p.name !== owner && p.behind === 0 && (p.capacity === 0 || p.held < p.capacity) && p.held < this.runner.active)) return;
    // a holder stopping gracefully waits on its offers: they come first
    if (await this.handovers.standBy()) return;
    // one stream per tick; the previous holder (if any) is read in the same statement for the handover note. A lease
    // that ran out is not taken within a lease period of a PostgreSQL (re)start: its holder could not renew during the
    // outage but may still be pulling; it renews on its next tick (issue #30: leases not stolen by a restart)
    const claimed = (await db.execute(sql`
      WITH c AS (
        SELECT request_id, lease_owner AS prev_owner, lease_until AS prev_until FROM tasks
        WHERE kind IN ('videostream', 'audiostream') AND status = 'running'
          AND (lease_until IS NULL OR (lease_until < now() AND now() > pg_postmaster_start_time() + make_interval(secs => ${this.o.leaseSec})))
        ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
      )
      UPDATE tasks t SET lease_owner = ${owner}, lease_until = ${this.leaseEnd} FROM c WHERE t.request_id = c.request_id
      RETURNING t.request_id AS id, c.prev_owner AS "prevOwner", c.prev_until AS "prevUntil"`)) as unknown as { rows: Array<{ id: string; prevOwner: string | null; prevUntil: Date | string | null }> };
    const got = claimed.rows[0];
    if (!got) return;
    const [row] = await db.select().from(tasks).where(eq(tasks.requestId, got.id));
    // its previous copy here is still stopping (lease lost, then handed back to this process): claimed later
    if (!row || this.stopping || this.stopped || this.runner.isRunning(got.id)) {
      // claimed while stopping: handed straight back
      await db.update(tasks).set({ leaseOwner: null, leaseUntil: null }).where(and(eq(tasks.requestId, got.id), eq(tasks.leaseOwner, owner)));
      return;
    }
    this.take(row, got.prevOwner, got.prevUntil ? new Date(got.prevUntil) : null);
  }

  private take(row: TaskRow, prevOwner: string | null, prevUntil: Date | null, bridged = false): void {
    const resumed = row.state && (row.state.nextFrameIndex > 1 || row.state.nextSegmentIndex > 1) ? " (resumed)" : "";
    this.ctx.log(`stream ${row.requestId}: taken by ${this.o.owner}${resumed}${prevOwner ? ` from ${prevOwner}` : ""}${bridged ? " (handed over, bridged)" : ""}`);
    if (row.closeRequestedAt) {
      void this.runner.dropStandby(row.requestId);
      this.closeHere(row.requestId);
      return;
    }
    this.claimedAt.set(row.requestId, Date.now());
    this.runner.start(row);
    if (bridged) {
      this.runner.noteHandover(row.requestId, `handed over by worker ${prevOwner ?? "?"} to worker ${this.o.owner}: the new holder pulled before the old one stopped, no frame slot missed`);
    } else if (prevOwner && !prevOwner.startsWith("close-")) {
      const gone = prevUntil ? ` (its lease ran out ${Math.max(0, Math.round((Date.now() - prevUntil.getTime()) / 1000))} s ago)` : " (it handed the stream back)";
      this.runner.noteHandover(row.requestId, `taken over by worker ${this.o.owner} from ${prevOwner}${gone}: frames in between were not pulled`);
    }
  }

  /** A worker whose detection is behind hands its newest stream to a worker with room instead of leaving frames unchecked. */
  private async shed(peers: ReadonlyArray<{ name: string; capacity: number; held: number; behind: number }>): Promise<void> {
    // one at a time: while a shed stream is still stopping here it counts as held, and the next newest is not shed
    if (this.runner.active < 2 || Date.now() - this.sheddingSince < SHED_STOP_WAIT_MS) return;
    const taker = peers.find((p) => p.name !== this.o.owner && p.behind === 0 && (p.capacity === 0 || p.held < p.capacity));
    const newest = [...this.claimedAt.entries()].filter(([id]) => this.runner.isRunning(id) && !this.runner.isEnding(id) && !this.releasing.has(id)).sort((a, b) => b[1] - a[1])[0]?.[0];
    if (!taker || !newest) return;
    this.ctx.log(`stream ${newest}: shed (detection behind on ${this.o.owner}; ${taker.name} has room)`);
    this.runner.noteHandover(newest, `handed back by worker ${this.o.owner}: its detection fell behind; a worker with room takes it`);
    this.claimedAt.delete(newest);
    // not awaited: stopping drains briefly, and the ticks must go on renewing (this stream's lease too, until it is
    // stopped here; only then is it offered to the others)
    this.releasing.add(newest);
    this.sheddingSince = Date.now();
    void this.runner
      .release(newest)
      .then(() => this.ctx.store.db.update(tasks).set({ leaseOwner: `shed-${this.o.owner}`, leaseUntil: null }).where(and(eq(tasks.requestId, newest), eq(tasks.leaseOwner, this.o.owner))))
      .catch((err: Error) => this.ctx.log(`stream ${newest}: shedding failed: ${err.message}`))
      .finally(() => {
        this.releasing.delete(newest);
        // the detectors' catch-up time counts from when the stream has left, not from when it was asked to
        [this.sheddingSince, this.lastShed] = [0, Date.now()];
      });
  }

  /** A Close asked elsewhere, acted on here: its failure is logged (the next holder ends it: closeRequestedAt stays). */
  private closeHere(id: string): void {
    void this.runner.close(id).catch((err: Error) => this.ctx.log(`stream ${id}: close failed: ${err.message}`));
  }

  /**
   * Graceful stop: leave the heartbeat table (no new stream is sent here), stop pulling (state saved) while the
   * ticks keep renewing the leases of what still drains, then hand every lease back so another worker resumes at once.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    const db = this.ctx.store.db;
    await db.delete(streamWorkers).where(eq(streamWorkers.name, this.o.owner)).catch(() => undefined);
    try {
      await this.handovers.dropStandbys("this worker stops");
      await this.handovers.handOver().catch((err: Error) => this.ctx.log(`stream leases: handover: ${err.message}`));
      await this.runner.stop();
    } finally {
      this.stopped = true;
      if (this.timer) clearTimeout(this.timer);
      await this.ticking;
      await db.update(tasks).set({ leaseOwner: null, leaseUntil: null }).where(and(eq(tasks.leaseOwner, this.o.owner), eq(tasks.status, "running"))).catch(() => undefined);
      await db.delete(streamWorkers).where(eq(streamWorkers.name, this.o.owner)).catch(() => undefined);
    }
  }
}

/** A stream whose end has begun (its reason stored: closed, ended, retries exhausted) no longer counts as running. */
const notEnding = sql`(${tasks.state}->>'endReason') IS NULL`;

/** Scaled mode, on the node that got the request: is the same stream already running anywhere (docs/api.md §1.4)? */
export async function runningDuplicate(ctx: EngineContext, kind: string, keyId: string, identity: string): Promise<string | null> {
  const [row] = await ctx.store.db
    .select({ id: tasks.requestId })
    .from(tasks)
    .where(and(eq(tasks.kind, kind as TaskRow["kind"]), eq(tasks.keyId, keyId), eq(tasks.identity, identity), eq(tasks.status, "running"), isNull(tasks.closeRequestedAt), notEnding))
    .limit(1);
  return row?.id ?? null;
}

/** Scaled mode: running streams of one key across every worker (a Close asked does not count). */
export async function runningCount(ctx: EngineContext, keyId: string): Promise<number> {
  const [row] = await ctx.store.db
    .select({ n: sql<number>`count(*)::int` })
    .from(tasks)
    .where(and(inArray(tasks.kind, [...LIVE_KINDS]), eq(tasks.keyId, keyId), eq(tasks.status, "running"), isNull(tasks.closeRequestedAt), notEnding));
  return row?.n ?? 0;
}

/**
 * Scaled mode: why a new stream cannot be taken now, or null. The room is what the live workers whose detection
 * keeps up have free (capacity 0: unlimited); streams waiting for a holder (accepted, or handed back) take it first.
 */
export async function clusterFull(ctx: EngineContext): Promise<string | null> {
  const live = await livePeers(ctx, ctx.config.scale.streamLeaseSec);
  if (live.length === 0) return "no worker is running (start `npm run worker`)";
  const keeping = live.filter((w) => w.behind === 0);
  if (keeping.some((w) => w.capacity === 0)) return null;
  const free = keeping.reduce((sum, w) => sum + Math.max(0, w.capacity - w.held), 0);
  const [{ n }] = await ctx.store.db
    .select({ n: sql<number>`count(*)::int` })
    .from(tasks)
    .where(and(inArray(tasks.kind, [...LIVE_KINDS]), eq(tasks.status, "running"), isNull(tasks.closeRequestedAt), or(isNull(tasks.leaseUntil), lt(tasks.leaseUntil, sql`now()`))));
  if (n < free) return null;
  const behind = live.length - keeping.length;
  const held = live.reduce((sum, w) => sum + w.held, 0);
  return `every worker is full: ${held} streams held and ${n} waiting for a worker, on ${live.length} worker(s) with ${free} free${behind ? ` (${behind} with detection behind take none)` : ""}`;
}

/**
 * Scaled mode, Close on a node that does not hold the stream: ask the holder (it sees the request within a tick and
 * stops the pull, drains, sends the stream-end); a stream nobody holds is ended here. Resolves once the end began.
 */
export async function closeElsewhere(ctx: EngineContext, runner: StreamRunner, requestId: string): Promise<void> {
  const db = ctx.store.db;
  await db.update(tasks).set({ closeRequestedAt: new Date() }).where(and(eq(tasks.requestId, requestId), eq(tasks.status, "running")));
  const me = `close-${process.pid}`;
  // a stream nobody holds (or whose holder died: its lease ran out) is ended here, with its stream-end
  const grab = async () =>
    (
      await db
        .update(tasks)
        .set({ leaseOwner: me, leaseUntil: sql`now() + interval '60 seconds'` })
        .where(and(eq(tasks.requestId, requestId), eq(tasks.status, "running"), or(isNull(tasks.leaseUntil), lt(tasks.leaseUntil, sql`now()`))))
        .returning({ id: tasks.requestId })
    ).length > 0;
  if (await grab()) return runner.close(requestId);
  const deadline = Date.now() + ctx.config.scale.streamLeaseSec * 1000 + 2000;
  while (Date.now() < deadline) {
    const [row] = await db.select({ status: tasks.status, state: tasks.state }).from(tasks).where(eq(tasks.requestId, requestId));
    if (!row || row.status !== "running" || row.state?.endReason) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  // the holder did not answer within its lease: it is gone; end it here (else the next worker to claim it does: closeRequestedAt)
  if (await grab()) return runner.close(requestId);
}
