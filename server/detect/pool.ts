// Worker-thread pool: one frame per worker at a time, crashed or stuck workers replaced. Queued jobs wait in
// lanes (one per live stream; unlabelled jobs, e.g. a file's frames, share one) served round-robin, so a
// stream's next frame never waits behind a whole file or behind another stream's backlog.
import { Worker } from "node:worker_threads";
import { prepareTessdata } from "./engines/tessdata";
import { errorFromWorker, JobTimeoutError, PoolClosedError, QueueFullError, WorkerCrashedError } from "./errors";
import type { FromWorker, JobMessage, ToWorker, WorkerInit } from "./protocol";
import { ALL_ENGINES, capabilityTable } from "./registry";
import { countsOf } from "./store";
import type { Capability, DetectPool, DetectPoolOptions, DetectPoolStats, EngineName, FaceEmbedding, FrameInput, FrameVerdict } from "./types";

/**
 * A frame with its fairness lane and an optional abort. Lanes are served round-robin (one job from each lane
 * in turn); an aborted job still queued is dropped and rejects with AbortError (a running one completes).
 */
export interface QueuedFrameInput extends FrameInput {
  lane?: string;
  signal?: AbortSignal;
}

const DEFAULT_LANE = "";

interface Job {
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

interface Slot {
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
  /** queued jobs by lane; Map order is the round-robin order (a served lane with more jobs moves to the end) */
  private readonly lanes = new Map<string, Job[]>();
  private queued = 0;
  private minJobMs = 0;
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
    // only the Tesseract reader needs its traineddata prepared (PaddleOCR's models ship in an npm package)
    (this.engines.includes("ocr") && opts.ocrReader === "tesseract" ? prepareTessdata(opts.dataDir) : Promise.resolve()).then(
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
    return capabilityTable({ engines: new Set(this.engines), gallery: this.opts.galleryDir ? countsOf(this.opts.galleryDir) : undefined, bankSize: bank, ocrReader: this.opts.ocrReader });
  }

  stats(): DetectPoolStats {
    const perDetectorMs: DetectPoolStats["perDetectorMs"] = {};
    for (const [k, v] of Object.entries(this.perDetectorMs)) perDetectorMs[k] = { ...v };
    return { pending: this.pending(), processed: this.processed, perDetectorMs };
  }

  /**
   * Rejects with QueueFullError when queueLimit jobs are pending, except that a lane with nothing queued may
   * always queue one job (no stream is refused because others filled the queue).
   */
  detectFrame(input: QueuedFrameInput): Promise<FrameVerdict> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    if (this.failure) return Promise.reject(this.failure);
    if (!(input?.jpeg instanceof Uint8Array)) return Promise.reject(new TypeError("FrameInput.jpeg must be a Uint8Array"));
    if (!Array.isArray(input.imgTypes) || !Array.isArray(input.imgBusinessTypes)) {
      return Promise.reject(new TypeError("FrameInput.imgTypes and imgBusinessTypes must be arrays"));
    }
    const lane = input.lane ?? DEFAULT_LANE;
    if (this.pending() >= this.queueLimit && (this.lanes.get(lane)?.length ?? 0) > 0) return Promise.reject(new QueueFullError(this.queueLimit));
    if (input.signal?.aborted) return Promise.reject(abortError());
    return new Promise<FrameVerdict>((resolve, reject) => {
      this.enqueue({ id: this.nextId++, lane, input, bytes: ownedBytes(input.jpeg), resolve: resolve as (v: never) => void, reject }, input.signal);
    });
  }

  /** Embed the largest face of an image in a worker (queued like a frame); null when no face reaches the threshold. */
  embedLargestFace(image: Uint8Array): Promise<FaceEmbedding | null> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    if (this.failure) return Promise.reject(this.failure);
    if (!(image instanceof Uint8Array)) return Promise.reject(new TypeError("image must be a Uint8Array"));
    if (!this.engines.includes("faces")) return Promise.reject(new Error("faces engine not loaded in this pool"));
    if (this.pending() >= this.queueLimit && (this.lanes.get(DEFAULT_LANE)?.length ?? 0) > 0) return Promise.reject(new QueueFullError(this.queueLimit));
    return new Promise<FaceEmbedding | null>((resolve, reject) => {
      this.enqueue({ id: this.nextId++, lane: DEFAULT_LANE, bytes: ownedBytes(image), resolve: resolve as (v: never) => void, reject });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new PoolClosedError();
    this.settleReady.reject(err);
    for (const job of this.takeAll()) job.reject(err);
    await Promise.all(this.slots.map((slot) => this.retire(slot, err)));
  }

  /**
   * Test hook: every job occupies its worker for at least `ms` (the result is held back until then), so tests
   * can make detection scarce with real workers and the real queue.
   */
  setMinJobMsForTest(ms: number): void {
    this.minJobMs = Math.max(0, ms);
  }

  /** Test hook: make worker `index` throw an uncaught error, as a model crash would. */
  injectCrashForTest(index = 0): void {
    this.slots[index]?.worker.postMessage({ type: "crash" } satisfies ToWorker);
  }

  private pending(): number {
    return this.queued + this.slots.filter((s) => s.job).length;
  }

  private enqueue(job: Job, signal?: AbortSignal): void {
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
    this.pump();
  }

  /** The next job round-robin over the lanes: the first lane's oldest job; that lane then goes to the end. */
  private take(): Job | undefined {
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

  private takeAll(): Job[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    this.queued = 0;
    for (const job of all) job.unlisten?.();
    return all;
  }

  private spawn(index: number): Slot {
    const { dataDir, galleryDir, hashBankDir, keywordsDir, policyDir, ocrReader } = this.opts;
    const init: WorkerInit = { entry: ENTRY, dataDir, engines: this.engines, galleryDir, hashBankDir, keywordsDir, policyDir, ocrReader };
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
      const hold = this.minJobMs - (Date.now() - (slot.dispatchedAt ?? 0));
      if (hold > 0) {
        setTimeout(() => slot.job === job && this.complete(slot, job, m), hold);
        return;
      }
      this.complete(slot, job, m);
    }
  }

  private complete(slot: Slot, job: Job, m: Exclude<FromWorker, { type: "ready" } | { type: "init-error" }>): void {
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
    for (const job of this.takeAll()) job.reject(e);
    for (const slot of this.slots) void this.retire(slot, e);
  }

  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queued === 0) return;
      if (slot.ready && !slot.job && !slot.retiring) this.dispatch(slot, this.take()!);
    }
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.dispatchedAt = Date.now();
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

function abortError(): Error {
  return new DOMException("frame detection aborted before it started", "AbortError");
}
