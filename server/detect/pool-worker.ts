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

/** One of the slot's jobs is over (settled by the caller); with the last, the timeout is cleared. */
export function finishJob(slot: Slot, job: Job): void {
  slot.jobs = slot.jobs.filter((j) => j !== job);
  if (slot.jobs.length > 0) return;
  clearTimeout(slot.timer);
  slot.timer = undefined;
}

const jobMessage = (job: Job & { input: FrameInput }): JobMessage => {
  const { imgTypes, imgBusinessTypes, lang } = job.input;
  return { type: "job", id: job.id, jpeg: job.bytes, imgTypes: [...imgTypes], imgBusinessTypes: [...imgBusinessTypes], lang: lang ?? "zh" };
};

/**
 * Hand jobs to the worker: one job, or several frames as one batch (detected together). Past jobTimeoutMs per job
 * those still running are rejected and the worker terminated (its exit brings a replacement).
 */
export function dispatchJobs(slot: Slot, jobs: Job[], jobTimeoutMs: number): void {
  slot.jobs = [...jobs];
  slot.dispatchedAt = Date.now();
  slot.timer = setTimeout(() => {
    slot.ready = false; // no new job until the replacement is up
    const late = slot.jobs;
    slot.jobs = [];
    slot.timer = undefined;
    for (const job of late) job.reject(new JobTimeoutError(`frame not detected within ${jobTimeoutMs * jobs.length} ms; worker ${slot.index} restarted`));
    void slot.worker.terminate(); // onExit spawns the replacement
  }, jobTimeoutMs * jobs.length);
  const frames = jobs.filter((j): j is Job & { input: FrameInput } => j.input !== undefined);
  let msg: ToWorker;
  if (jobs.length > 1 && frames.length === jobs.length) msg = { type: "batch", jobs: frames.map(jobMessage) };
  else if (jobs.length === 1 && frames.length === 1) msg = jobMessage(frames[0]);
  else if (jobs.length === 1) msg = { type: "embed", id: jobs[0].id, image: jobs[0].bytes };
  else throw new Error("only frames are detected in a batch");
  try {
    slot.worker.postMessage(msg, jobs.map((j) => j.bytes.buffer as ArrayBuffer));
  } catch {
    slot.worker.postMessage(msg); // an untransferable buffer (e.g. Node's Buffer pool) is cloned instead
  }
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
