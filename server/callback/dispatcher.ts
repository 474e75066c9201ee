import crypto from "node:crypto";
import { EventEmitter } from "node:events";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { noteLoopError } from "../store/unavailable";
import { pinnedRequest, type CheckedTarget } from "../net/pinned";
import type { Db } from "../store/db";
import { deliveries, deliveryAttempts, tasks, type DeliveryRow } from "../store/schema";
import { nextRetryDelayMs, type ScheduleName } from "./schedules";

export interface DispatcherOptions {
  db: Db;
  timeScale: number;
  /**
   * Resolves and vets the target before every attempt (SSRF guard); the POST then connects to exactly the
   * addresses it returns. Throws when the target may not be called: the attempt is recorded as failed.
   */
  checkTarget: (url: string) => Promise<CheckedTarget>;
  concurrency?: number;
  timeoutMs?: number;
  /** Extra headers per attempt, e.g. the webhook-signature; gets the exact body sent (UTF-8) and its webhook-id/timestamp. */
  sign?: (m: { id: string; requestId: string; timestampSec: number; body: string }) => Promise<Record<string, string>> | Record<string, string>;
  /** Bound on undelivered callbacks (see saturated()); 0 or absent = unbounded. */
  queueMax?: { perKey: number; total: number };
  log?: (msg: string) => void;
}

export interface DeliveryOutcome {
  id: string;
  requestId: string;
  status: "delivered" | "exhausted" | "retrying";
  attempt: number;
  httpStatus: number | null;
  error: string | null;
}

/** A callback body just stored in the outbox (the exact text that will be sent), in queuing order per task. */
export interface QueuedCallback {
  id: string;
  requestId: string;
  url: string;
  body: string;
  schedule: ScheduleName;
}

/**
 * The persisted callback outbox. Bodies are stored before the first attempt, every attempt is
 * recorded, and pending rows survive restarts. Deliveries to one (task, url) go out in order.
 */
export class Dispatcher extends EventEmitter<{ outcome: [DeliveryOutcome]; queued: [QueuedCallback] }> {
  private readonly inFlight = new Set<string>();
  private readonly seqChains = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private ticking = false;
  private again = false;

  constructor(private readonly o: DispatcherOptions) {
    super();
  }

  start(): void {
    this.running = true;
    this.kick();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.inFlight.size || this.ticking) await new Promise((r) => setTimeout(r, 20));
  }

  /** Stores a callback body for delivery and returns its delivery id (sent as webhook-id). */
  async enqueue(input: { requestId: string; url: string; body: unknown; schedule: ScheduleName }): Promise<string> {
    const id = `msg_${crypto.randomBytes(12).toString("hex")}`;
    const body = JSON.stringify(input.body);
    // serialise seq allocation per task so ordering holds under concurrent enqueues
    const prev = this.seqChains.get(input.requestId) ?? Promise.resolve();
    const next = prev.then(async () => {
      const now = new Date();
      await this.o.db.insert(deliveries).values({
        id,
        requestId: input.requestId,
        seq: sql`(SELECT coalesce(max(seq), 0) + 1 FROM deliveries WHERE request_id = ${input.requestId})`,
        url: input.url,
        body,
        schedule: input.schedule,
        status: "pending",
        attemptCount: 0,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      });
      // inside the per-task chain, so listeners (the embedded dashboard's mirror) see a task's bodies in order
      this.emit("queued", { id, requestId: input.requestId, url: input.url, body, schedule: input.schedule });
    });
    this.seqChains.set(input.requestId, next.catch(() => undefined));
    await next;
    if (this.seqChains.get(input.requestId) === next) this.seqChains.delete(input.requestId);
    this.kick();
    return id;
  }

  /** Undelivered (pending) callbacks: of the tasks of one accessKey (by key id) and in total. */
  async backlog(keyId: string): Promise<{ key: number; total: number }> {
    const [row] = await this.o.db
      .select({ total: sql<number>`count(*)`, key: sql<number>`count(*) FILTER (WHERE ${tasks.keyId} = ${keyId})` })
      .from(deliveries)
      .leftJoin(tasks, eq(tasks.requestId, deliveries.requestId))
      .where(eq(deliveries.status, "pending"));
    return { key: Number(row?.key ?? 0), total: Number(row?.total ?? 0) };
  }

  /**
   * Why new work from this accessKey must be refused (its undelivered callbacks, or all of them, reached
   * the bound), or null. Accepted tasks' callbacks are never dropped: the bound applies to new submissions.
   */
  async saturated(keyId: string): Promise<string | null> {
    const perKey = this.o.queueMax?.perKey ?? 0;
    const total = this.o.queueMax?.total ?? 0;
    if (perKey <= 0 && total <= 0) return null;
    const b = await this.backlog(keyId);
    if (perKey > 0 && b.key >= perKey) return `${b.key} callbacks of this accessKey are waiting for delivery (at most ${perKey}); retry once its callback URL accepts them`;
    if (total > 0 && b.total >= total) return `${b.total} callbacks are waiting for delivery (at most ${total} in total); retry later`;
    return null;
  }

  /** Recorded attempts of a task's deliveries, oldest first. */
  async attemptsFor(requestId: string) {
    return this.o.db
      .select({ deliveryId: deliveryAttempts.deliveryId, attempt: deliveryAttempts.attempt, at: deliveryAttempts.at, httpStatus: deliveryAttempts.httpStatus, error: deliveryAttempts.error, durationMs: deliveryAttempts.durationMs })
      .from(deliveryAttempts)
      .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
      .where(eq(deliveries.requestId, requestId))
      .orderBy(asc(deliveryAttempts.id));
  }

  async deliveriesFor(requestId: string): Promise<DeliveryRow[]> {
    return this.o.db.select().from(deliveries).where(eq(deliveries.requestId, requestId)).orderBy(asc(deliveries.seq));
  }

  private kick(): void {
    if (!this.running) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.ticking = true;
    this.again = false;
    try {
      const limit = (this.o.concurrency ?? 8) - this.inFlight.size;
      if (limit > 0) {
        const due = await this.o.db
          .select()
          .from(deliveries)
          .where(
            and(
              eq(deliveries.status, "pending"),
              lte(deliveries.nextAttemptAt, new Date()),
              sql`NOT EXISTS (SELECT 1 FROM deliveries e WHERE e.request_id = ${deliveries.requestId} AND e.url = ${deliveries.url} AND e.status = 'pending' AND e.seq < ${deliveries.seq})`,
            ),
          )
          .orderBy(asc(deliveries.nextAttemptAt))
          .limit(limit + this.inFlight.size);
        for (const d of due) {
          if (this.inFlight.size >= (this.o.concurrency ?? 8)) break;
          if (this.inFlight.has(d.id)) continue;
          this.inFlight.add(d.id);
          void this.claim(d)
            .then((mine) => (mine ? this.attempt(d) : undefined))
            .catch((err: Error) => noteLoopError("dispatcher", err, this.o.log))
            .finally(() => {
              this.inFlight.delete(d.id);
              this.kick();
            });
        }
      }
    } catch (err) {
      noteLoopError("dispatcher", err, this.o.log);
    } finally {
      this.ticking = false;
    }
    if (!this.running) return;
    if (this.again) return this.kick();
    // wake for the next due row (or poll: rows may be added by another process sharing the store)
    const [next] = await this.o.db
      .select({ at: deliveries.nextAttemptAt })
      .from(deliveries)
      .where(eq(deliveries.status, "pending"))
      .orderBy(asc(deliveries.nextAttemptAt))
      .limit(1)
      .catch(() => [] as { at: Date | null }[]);
    const wait = next?.at ? Math.max(10, Math.min(1000, next.at.getTime() - Date.now())) : 1000;
    if (this.running && !this.timer && !this.ticking) this.timer = setTimeout(() => void this.tick(), wait);
  }

  /**
   * Takes the row for one attempt, only if nobody changed it since it was read (a due-list read just before an
   * attempt finished, or by another process sharing the store, would otherwise send it again), and leases it:
   * it is not due again until the attempt's timeout has passed, so a crash mid-attempt only delays the retry.
   */
  private async claim(d: DeliveryRow): Promise<boolean> {
    const taken = await this.o.db
      .update(deliveries)
      .set({ updatedAt: new Date(d.updatedAt.getTime() + 1), nextAttemptAt: new Date(Date.now() + (this.o.timeoutMs ?? 5000) + 5000) })
      .where(and(eq(deliveries.id, d.id), eq(deliveries.status, "pending"), eq(deliveries.updatedAt, d.updatedAt)))
      .returning({ id: deliveries.id });
    return taken.length === 1;
  }

  private async attempt(d: DeliveryRow): Promise<void> {
    const attempt = d.attemptCount + 1;
    const started = Date.now();
    let httpStatus: number | null = null;
    let error: string | null = null;
    const timeout = AbortSignal.timeout(this.o.timeoutMs ?? 5000);
    try {
      const target = await this.o.checkTarget(d.url);
      const ts = Math.floor(started / 1000);
      const body = Buffer.from(d.body, "utf8");
      const signed = (await this.o.sign?.({ id: d.id, requestId: d.requestId, timestampSec: ts, body: d.body })) ?? {};
      // redirects are not followed: a 3xx is a failed attempt like any other non-200
      const res = await pinnedRequest(target, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": body.length, "user-agent": "moderation-platform/1 callback", "webhook-id": d.id, "webhook-timestamp": String(ts), ...signed },
        body,
        signal: timeout,
      });
      httpStatus = res.statusCode ?? null;
      res.resume(); // the answer's body is not needed; the timeout still bounds the connection
      res.on("error", () => undefined);
      if (httpStatus !== 200) error = `HTTP ${httpStatus}`;
    } catch (err) {
      const e = err as Error & { code?: string };
      error = timeout.aborted ? "timeout" : `${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ""}`;
    }
    const now = new Date();
    const delay = error ? nextRetryDelayMs(d.schedule as ScheduleName, attempt, this.o.timeScale) : null;
    const status = !error ? "delivered" : delay === null ? "exhausted" : "pending";
    await this.o.db.insert(deliveryAttempts).values({ deliveryId: d.id, attempt, at: now, httpStatus, error, durationMs: Date.now() - started });
    await this.o.db
      .update(deliveries)
      .set({ attemptCount: attempt, status, updatedAt: now, nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay) })
      .where(eq(deliveries.id, d.id));
    if (status === "exhausted") this.o.log?.(`callback ${d.id} for ${d.requestId} exhausted after ${attempt} attempts: ${error}`);
    this.emit("outcome", { id: d.id, requestId: d.requestId, status: status === "pending" ? "retrying" : status, attempt, httpStatus, error });
  }
}
