// One detect worker thread of the pool and the jobs it runs: started, handed a job (or a batch of frames) under a
// timeout, retired.
import { Worker } from "node:worker_threads";
import { JobTimeoutError } from "./errors";
import type { Job } from "./pool-lanes";
import type { JobMessage, ToWorker, WorkerInit } from "./protocol";
import type { DetectPoolOptions, EngineName, FrameInput } from "./types";

export interface Slot {
  index: number;
  worker: Worker;
  /** accepting jobs */
  ready: boolean;
  /** reported ready at least once (a worker that exits before that failed to start) */
  started: boolean;
  exited: boolean;
  /** jobs in flight: one, or the frames of one batch (each settles on its own) */
  jobs: Job[];
  /** when the current jobs were dispatched (test hook: minimum job time) */
  dispatchedAt?: number;
  timer?: NodeJS.Timeout;
  /** the pool's per-job timeout, re-armed after each result of a batch */
  jobTimeoutMs?: number;
  lastError?: Error;
  /** set when the pool itself stops this worker (close or timeout): its exit is expected */
  retiring?: boolean;
}

const BOOT = new URL("./worker-boot.mjs", import.meta.url);
const ENTRY = new URL("./worker.ts", import.meta.url).href;

/** Bytes the worker can own: the caller's own buffer when the view spans it (transferred), else one copy. */
export function ownedBytes(jpeg: Uint8Array): Uint8Array {
  const whole = jpeg.byteOffset === 0 && jpeg.byteLength === jpeg.buffer.byteLength;
  return whole && jpeg.buffer instanceof ArrayBuffer ? jpeg : new Uint8Array(jpeg);
}

/** A new worker `detect-<index>` loading the engines; the caller attaches its listeners. */
export function startSlot(index: number, opts: DetectPoolOptions, engines: EngineName[]): Slot {
  const { dataDir, galleryDir, hashBankDir, keywordsDir, policyDir, ocrReader } = opts;
  const init: WorkerInit = { entry: ENTRY, dataDir, engines, galleryDir, hashBankDir, keywordsDir, policyDir, ocrReader };
  const worker = new Worker(BOOT, { workerData: init, name: `detect-${index}` });
  return { index, worker, ready: false, started: false, exited: false, jobs: [] };
}

/** One of the slot's jobs is over (settled by the caller): the others get a fresh timeout; with the last, it is cleared. */
export function finishJob(slot: Slot, job: Job): void {
  slot.jobs = slot.jobs.filter((j) => j !== job);
  clearTimeout(slot.timer);
  slot.timer = undefined;
  if (slot.jobs.length > 0 && slot.jobTimeoutMs !== undefined) armTimeout(slot, slot.jobTimeoutMs);
}

/** Past `ms` without a result, the jobs still running are rejected and the worker terminated (its exit brings a replacement). */
function armTimeout(slot: Slot, ms: number): void {
  slot.timer = setTimeout(() => {
    slot.ready = false; // no new job until the replacement is up
    const late = slot.jobs;
    slot.jobs = [];
    slot.timer = undefined;
    for (const job of late) job.reject(new JobTimeoutError(`frame not detected within ${ms} ms; worker ${slot.index} restarted`));
    void slot.worker.terminate(); // onExit spawns the replacement
  }, ms);
}

const jobMessage = (job: Job & { input: FrameInput }): JobMessage => {
  const { imgTypes, imgBusinessTypes, lang } = job.input;
  return { type: "job", id: job.id, jpeg: job.bytes, imgTypes: [...imgTypes], imgBusinessTypes: [...imgBusinessTypes], lang: lang ?? "zh" };
};

/**
 * Hand jobs to the worker: one job, or several frames as one batch (each settles on its own). jobTimeoutMs without
 * any result (counted again after each one) rejects those still running and terminates the worker.
 */
export function dispatchJobs(slot: Slot, jobs: Job[], jobTimeoutMs: number): void {
  const frames = jobs.filter((j): j is Job & { input: FrameInput } => j.input !== undefined);
  let msg: ToWorker;
  if (jobs.length > 1 && frames.length === jobs.length) msg = { type: "batch", jobs: frames.map(jobMessage) };
  else if (jobs.length === 1 && frames.length === 1) msg = jobMessage(frames[0]);
  else if (jobs.length === 1) msg = { type: "embed", id: jobs[0].id, image: jobs[0].bytes };
  else throw new Error("only frames are detected in a batch");
  try {
    try {
      slot.worker.postMessage(msg, jobs.map((j) => j.bytes.buffer as ArrayBuffer));
    } catch {
      slot.worker.postMessage(msg); // an untransferable buffer (e.g. Node's Buffer pool) is cloned instead
    }
  } catch (e) {
    // not even a copy could be sent (a detached buffer): these jobs fail, the worker stays free for the next
    for (const job of jobs) job.reject(e as Error);
    return;
  }
  slot.jobs = [...jobs];
  slot.dispatchedAt = Date.now();
  slot.jobTimeoutMs = jobTimeoutMs;
  armTimeout(slot, jobTimeoutMs);
}

/** Stop a worker on purpose: reject its jobs, let it close its models, force it after 3 s. */
export async function retireSlot(slot: Slot, reason: Error): Promise<void> {
  slot.retiring = true;
  slot.ready = false;
  const jobs = slot.jobs;
  slot.jobs = [];
  clearTimeout(slot.timer);
  for (const job of jobs) job.reject(reason);
  if (slot.exited) return;
  const exited = new Promise<void>((resolve) => slot.worker.once("exit", () => resolve()));
  if (!slot.started) {
    await slot.worker.terminate();
    return;
  }
  slot.worker.postMessage({ type: "close" } satisfies ToWorker);
  const force = setTimeout(() => void slot.worker.terminate(), 3000);
  await exited;
  clearTimeout(force);
}
