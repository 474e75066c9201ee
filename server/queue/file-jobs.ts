// Scaled mode: video files travel from the node that accepted them to the processes that take work through a BullMQ
// queue on Redis (docs/deployment.md). The store stays the truth (task status, result, outbox); the queue only says
// who runs what. A worker that dies mid-file stops renewing its job's lock; after FILE_JOB_LOCK_SEC BullMQ's stalled
// check hands the job to another worker, which runs the file again from scratch (the pipeline is re-runnable and a
// finished task is never run twice: its stored status says so).
import { DelayedError, Queue, Worker, type Job } from "bullmq";
import { metrics } from "../metrics";

const QUEUE = "video-files";

export interface FileJobData {
  requestId: string;
}

export interface FileJobs {
  /** queues a file; the same requestId queued twice (a resume after the original) is one job */
  add(requestId: string): Promise<void>;
  /** files accepted and not yet taken by a worker */
  waiting(): Promise<number>;
  /** processes taking files from the queue now */
  takers(): Promise<number>;
  close(): Promise<void>;
}

/** Redis connection options BullMQ needs (blocking commands must not give up). */
function connection(redisUrl: string) {
  const u = new URL(redisUrl);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === "rediss:" ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

export function fileJobs(redisUrl: string, prefix: string): FileJobs {
  // the producer fails fast while Redis is away (the task is stored already; the sweep queues it once Redis is back)
  const queue = new Queue<FileJobData>(QUEUE, { connection: { ...connection(redisUrl), maxRetriesPerRequest: 1, enableOfflineQueue: false }, prefix });
  queue.on("error", () => undefined);
  // GET /metrics shows a Redis outage while it lasts (moderation_dependency_up{dependency="queue"})
  const probe = () => queue.getWaitingCount();
  metrics().dependencies.set("queue", probe);
  return {
    async add(requestId) {
      // the job id is the task's: a second add while the job waits or runs is a no-op. A job of that id that already
      // ended while the store still says the file is unfinished (a resume) is queued afresh.
      const old = await queue.getJob(requestId);
      if (old && ((await old.isCompleted()) || (await old.isFailed()))) await old.remove().catch(() => undefined);
      // attempts: a run that throws (the store unreachable, say) is tried again later; a file's own failure never throws
      await queue.add("file", { requestId }, { jobId: requestId, attempts: 5, backoff: { type: "exponential", delay: 5000 }, removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: { age: 24 * 3600 } });
    },
    waiting: () => queue.getWaitingCount(),
    takers: () => queue.getWorkersCount(),
    close: () => {
      if (metrics().dependencies.get("queue") === probe) metrics().dependencies.delete("queue");
      return queue.close();
    },
  };
}

export interface FileJobWorker {
  close(): Promise<void>;
}

/**
 * Takes file jobs, `concurrency` at a time, and runs each with `run`; `run` never throws for a file's own failure
 * (the task records it). The signal aborts a run when this process stops, and the job goes straight back to the
 * queue; a process that dies instead leaves it to the stalled check.
 */
export function fileJobWorker(redisUrl: string, prefix: string, o: { concurrency: number; lockSec: number; run: (requestId: string, signal: AbortSignal) => Promise<void>; log: (m: string) => void }): FileJobWorker {
  const stopping = new AbortController();
  /** per job: aborted when this process stops, or when it could not renew the job's lock (another worker may run it) */
  const runs = new Map<string, AbortController>();
  const lockLost = new Set<string>();
  const worker = new Worker<FileJobData>(QUEUE, async (job: Job<FileJobData>, token?: string) => {
    const id = job.id ?? job.data.requestId;
    const ac = new AbortController();
    const stop = () => ac.abort();
    stopping.signal.addEventListener("abort", stop, { once: true });
    runs.set(id, ac);
    try {
      await o.run(job.data.requestId, ac.signal);
    } finally {
      runs.delete(id);
      stopping.signal.removeEventListener("abort", stop);
    }
    if (lockLost.delete(id)) throw new Error(`file ${job.data.requestId}: the job's lock was lost; stopped here (another worker runs it)`);
    if (stopping.signal.aborted && token) {
      // stopped mid-file: hand the job straight back to the queue for another worker (no wait for the lock to run out)
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
  }, {
    connection: connection(redisUrl),
    prefix,
    concurrency: o.concurrency,
    lockDuration: o.lockSec * 1000,
    stalledInterval: Math.max(1000, Math.floor((o.lockSec * 1000) / 2)),
    // a file whose worker died this many times is run no more by the queue: the task's own run count ends it (1903)
    maxStalledCount: 3,
  });
  worker.on("error", (err) => o.log(`file queue: ${err.message}`));
  worker.on("lockRenewalFailed", (ids) => {
    for (const id of ids) {
      const ac = runs.get(id);
      if (!ac) continue;
      o.log(`file ${id}: could not renew the job's lock; stopping the run here`);
      lockLost.add(id);
      ac.abort();
    }
  });
  return {
    async close() {
      stopping.abort();
      await worker.close();
    },
  };
}
