import { and, eq, inArray } from "drizzle-orm";
import { tasks, type TaskRow } from "../store/schema";
import type { EngineContext } from "./context";
import { StreamTask, type StreamHealth } from "./stream-task";
import { StreamBridge } from "./stream-bridge";
import { healthSink, type HealthListener } from "../health/sink";
import { streamHealthReport } from "../health/report";
import type { StreamHealthReport } from "../../lib/stream-health";

/** Final counters of ended tasks kept for health(): the newest this many. */
const ENDED_HEALTH_KEPT = 500;

/** Owns the running live tasks of this process; the store says which ones must run after a restart. */
export class StreamRunner {
  private readonly running = new Map<string, { task: StreamTask; keyId: string; kind: string; identity: string | null }>();
  private readonly ended = new Map<string, StreamHealth>();
  /** scaled mode: bridge pulls of streams about to be handed over to this process (stream-bridge.ts) */
  private readonly standbys = new Map<string, StreamBridge>();
  private stopped = false;
  private readonly healthListeners = new Set<HealthListener>();
  private readonly healthOut: ReturnType<typeof healthSink>;

  constructor(private readonly ctx: EngineContext) {
    this.healthOut = healthSink(ctx.store.db, this.healthListeners, ctx.log);
  }

  /** Every health change (with its stored event) and the live snapshots of every stream; returns the unsubscribe. */
  onHealth(listener: HealthListener): () => void {
    this.healthListeners.add(listener);
    return () => void this.healthListeners.delete(listener);
  }

  /** Every task a previous process left running is resumed (its pull restarts, indexes continue). */
  async resume(): Promise<void> {
    const rows = await this.ctx.store.db.select().from(tasks).where(and(inArray(tasks.kind, ["videostream", "audiostream"]), eq(tasks.status, "running")));
    for (const row of rows) this.start(row);
    if (rows.length) this.ctx.log(`resumed ${rows.length} live stream task(s)`);
  }

  start(row: TaskRow): void {
    const bridge = this.standbys.get(row.requestId) ?? null;
    this.standbys.delete(row.requestId);
    if (this.stopped || this.running.has(row.requestId)) {
      void bridge?.stop();
      return;
    }
    const task = new StreamTask(this.ctx, row, (id, health) => this.onEnded(id, health), this.healthOut, bridge);
    this.running.set(row.requestId, { task, keyId: row.keyId, kind: row.kind, identity: row.identity });
    task.start();
  }

  /**
   * Scaled mode: a stream whose holder is handing it over to this process. A bridge pull starts now; `ready` says
   * once it captures (the holder then stops pulling), and start() with the row this process then holds adopts it.
   */
  standby(row: TaskRow, owner: string): StreamBridge | null {
    if (this.stopped || this.running.has(row.requestId) || this.standbys.has(row.requestId)) return null;
    const bridge = new StreamBridge(this.ctx, row, owner);
    this.standbys.set(row.requestId, bridge);
    return bridge;
  }

  /** The handover did not come to this process: its bridge pull stops. */
  async dropStandby(requestId: string): Promise<void> {
    const b = this.standbys.get(requestId);
    this.standbys.delete(requestId);
    await b?.stop();
  }

  private onEnded(requestId: string, health: StreamHealth): void {
    this.running.delete(requestId);
    this.ended.delete(requestId);
    this.ended.set(requestId, health);
    if (this.ended.size > ENDED_HEALTH_KEPT) this.ended.delete(this.ended.keys().next().value!);
    this.healthOut.snapshot(health);
  }

  /**
   * Health of a task this process runs or ran (server/health): counters (frames and segments captured /
   * checked / not checked / waiting / detecting), pull state, input meter, stall flag; null for one it does not know.
   */
  health(requestId: string): StreamHealth | null {
    return this.running.get(requestId)?.task.health() ?? this.ended.get(requestId) ?? null;
  }

  /** GET /api/streams/<id>/health: the live (or stored) snapshot and the stored health events; null when unknown. */
  healthReport(requestId: string): Promise<StreamHealthReport | null> {
    return streamHealthReport({ db: this.ctx.store.db, live: (id) => this.health(id) }, requestId);
  }

  /** Running task of this key with the same stream identity, if any (duplicate rule §1.4); a task already ending is not one. */
  findDuplicate(kind: string, keyId: string, identity: string): string | null {
    for (const [id, r] of this.running) if (r.kind === kind && r.keyId === keyId && r.identity === identity && !r.task.isEnding) return id;
    return null;
  }

  /** Running streams of this key (those already ending, draining what they captured, do not count). */
  countFor(keyId: string): number {
    let n = 0;
    for (const r of this.running.values()) if (r.keyId === keyId && !r.task.isEnding) n++;
    return n;
  }

  /** Running streams whose detectors fell behind within `windowMs` (frames or segments called back not checked). */
  behind(windowMs: number): number {
    let n = 0;
    for (const r of this.running.values()) if (!r.task.isEnding && r.task.behindWithin(windowMs)) n++;
    return n;
  }

  /** Streams this process pulls that are not ending (what STREAM_CAPACITY counts). */
  get active(): number {
    let n = 0;
    for (const r of this.running.values()) if (!r.task.isEnding) n++;
    return n;
  }

  get size(): number {
    return this.running.size;
  }

  isRunning(requestId: string): boolean {
    return this.running.has(requestId);
  }

  /** Scaled mode: a health event on a stream this process holds, saying it moved between workers. */
  noteHandover(requestId: string, message: string): void {
    this.running.get(requestId)?.task.noteHandover(message);
  }

  /** Tasks this process holds, ending ones included (scaled mode renews their leases). */
  ids(): string[] {
    return [...this.running.keys()];
  }

  isEnding(requestId: string): boolean {
    return this.running.get(requestId)?.task.isEnding ?? false;
  }

  /**
   * Scaled mode: stop pulling one stream without ending it (its state saved), for another process to resume.
   * `drain: false` (its lease is another's already) stops without detecting what waits and writes nothing.
   */
  async release(requestId: string, o: { drain: boolean } = { drain: true }): Promise<void> {
    const r = this.running.get(requestId);
    if (!r) return;
    await r.task.stop(o.drain ? undefined : 0);
    if (this.running.get(requestId) === r) this.running.delete(requestId);
  }

  /**
   * Close: a task running here stops pulling and ends. A task the store says is running but this process does
   * not run (yet: e.g. a Close that arrives after a restart, before resume()) ends here without pulling, with
   * its stream-end, so no Close is lost and resume() does not start it afterwards. Resolves once the pull
   * stopped and the end is stored; the drain and the stream-end follow (`whenEnded`).
   */
  async close(requestId: string): Promise<void> {
    const here = this.running.get(requestId);
    if (here) return here.task.close();
    const [row] = await this.ctx.store.db.select().from(tasks).where(and(eq(tasks.requestId, requestId), eq(tasks.status, "running")));
    if (!row) return;
    if (this.running.has(requestId)) return this.close(requestId); // resume() started it meanwhile
    const task = new StreamTask(this.ctx, row, (id, health) => this.onEnded(id, health), this.healthOut);
    this.running.set(requestId, { task, keyId: row.keyId, kind: row.kind, identity: row.identity });
    await task.close();
  }

  /** Resolves once that task has ended (stream-ends queued), at once for one not running here. */
  async whenEnded(requestId: string): Promise<void> {
    await this.running.get(requestId)?.task.whenEnded();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.standbys.keys()].map((id) => this.dropStandby(id)));
    await Promise.all([...this.running.values()].map((r) => r.task.stop()));
    this.running.clear();
    await this.healthOut.settled();
  }
}
