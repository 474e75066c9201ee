// Worker-thread pool: bounded FIFO queue, one frame per worker at a time, crashed or stuck workers replaced.
import { Worker } from "node:worker_threads";
import { prepareTessdata } from "./engines/tessdata";
import { errorFromWorker, JobTimeoutError, PoolClosedError, QueueFullError, WorkerCrashedError } from "./errors";
import type { FromWorker, JobMessage, ToWorker, WorkerInit } from "./protocol";
import { ALL_ENGINES, capabilityTable } from "./registry";
import { countsOf } from "./store";
import type { Capability, DetectPool, DetectPoolOptions, DetectPoolStats, EngineName, FaceEmbedding, FrameInput, FrameVerdict } from "./types";

interface Job {
  id: number;
  /** a frame to detect, or (no input) an image whose largest face to embed */
  input?: FrameInput;
  bytes: Uint8Array;
  resolve: (v: never) => void;
  reject: (e: Error) => void;
}

interface Slot {
  index: number;
  worker: Worker;
  /** accepting jobs */
  ready: boolean;
  /** reported ready at least once (a worker that exits before that failed to start) */
  started: boolean;
  exited: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  lastError?: Error;
  /** set when the pool itself stops this worker (close or timeout): its exit is expected */
  retiring?: boolean;
}

const MAX_INIT_FAILURES = 3;
const BOOT = new URL("./worker-boot.mjs", import.meta.url);
const ENTRY = new URL("./worker.ts", import.meta.url).href;

/** Bytes the worker can own: the caller's own buffer when the view spans it (transferred), else one copy. */
function ownedBytes(jpeg: Uint8Array): Uint8Array {
  const whole = jpeg.byteOffset === 0 && jpeg.byteLength === jpeg.buffer.byteLength;
  return whole && jpeg.buffer instanceof ArrayBuffer ? jpeg : new Uint8Array(jpeg);
}

export class WorkerDetectPool implements DetectPool {
  private readonly workers: number;
  private readonly queueLimit: number;
  private readonly jobTimeoutMs: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly perDetectorMs: Record<string, { count: number; totalMs: number }> = {};
  private readonly readyPromise: Promise<void>;
  private readyWaiters = new Set<Slot>();
  private settleReady!: { resolve: () => void; reject: (e: Error) => void };
  private initFailures = 0;
  private failure: Error | undefined;
  private closed = false;
  private nextId = 1;
  private processed = 0;
  private readonly engines: EngineName[];

  constructor(private readonly opts: DetectPoolOptions) {
    this.engines = [...new Set(opts.engines ?? ALL_ENGINES)];
    this.workers = Math.max(1, Math.floor(opts.workers ?? 1));
    this.queueLimit = Math.max(1, Math.floor(opts.queueLimit ?? 64));
    this.jobTimeoutMs = opts.jobTimeoutMs ?? 60_000;
    this.readyPromise = new Promise<void>((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.readyPromise.catch(() => {}); // surfaced through ready() / detectFrame(), never as an unhandled rejection
    // only the OCR engine needs its traineddata prepared
    (this.engines.includes("ocr") ? prepareTessdata(opts.dataDir) : Promise.resolve()).then(
      () => {
        if (this.closed) return;
        for (let i = 0; i < this.workers; i++) this.readyWaiters.add(this.spawn(i));
      },
      (e: Error) => this.fail(new Error(`preparing OCR data in ${opts.dataDir} failed: ${e.message}`)),
    );
  }

  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** Computed per call: POLITY / PUBLICFIGURE / TAINTEDSTAR / VIOLENT follow the gallery and bank contents. */
  capabilities(): Capability[] {
    const bank = this.opts.hashBankDir ? Object.values(countsOf(this.opts.hashBankDir)).reduce((a, b) => a + b, 0) : undefined;
    return capabilityTable({ engines: new Set(this.engines), gallery: this.opts.galleryDir ? countsOf(this.opts.galleryDir) : undefined, bankSize: bank });
  }

  stats(): DetectPoolStats {
    const perDetectorMs: DetectPoolStats["perDetectorMs"] = {};
    for (const [k, v] of Object.entries(this.perDetectorMs)) perDetectorMs[k] = { ...v };
    return { pending: this.pending(), processed: this.processed, perDetectorMs };
  }

  detectFrame(input: FrameInput): Promise<FrameVerdict> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    if (this.failure) return Promise.reject(this.failure);
    if (!(input?.jpeg instanceof Uint8Array)) return Promise.reject(new TypeError("FrameInput.jpeg must be a Uint8Array"));
    if (!Array.isArray(input.imgTypes) || !Array.isArray(input.imgBusinessTypes)) {
      return Promise.reject(new TypeError("FrameInput.imgTypes and imgBusinessTypes must be arrays"));
    }
    if (this.pending() >= this.queueLimit) return Promise.reject(new QueueFullError(this.queueLimit));
    return new Promise<FrameVerdict>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, bytes: ownedBytes(input.jpeg), resolve: resolve as (v: never) => void, reject });
      this.pump();
    });
  }

  /** Embed the largest face of an image in a worker (queued like a frame); null when no face reaches the threshold. */
  embedLargestFace(image: Uint8Array): Promise<FaceEmbedding | null> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    if (this.failure) return Promise.reject(this.failure);
    if (!(image instanceof Uint8Array)) return Promise.reject(new TypeError("image must be a Uint8Array"));
    if (!this.engines.includes("faces")) return Promise.reject(new Error("faces engine not loaded in this pool"));
    if (this.pending() >= this.queueLimit) return Promise.reject(new QueueFullError(this.queueLimit));
    return new Promise<FaceEmbedding | null>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, bytes: ownedBytes(image), resolve: resolve as (v: never) => void, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new PoolClosedError();
    this.settleReady.reject(err);
    for (const job of this.queue.splice(0)) job.reject(err);
    await Promise.all(this.slots.map((slot) => this.retire(slot, err)));
  }

  /** Test hook: make worker `index` throw an uncaught error, as a model crash would. */
  injectCrashForTest(index = 0): void {
    this.slots[index]?.worker.postMessage({ type: "crash" } satisfies ToWorker);
  }

  private pending(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  private spawn(index: number): Slot {
    const { dataDir, galleryDir, hashBankDir, keywordsDir, policyDir } = this.opts;
    const init: WorkerInit = { entry: ENTRY, dataDir, engines: this.engines, galleryDir, hashBankDir, keywordsDir, policyDir };
    const worker = new Worker(BOOT, { workerData: init, name: `detect-${index}` });
    const slot: Slot = { index, worker, ready: false, started: false, exited: false };
    this.slots[index] = slot;
    worker.on("message", (m: FromWorker) => this.onMessage(slot, m));
    worker.on("error", (e: Error) => (slot.lastError = e));
    worker.on("exit", (code) => this.onExit(slot, code));
    return slot;
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    if (m.type === "ready") {
      slot.ready = true;
      slot.started = true;
      this.initFailures = 0;
      this.readyWaiters.delete(slot);
      if (this.readyWaiters.size === 0) this.settleReady.resolve();
      this.pump();
    } else if (m.type === "init-error") {
      slot.lastError = new Error(m.message);
    } else {
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      this.finish(slot);
      if (m.type === "result") {
        this.processed++;
        for (const [k, ms] of Object.entries(m.verdict.timingsMs)) {
          const agg = (this.perDetectorMs[k] ??= { count: 0, totalMs: 0 });
          agg.count++;
          agg.totalMs += ms;
        }
        (job.resolve as (v: FrameVerdict) => void)(m.verdict);
      } else if (m.type === "embedded") {
        (job.resolve as (v: FaceEmbedding | null) => void)(m.embedding);
      } else {
        job.reject(errorFromWorker(m.name, m.message));
      }
      this.pump();
    }
  }

  private onExit(slot: Slot, code: number): void {
    slot.exited = true;
    slot.ready = false;
    if (slot.job) {
      const job = slot.job;
      this.finish(slot);
      job.reject(new WorkerCrashedError(`detect worker ${slot.index} exited (code ${code})${slot.lastError ? `: ${slot.lastError.message}` : ""}`));
    }
    if (this.closed || this.failure || slot.retiring || this.slots[slot.index] !== slot) return;
    if (!slot.started && ++this.initFailures >= MAX_INIT_FAILURES) {
      this.fail(new Error(`detect worker failed to start ${MAX_INIT_FAILURES} times: ${slot.lastError?.message ?? `exit code ${code}`}`));
      return;
    }
    const fresh = this.spawn(slot.index);
    if (this.readyWaiters.delete(slot)) this.readyWaiters.add(fresh);
  }

  private fail(e: Error): void {
    this.failure = e;
    this.settleReady.reject(e);
    for (const job of this.queue.splice(0)) job.reject(e);
    for (const slot of this.slots) void this.retire(slot, e);
  }

  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.ready && !slot.job && !slot.retiring) this.dispatch(slot, this.queue.shift()!);
    }
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => {
      slot.ready = false; // no new job until the replacement is up
      this.finish(slot);
      job.reject(new JobTimeoutError(`frame not detected within ${this.jobTimeoutMs} ms; worker ${slot.index} restarted`));
      void slot.worker.terminate(); // onExit spawns the replacement
    }, this.jobTimeoutMs);
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
  private async retire(slot: Slot, reason: Error): Promise<void> {
    slot.retiring = true;
    slot.ready = false;
    if (slot.job) {
      const job = slot.job;
      this.finish(slot);
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
}
