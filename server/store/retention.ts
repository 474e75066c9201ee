import fs from "node:fs/promises";
import path from "node:path";
import { and, inArray, isNull, lt, notExists, or, sql } from "drizzle-orm";
import type { RetentionStatus, SweepReport } from "../../lib/status";
import type { Store } from "./db";
import { dashboardFiles, dashboardStreams, deliveries, deliveryAttempts, incidentHits, incidents, receivedCallbacks, streamHealthEvents, tasks } from "./schema";

export interface RetentionOptions {
  store: Store;
  /** DATA_DIR/media: one directory per task (captured frames, audio clips) */
  mediaRoot: string;
  retentionHours: number;
  sweepMinutes: number;
  log?: (msg: string) => void;
}

/** Tasks deleted per statement, so one sweep never builds a huge transaction. */
const BATCH = 200;
/** The first sweep runs this soon after start (or after one interval, when that is shorter). */
const FIRST_SWEEP_MS = 30_000;

/**
 * The retention job (docs/operations.md "Retention"). A task is deleted — its row and result, its outbox rows
 * and their attempts, the callbacks the dashboard received for it, the dashboard's file/stream record and its
 * frames and audio clips on disk — once it is finished (done, failed, ended) and both its expiry (accepted +
 * RESULT_RETENTION_HOURS) and its last update + RESULT_RETENTION_HOURS have passed. Never deleted: a running
 * stream or a file still queued/processing, and a task with a callback still pending (it stays until its
 * delivery succeeds or its retry schedule is exhausted). Its incidents and their hits (which hold result bodies
 * and point at the deleted frames) go with it; review decisions and the audit log are kept.
 */
export class RetentionJob {
  private timer: NodeJS.Timeout | null = null;
  private nextAt: number | null = null;
  private last: SweepReport | null = null;
  private running: Promise<SweepReport> | null = null;
  private stopped = false;

  constructor(private readonly o: RetentionOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(Math.min(FIRST_SWEEP_MS, this.intervalMs));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.nextAt = null;
    await this.running?.catch(() => undefined);
  }

  status(): RetentionStatus {
    return { retentionHours: this.o.retentionHours, sweepMinutes: this.o.sweepMinutes, lastSweep: this.last, nextSweepAt: this.nextAt ? new Date(this.nextAt).toISOString() : null };
  }

  /** One sweep now (a sweep already under way is joined, not doubled). */
  sweep(): Promise<SweepReport> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private get intervalMs(): number {
    return Math.max(1000, this.o.sweepMinutes * 60_000);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.nextAt = Date.now() + ms;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sweep().finally(() => this.schedule(this.intervalMs));
    }, ms);
    this.timer.unref();
  }

  private async run(): Promise<SweepReport> {
    const started = Date.now();
    const report: SweepReport = { at: new Date(started).toISOString(), durationMs: 0, tasks: 0, dashboardRecords: 0, mediaDirs: 0, bytes: 0 };
    try {
      const cutoff = new Date(started - this.o.retentionHours * 3600_000);
      for (;;) {
        const ids = await this.deleteExpiredTasks(new Date(started), cutoff);
        report.tasks += ids.length;
        for (const id of ids) await this.removeMedia(id, report);
        if (ids.length < BATCH || this.stopped) break;
      }
      report.dashboardRecords = await this.deleteOrphanDashboardRecords(cutoff);
      await this.removeOrphanMedia(cutoff, report);
    } catch (err) {
      report.error = (err as Error).message;
      this.o.log?.(`retention sweep failed: ${report.error}`);
    }
    report.durationMs = Date.now() - started;
    this.last = report;
    if (report.tasks || report.dashboardRecords || report.mediaDirs) this.o.log?.(`retention: deleted ${report.tasks} task(s), ${report.dashboardRecords} dashboard record(s), ${report.mediaDirs} media dir(s) (${report.bytes} bytes)`);
    return report;
  }

  /** Deletes one batch of expired, settled tasks and everything stored for them; returns their ids. */
  private async deleteExpiredTasks(now: Date, cutoff: Date): Promise<string[]> {
    const db = this.o.store.db;
    const pending = db.select({ one: sql`1` }).from(deliveries).where(and(sql`${deliveries.requestId} = ${tasks.requestId}`, inArray(deliveries.status, ["pending"])));
    const candidates = db
      .select({ id: tasks.requestId })
      .from(tasks)
      .where(and(inArray(tasks.status, ["done", "failed", "ended"]), lt(tasks.expiresAt, now), lt(tasks.updatedAt, cutoff), notExists(pending)))
      .limit(BATCH);
    // the task row goes first (re-checked in the same statement), then what belongs to it: a crash in
    // between leaves rows no task points at, which the next sweep's orphan pass and this one remove
    const gone = await db.delete(tasks).where(and(inArray(tasks.requestId, candidates), notExists(pending))).returning({ id: tasks.requestId });
    const ids = gone.map((r) => r.id);
    if (!ids.length) return ids;
    const outbox = db.select({ id: deliveries.id }).from(deliveries).where(inArray(deliveries.requestId, ids));
    await db.delete(deliveryAttempts).where(inArray(deliveryAttempts.deliveryId, outbox));
    await db.delete(deliveries).where(inArray(deliveries.requestId, ids));
    await db.delete(receivedCallbacks).where(inArray(receivedCallbacks.requestId, ids));
    await db.delete(dashboardFiles).where(inArray(dashboardFiles.requestId, ids));
    await db.delete(dashboardStreams).where(inArray(dashboardStreams.requestId, ids));
    await db.delete(streamHealthEvents).where(inArray(streamHealthEvents.requestId, ids));
    await this.deleteIncidentsOf(ids);
    return ids;
  }

  /**
   * Dashboard records whose task this store does not hold (the dashboard drives a remote service, or the
   * task was already deleted), finished and older than the retention, with the callbacks received for them.
   */
  private async deleteOrphanDashboardRecords(cutoff: Date): Promise<number> {
    const db = this.o.store.db;
    const noTask = (col: typeof dashboardFiles.requestId | typeof dashboardStreams.requestId) => notExists(db.select({ one: sql`1` }).from(tasks).where(sql`${tasks.requestId} = ${col}`));
    const files = await db
      .delete(dashboardFiles)
      .where(and(noTask(dashboardFiles.requestId), inArray(dashboardFiles.status, ["done", "failed"]), lt(dashboardFiles.createdAt, cutoff)))
      .returning({ id: dashboardFiles.requestId });
    const streams = await db
      .delete(dashboardStreams)
      .where(and(noTask(dashboardStreams.requestId), sql`${dashboardStreams.status} = 'ended'`, or(lt(dashboardStreams.endedAt, cutoff), and(isNull(dashboardStreams.endedAt), lt(dashboardStreams.startedAt, cutoff)))))
      .returning({ id: dashboardStreams.requestId });
    const ids = [...files, ...streams].map((r) => r.id);
    await this.deleteIncidentsOf(ids);
    // received callbacks of tasks no record or task knows any more
    const known = (col: typeof receivedCallbacks.requestId) =>
      sql`(EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.requestId} = ${col}) OR EXISTS (SELECT 1 FROM ${dashboardFiles} WHERE ${dashboardFiles.requestId} = ${col}) OR EXISTS (SELECT 1 FROM ${dashboardStreams} WHERE ${dashboardStreams.requestId} = ${col}))`;
    await db.delete(receivedCallbacks).where(and(sql`NOT ${known(receivedCallbacks.requestId)}`, lt(receivedCallbacks.receivedAt, cutoff)));
    // settled outbox rows a crashed sweep left behind (their task is gone); pending ones are still delivered
    const orphanOutbox = (
      await db
        .select({ id: deliveries.id })
        .from(deliveries)
        .where(and(notExists(db.select({ one: sql`1` }).from(tasks).where(sql`${tasks.requestId} = ${deliveries.requestId}`)), sql`${deliveries.status} <> 'pending'`, lt(deliveries.updatedAt, cutoff)))
        .limit(10_000)
    ).map((r) => r.id);
    if (orphanOutbox.length) {
      await db.delete(deliveryAttempts).where(inArray(deliveryAttempts.deliveryId, orphanOutbox));
      await db.delete(deliveries).where(inArray(deliveries.id, orphanOutbox));
    }
    return ids.length;
  }

  /** Incidents of deleted tasks or records, with their hits; their decisions stay (who decided what, and when). */
  private async deleteIncidentsOf(requestIds: string[]): Promise<void> {
    if (!requestIds.length) return;
    const db = this.o.store.db;
    await db.delete(incidentHits).where(inArray(incidentHits.requestId, requestIds));
    await db.delete(incidents).where(inArray(incidents.requestId, requestIds));
  }

  /** Media directories of tasks the store no longer holds (e.g. a crash between row and files), older than the retention. */
  private async removeOrphanMedia(cutoff: Date, report: SweepReport): Promise<void> {
    const names = await fs.readdir(this.o.mediaRoot).catch(() => [] as string[]);
    for (let i = 0; i < names.length; i += BATCH) {
      const chunk = names.slice(i, i + BATCH);
      const held = new Set((await this.o.store.db.select({ id: tasks.requestId }).from(tasks).where(inArray(tasks.requestId, chunk))).map((r) => r.id));
      for (const name of chunk) {
        if (held.has(name)) continue;
        const st = await fs.stat(path.join(this.o.mediaRoot, name)).catch(() => null);
        if (st?.isDirectory() && st.mtime < cutoff) await this.removeMedia(name, report);
      }
    }
  }

  private async removeMedia(requestId: string, report: SweepReport): Promise<void> {
    if (!/^[A-Za-z0-9_-]+$/.test(requestId)) return;
    const dir = path.join(this.o.mediaRoot, requestId);
    const bytes = await dirBytes(dir);
    if (bytes === null) return;
    await fs.rm(dir, { recursive: true, force: true });
    report.mediaDirs++;
    report.bytes += bytes;
  }
}

/** Bytes of the files under `dir` (null when it does not exist). */
export async function dirBytes(dir: string): Promise<number | null> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => null);
  if (!entries) return null;
  let sum = 0;
  for (const e of entries) if (e.isFile()) sum += (await fs.stat(path.join(e.parentPath, e.name)).catch(() => null))?.size ?? 0;
  return sum;
}
