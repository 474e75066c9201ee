import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { Code, codeMessage } from "../../lib/contract/codes";
import { tasks } from "../store/schema";
import type { EngineContext } from "./context";
import { runVideoFile } from "./file-pipeline";
import { fileJobs, fileJobWorker, type FileJobs, type FileJobWorker } from "../queue/file-jobs";

/** A task that crashed the pipeline this many times is ended with 1903 instead of retried forever. */
const MAX_RUNS = 3;
/** scaled mode: a finished file without a callback in the outbox this long after its result was stored lost it in a crash */
const LOST_CALLBACK_AGE_MS = 60_000;
/** scaled mode: the advisory lock the processes take turns on to queue lost callbacks */
const LOST_CALLBACKS_LOCK = 0x6d6f6401;
/** scaled mode: how often unfinished files are queued again */
const SWEEP_MS = 30_000;

/**
 * Runs accepted video files with bounded concurrency; the store is the queue, so a restart resumes. In scaled mode
 * (server/queue) files go through a BullMQ queue instead, run by the processes that take files.
 */
export class FileRunner {
  private readonly waiting: string[] = [];
  private readonly active = new Map<string, AbortController>();
  private stopped = false;
  /** scaled mode: the shared queue, this process's worker on it (when it takes files), the queue's waiting count */
  private readonly jobs: FileJobs | null;
  private worker: FileJobWorker | null = null;
  private queuedElsewhere = 0;
  /** processes taking files (-1 until first read) */
  private takers = -1;
  private depthTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: EngineContext,
    private readonly concurrency: number,
  ) {
    const { scale, redisUrl } = ctx.config;
    this.jobs = scale.on && redisUrl ? fileJobs(redisUrl, scale.queuePrefix) : null;
  }

  /** Picks up every task a previous process accepted but did not finish; in scaled mode starts taking jobs. */
  async resume(): Promise<void> {
    const rows = await this.ctx.store.db.select({ id: tasks.requestId }).from(tasks).where(and(eq(tasks.kind, "video"), inArray(tasks.status, ["queued", "processing"]))).orderBy(tasks.createdAt);
    if (this.jobs) {
      // every process queues what the store says is unfinished: a job that waits or runs already is not doubled
      for (const r of rows) await this.enqueue(r.id); // a Redis blip is logged; the sweep queues it later
      const { scale, redisUrl } = this.ctx.config;
      if (scale.takesFiles) {
        this.worker = fileJobWorker(redisUrl!, scale.queuePrefix, { concurrency: this.concurrency, lockSec: scale.fileJobLockSec, run: (id, signal) => this.runJob(id, signal), log: this.ctx.log });
      }
      const poll = () => {
        void this.jobs!.waiting().then((n) => (this.queuedElsewhere = n), () => undefined);
        void this.jobs!.takers().then((n) => (this.takers = n), () => undefined);
      };
      poll();
      this.depthTimer = setInterval(poll, 1000);
      this.depthTimer.unref();
      // what the store says is unfinished is queued again now and then: a file accepted while Redis was away, or
      // whose job the queue gave up on, is not left waiting forever (a job that waits or runs is not doubled)
      this.sweepTimer = setInterval(() => void this.sweep().catch((err: Error) => this.ctx.log(`file queue sweep: ${err.message}`)), SWEEP_MS);
      this.sweepTimer.unref();
    } else {
      for (const r of rows) void this.enqueue(r.id);
    }
    await this.requeueLostCallbacks();
  }

  /** One file job of the shared queue, run here (scaled mode). */
  private async runJob(id: string, signal: AbortSignal): Promise<void> {
    if (this.stopped) return;
    const ac = new AbortController();
    const stop = () => ac.abort();
    signal.addEventListener("abort", stop, { once: true });
    this.active.set(id, ac);
    try {
      this.ctx.log(`file ${id}: taken from the queue`);
      for (;;) {
        const retry = await this.run(id, ac.signal);
        if (!retry || ac.signal.aborted) break;
      }
      if (!ac.signal.aborted) this.ctx.log(`file ${id}: finished here`);
    } finally {
      this.active.delete(id);
      signal.removeEventListener("abort", stop);
    }
  }

  /**
   * A crash between storing a file's result and queuing its callback would lose the callback: at start,
   * every finished, unexpired file with a callback URL and no outbox row gets its stored result queued.
   */
  private async requeueLostCallbacks(): Promise<void> {
    const find = (db: Pick<EngineContext["store"]["db"], "select">) =>
      db
        .select({ id: tasks.requestId, request: tasks.request, result: tasks.result })
        .from(tasks)
        .where(
          and(
            eq(tasks.kind, "video"),
            inArray(tasks.status, ["done", "failed"]),
            gt(tasks.expiresAt, new Date()),
            // scaled mode: a worker alive right now queues its callback just after storing the result; only a result
            // stored a while ago without one was left by a crash
            ...(this.jobs ? [lt(tasks.updatedAt, new Date(Date.now() - LOST_CALLBACK_AGE_MS))] : []),
            sql`${tasks.request}->>'callback' IS NOT NULL AND ${tasks.result} IS NOT NULL`,
            sql`NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.request_id = ${tasks.requestId})`,
          ),
        );
    const requeue = async (lost: Awaited<ReturnType<typeof find>>) => {
      for (const t of lost) {
        this.ctx.log(`file ${t.id}: queuing the result callback a crash had lost`);
        await this.ctx.dispatcher.enqueue({ requestId: t.id, url: String(t.request.callback), body: t.result, schedule: "video" });
      }
    };
    if (!this.jobs) return requeue(await find(this.ctx.store.db));
    // scaled mode: processes starting together take turns (a transaction-scoped lock), so each lost callback is
    // queued once: the next one's query runs after the previous one's deliveries were stored
    await this.ctx.store.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOST_CALLBACKS_LOCK})`);
      await requeue(await find(tx));
    });
  }

  /** Scaled mode: queues again every unfinished file (a no-op for the jobs that wait or run). */
  private async sweep(): Promise<void> {
    const rows = await this.ctx.store.db.select({ id: tasks.requestId }).from(tasks).where(and(eq(tasks.kind, "video"), inArray(tasks.status, ["queued", "processing"]))).orderBy(tasks.createdAt).limit(1000);
    for (const r of rows) await this.jobs!.add(r.id);
    // a worker that stored a result and died before queuing its callback, restarted within a minute: found here
    await this.requeueLostCallbacks();
  }

  /** Scaled mode: why a file cannot be accepted now (no process takes files), or null. */
  async refusal(): Promise<string | null> {
    if (!this.jobs || this.worker || this.takers !== 0) return null;
    // the count read each second says none: ask again now (a worker may have just started)
    this.takers = await this.jobs.takers().catch(() => this.takers);
    return this.takers === 0 ? "no worker takes files (start `npm run worker`)" : null;
  }

  /** Starts (or queues) a stored file. Scaled mode: resolves once it is on the shared queue, or logged for the sweep. */
  async enqueue(requestId: string): Promise<void> {
    if (this.jobs) {
      await this.jobs.add(requestId).catch((err: Error) => this.ctx.log(`file ${requestId}: could not queue now (${err.message}); the sweep queues it within ${SWEEP_MS / 1000} s`));
      return;
    }
    if (this.stopped || this.waiting.includes(requestId) || this.active.has(requestId)) return;
    this.waiting.push(requestId);
    this.pump();
  }

  /** Files accepted but not yet processing (FILE_QUEUE_MAX bounds it); in scaled mode the shared queue's, read each second. */
  get waitingCount(): number {
    return this.jobs ? this.queuedElsewhere : this.waiting.length;
  }

  get pending(): number {
    return this.waitingCount + this.active.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    if (this.depthTimer) clearInterval(this.depthTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const c of this.active.values()) c.abort();
    await this.worker?.close();
    while (this.active.size) await new Promise((r) => setTimeout(r, 20));
    await this.jobs?.close();
  }

  private pump(): void {
    while (!this.stopped && this.active.size < this.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!;
      const ac = new AbortController();
      this.active.set(id, ac);
      void this.run(id, ac.signal)
        .then((retry) => void (retry && this.waiting.push(id)))
        .finally(() => {
          this.active.delete(id);
          this.pump();
        });
    }
  }

  /** Runs one file; true when it crashed the pipeline and may be run again. */
  private async run(id: string, signal: AbortSignal): Promise<boolean> {
    const [task] = await this.ctx.store.db.select().from(tasks).where(eq(tasks.requestId, id));
    if (!task || (task.status !== "queued" && task.status !== "processing")) return false;
    if (task.runCount >= MAX_RUNS) {
      await this.fail(id, task.btId ?? "", task.request.callback as string | undefined, `processing failed ${task.runCount} times`);
      return false;
    }
    try {
      await runVideoFile(this.ctx, task, signal);
      return false;
    } catch (err) {
      if (signal.aborted) return false; // shutting down: the task stays "processing" and resumes at next start (or on another worker)
      this.ctx.log(`file ${id} failed: ${(err as Error).stack ?? err}`);
      const [again] = await this.ctx.store.db.select().from(tasks).where(eq(tasks.requestId, id));
      if (again && again.runCount < MAX_RUNS) return true;
      await this.fail(id, task.btId ?? "", task.request.callback as string | undefined, (err as Error).message);
      return false;
    }
  }

  private async fail(id: string, btId: string, callback: string | undefined, why: string): Promise<void> {
    const result = { code: Code.SERVICE_FAILURE, message: `${codeMessage(Code.SERVICE_FAILURE)}: ${why}`, requestId: id, btId };
    await this.ctx.store.db.update(tasks).set({ status: "failed", result, resultCode: result.code, updatedAt: new Date() }).where(eq(tasks.requestId, id));
    if (callback) await this.ctx.dispatcher.enqueue({ requestId: id, url: callback, body: result, schedule: "video" });
    this.ctx.events.emit("file:progress", { requestId: id, btId, status: "failed", framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0, code: result.code });
  }
}
