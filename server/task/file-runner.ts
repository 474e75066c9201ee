import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { Code, codeMessage } from "../../lib/contract/codes";
import { tasks } from "../store/schema";
import type { EngineContext } from "./context";
import { runVideoFile } from "./file-pipeline";

/** A task that crashed the pipeline this many times is ended with 1903 instead of retried forever. */
const MAX_RUNS = 3;

/** Runs accepted video files with bounded concurrency; the store is the queue, so a restart resumes. */
export class FileRunner {
  private readonly waiting: string[] = [];
  private readonly active = new Map<string, AbortController>();
  private stopped = false;

  constructor(
    private readonly ctx: EngineContext,
    private readonly concurrency: number,
  ) {}

  /** Picks up every task a previous process accepted but did not finish. */
  async resume(): Promise<void> {
    const rows = await this.ctx.store.db.select({ id: tasks.requestId }).from(tasks).where(and(eq(tasks.kind, "video"), inArray(tasks.status, ["queued", "processing"]))).orderBy(tasks.createdAt);
    rows.forEach((r) => this.enqueue(r.id));
    await this.requeueLostCallbacks();
  }

  /**
   * A crash between storing a file's result and queuing its callback would lose the callback: at start,
   * every finished, unexpired file with a callback URL and no outbox row gets its stored result queued.
   */
  private async requeueLostCallbacks(): Promise<void> {
    const lost = await this.ctx.store.db
      .select({ id: tasks.requestId, request: tasks.request, result: tasks.result })
      .from(tasks)
      .where(
        and(
          eq(tasks.kind, "video"),
          inArray(tasks.status, ["done", "failed"]),
          gt(tasks.expiresAt, new Date()),
          sql`${tasks.request}->>'callback' IS NOT NULL AND ${tasks.result} IS NOT NULL`,
          sql`NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.request_id = ${tasks.requestId})`,
        ),
      );
    for (const t of lost) {
      this.ctx.log(`file ${t.id}: queuing the result callback a crash had lost`);
      await this.ctx.dispatcher.enqueue({ requestId: t.id, url: String(t.request.callback), body: t.result, schedule: "video" });
    }
  }

  enqueue(requestId: string): void {
    if (this.stopped || this.waiting.includes(requestId) || this.active.has(requestId)) return;
    this.waiting.push(requestId);
    this.pump();
  }

  /** Files accepted but not yet processing (FILE_QUEUE_MAX bounds it). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  get pending(): number {
    return this.waiting.length + this.active.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    for (const c of this.active.values()) c.abort();
    while (this.active.size) await new Promise((r) => setTimeout(r, 20));
  }

  private pump(): void {
    while (!this.stopped && this.active.size < this.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!;
      const ac = new AbortController();
      this.active.set(id, ac);
      void this.run(id, ac.signal).finally(() => {
        this.active.delete(id);
        this.pump();
      });
    }
  }

  private async run(id: string, signal: AbortSignal): Promise<void> {
    const [task] = await this.ctx.store.db.select().from(tasks).where(eq(tasks.requestId, id));
    if (!task || (task.status !== "queued" && task.status !== "processing")) return;
    if (task.runCount >= MAX_RUNS) return this.fail(id, task.btId ?? "", task.request.callback as string | undefined, `processing failed ${task.runCount} times`);
    try {
      await runVideoFile(this.ctx, task, signal);
    } catch (err) {
      if (signal.aborted) return; // shutting down: the task stays "processing" and resumes at next start
      this.ctx.log(`file ${id} failed: ${(err as Error).stack ?? err}`);
      const [again] = await this.ctx.store.db.select().from(tasks).where(eq(tasks.requestId, id));
      if (again && again.runCount < MAX_RUNS) this.waiting.push(id);
      else await this.fail(id, task.btId ?? "", task.request.callback as string | undefined, (err as Error).message);
    }
  }

  private async fail(id: string, btId: string, callback: string | undefined, why: string): Promise<void> {
    const result = { code: Code.SERVICE_FAILURE, message: `${codeMessage(Code.SERVICE_FAILURE)}: ${why}`, requestId: id, btId };
    await this.ctx.store.db.update(tasks).set({ status: "failed", result, resultCode: result.code, updatedAt: new Date() }).where(eq(tasks.requestId, id));
    if (callback) await this.ctx.dispatcher.enqueue({ requestId: id, url: callback, body: result, schedule: "video" });
    this.ctx.events.emit("file:progress", { requestId: id, btId, status: "failed", framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0, code: result.code });
  }
}
