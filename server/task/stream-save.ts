// A live task's writes: its state saved to its row (scaled mode: fenced by its lease) and its callbacks queued one
// after another, each after a save.
import { and, eq } from "drizzle-orm";
import { tasks, type StreamState } from "../store/schema";
import { isUnavailable } from "../store/unavailable";
import type { EngineContext } from "./context";

/** How long a live task holds its callbacks while the store is unreachable before it gives up on one (logged). */
const STORE_OUTAGE_HOLD_MS = 10 * 60_000;

export interface FencedStateOptions {
  ctx: Pick<EngineContext, "store" | "log">;
  requestId: string;
  /** the task's state, saved as it is at each save */
  state: StreamState;
  /**
   * Scaled mode: the lease this task runs under (server/scale). Its writes to the task row are fenced by it: once
   * another process holds the stream, this one's state never overwrites the holder's. Null otherwise.
   */
  fence: string | null;
  /** a fenced save found the stream held elsewhere (once) */
  onLost: () => void;
}

export class FencedState {
  private lost = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly o: FencedStateOptions) {}

  /** Scaled mode: another process holds the stream now; nothing more is written. */
  get leaseLost(): boolean {
    return this.lost;
  }

  get fenced(): boolean {
    return this.o.fence !== null;
  }

  async save(): Promise<void> {
    this.cancelSoon();
    if (this.lost) return;
    const saved = await this.o.ctx.store.db
      .update(tasks)
      .set({ state: { ...this.o.state }, updatedAt: new Date() })
      .where(this.row())
      .returning({ id: tasks.requestId });
    if (saved.length === 0 && this.o.fence !== null) this.lose();
  }

  /** A save within a second (unless one is due already). */
  saveSoon(): void {
    if (!this.timer) this.timer = setTimeout(() => void this.save().catch((err) => this.o.ctx.log(`stream ${this.o.requestId}: ${err}`)), 1000);
  }

  cancelSoon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The end's last write: the task is ended, with its final state (not when the lease went elsewhere). */
  async saveEnded(): Promise<void> {
    if (!this.lost) await this.o.ctx.store.db.update(tasks).set({ status: "ended", state: { ...this.o.state }, updatedAt: new Date() }).where(this.row());
  }

  /** The row this task may write: in scaled mode only while its lease is still this process's. */
  private row() {
    const { requestId, fence } = this.o;
    return fence === null ? eq(tasks.requestId, requestId) : and(eq(tasks.requestId, requestId), eq(tasks.leaseOwner, fence));
  }

  private lose(): void {
    if (this.lost) return;
    this.lost = true;
    this.o.onLost();
  }
}

/**
 * Callbacks queued one after another, in the order their frames/segments were settled. The indexes are stored
 * before each callback is queued: after a crash the ids continue, never repeat.
 */
export class CallbackChain {
  private tail: Promise<void> = Promise.resolve();
  /** set once the drain of an end is over: nothing may be queued after the stream-end */
  private sealed = false;

  constructor(
    private readonly ctx: Pick<EngineContext, "log">,
    private readonly requestId: string,
    private readonly state: FencedState,
  ) {}

  emit(enqueue: () => Promise<unknown>): void {
    if (this.sealed) {
      this.ctx.log(`stream ${this.requestId}: a callback after the stream's end was dropped (bug)`);
      return;
    }
    this.tail = this.tail
      .then(() =>
        this.whileUnavailable(async () => {
          await this.state.save();
          // scaled mode: the save is fenced by the lease; one that found the stream held elsewhere sends nothing more
          if (this.state.leaseLost) return;
          await enqueue();
        }),
      )
      .catch((err) => this.ctx.log(`stream ${this.requestId}: ${(err as Error).stack ?? err}`));
  }

  /**
   * The store unreachable (a PostgreSQL restart or failover): the callback is held here, in order, and tried again
   * until the store is back (up to STORE_OUTAGE_HOLD_MS), so what is due in the outage is delivered after it.
   */
  private async whileUnavailable(write: () => Promise<void>): Promise<void> {
    const since = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        await write();
        if (attempt > 0) this.ctx.log(`stream ${this.requestId}: store reachable again after ${Math.round((Date.now() - since) / 1000)} s; held callbacks queued`);
        return;
      } catch (err) {
        if (!isUnavailable(err) || Date.now() - since > STORE_OUTAGE_HOLD_MS) throw err;
        if (attempt === 0) this.ctx.log(`stream ${this.requestId}: store unreachable (${(err as Error).message.split("\n")[0].slice(0, 120)}); holding callbacks until it is back`);
        await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt)));
      }
    }
  }

  seal(): void {
    this.sealed = true;
  }

  /** Resolves once every callback queued so far is in the outbox. */
  get settled(): Promise<void> {
    return this.tail;
  }
}
