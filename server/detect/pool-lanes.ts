// The pool's queue: jobs wait in lanes (one per live stream; unlabelled jobs, e.g. a file's frames, share one)
// served round-robin, so a stream's next frame never waits behind a whole file or another stream's backlog.
import type { FrameInput } from "./types";

/**
 * A frame with its fairness lane and an optional abort. Lanes are served round-robin (one job from each lane
 * in turn); an aborted job still queued is dropped and rejects with AbortError (a running one completes).
 */
export interface QueuedFrameInput extends FrameInput {
  lane?: string;
  signal?: AbortSignal;
}

export const DEFAULT_LANE = "";

export interface Job {
  id: number;
  lane: string;
  /** removes the abort listener once the job leaves the queue */
  unlisten?: () => void;
  /** a frame to detect, or (no input) an image whose largest face to embed */
  input?: FrameInput;
  bytes: Uint8Array;
  resolve: (v: never) => void;
  reject: (e: Error) => void;
}

export function abortError(): Error {
  return new DOMException("frame detection aborted before it started", "AbortError");
}

export class LaneQueue {
  /** queued jobs by lane; Map order is the round-robin order (a served lane with more jobs moves to the end) */
  private readonly lanes = new Map<string, Job[]>();
  private queued = 0;

  /** Jobs queued over all lanes. */
  get size(): number {
    return this.queued;
  }

  /** Jobs queued in one lane. */
  queuedIn(lane: string): number {
    return this.lanes.get(lane)?.length ?? 0;
  }

  /** Queue a job at the end of its lane; an abort while still queued drops it and rejects it with AbortError. */
  push(job: Job, signal?: AbortSignal): void {
    const lane = this.lanes.get(job.lane);
    if (lane) lane.push(job);
    else this.lanes.set(job.lane, [job]);
    this.queued++;
    if (signal) {
      const onAbort = () => {
        const jobs = this.lanes.get(job.lane);
        const at = jobs?.indexOf(job) ?? -1;
        if (!jobs || at < 0) return; // already running or settled
        jobs.splice(at, 1);
        if (jobs.length === 0) this.lanes.delete(job.lane);
        this.queued--;
        job.reject(abortError());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      job.unlisten = () => signal.removeEventListener("abort", onAbort);
    }
  }

  /** The next job round-robin over the lanes: the first lane's oldest job; that lane then goes to the end. */
  take(): Job | undefined {
    const first = this.lanes.entries().next();
    if (first.done) return undefined;
    const [lane, jobs] = first.value;
    const job = jobs.shift()!;
    this.lanes.delete(lane);
    if (jobs.length) this.lanes.set(lane, jobs);
    this.queued--;
    job.unlisten?.();
    return job;
  }

  /** The job take() would return next, left in the queue. */
  peek(): Job | undefined {
    const first = this.lanes.values().next();
    return first.done ? undefined : first.value[0];
  }

  /** Empty the queue: every job, oldest lane first. */
  takeAll(): Job[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    this.queued = 0;
    for (const job of all) job.unlisten?.();
    return all;
  }
}
