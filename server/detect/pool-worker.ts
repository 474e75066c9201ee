// One detect worker thread of the pool and the job it runs: started, handed a job under a timeout, retired.
import { Worker } from "node:worker_threads";
import { JobTimeoutError } from "./errors";
import type { Job } from "./pool-lanes";
import type { JobMessage, ToWorker, WorkerInit } from "./protocol";
import type { DetectPoolOptions, EngineName } from "./types";

export interface Slot {
  index: number;
  worker: Worker;
  /** accepting jobs */
  ready: boolean;
  /** reported ready at least once (a worker that exits before that failed to start) */
  started: boolean;
  exited: boolean;
  job?: Job;
  /** when the current job was dispatched (test hook: minimum job time) */
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
  return { index, worker, ready: false, started: false, exited: false };
}

/** The slot's job is over (settled by the caller): its timeout is cleared. */
export function finishJob(slot: Slot): void {
  clearTimeout(slot.timer);
  slot.timer = undefined;
  slot.job = undefined;
}

/** Hand a job to the worker; past jobTimeoutMs it is rejected and the worker terminated (its exit brings a replacement). */
export function dispatchJob(slot: Slot, job: Job, jobTimeoutMs: number): void {
  slot.job = job;
  slot.dispatchedAt = Date.now();
  slot.timer = setTimeout(() => {
    slot.ready = false; // no new job until the replacement is up
    finishJob(slot);
    job.reject(new JobTimeoutError(`frame not detected within ${jobTimeoutMs} ms; worker ${slot.index} restarted`));
    void slot.worker.terminate(); // onExit spawns the replacement
  }, jobTimeoutMs);
  let msg: ToWorker;
  if (job.input) {
    const { imgTypes, imgBusinessTypes, lang } = job.input;
    msg = { type: "job", id: job.id, jpeg: job.bytes, imgTypes: [...imgTypes], imgBusinessTypes: [...imgBusinessTypes], lang: lang ?? "zh" } satisfies JobMessage;
  } else {
    msg = { type: "embed", id: job.id, image: job.bytes };
  }
  try {
    slot.worker.postMessage(msg, [job.bytes.buffer as ArrayBuffer]);
  } catch {
    slot.worker.postMessage(msg); // an untransferable buffer (e.g. Node's Buffer pool) is cloned instead
  }
}

/** Stop a worker on purpose: reject its job, let it close its models, force it after 3 s. */
export async function retireSlot(slot: Slot, reason: Error): Promise<void> {
  slot.retiring = true;
  slot.ready = false;
  if (slot.job) {
    const job = slot.job;
    finishJob(slot);
    job.reject(reason);
  }
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
