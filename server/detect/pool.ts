// Worker-thread pool: one frame per worker at a time, crashed or stuck workers replaced. Queued jobs wait in
// lanes (pool-lanes.ts) served round-robin, so a stream's next frame never waits behind a whole file or behind
// another stream's backlog.
import { prepareTessdata } from "./engines/tessdata";
import { errorFromWorker, PoolClosedError, QueueFullError, WorkerCrashedError } from "./errors";
import { DEFAULT_LANE, LaneQueue, abortError, type Job, type QueuedFrameInput } from "./pool-lanes";
import { dispatchJobs, finishJob, ownedBytes, retireSlot, startSlot, type Slot } from "./pool-worker";
import type { FromWorker, ToWorker } from "./protocol";
import { ALL_ENGINES, BATCHED_ENGINES, capabilityTable, engineForImgType } from "./registry";
import { countsOf } from "./store";
import type { Capability, CapabilityView, DetectPool, DetectPoolOptions, DetectPoolStats, EngineName, FaceEmbedding, FrameVerdict } from "./types";

export type { QueuedFrameInput } from "./pool-lanes";

const MAX_INIT_FAILURES = 3;

export class WorkerDetectPool implements DetectPool {
  private readonly workers: number;
  private readonly queueLimit: number;
  private readonly jobTimeoutMs: number;
  private readonly slots: Slot[] = [];
  private readonly queue = new LaneQueue();
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
  private readonly batches = { count: 0, frames: 0 };
  private readonly engines: EngineName[];
  private readonly maxBatch: number;

  constructor(private readonly opts: DetectPoolOptions) {
    this.engines = [...new Set(opts.engines ?? ALL_ENGINES)];
    this.workers = Math.max(1, Math.floor(opts.workers ?? 1));
    this.queueLimit = Math.max(1, Math.floor(opts.queueLimit ?? 64));
    this.jobTimeoutMs = opts.jobTimeoutMs ?? 60_000;
    this.maxBatch = Math.max(1, Math.floor(opts.maxBatch ?? 1));
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
  capabilities(o: CapabilityView = {}): Capability[] {
    const bank = this.opts.hashBankDir ? Object.values(countsOf(this.opts.hashBankDir)).reduce((a, b) => a + b, 0) : undefined;
    return capabilityTable({ engines: new Set(this.engines), gallery: this.opts.galleryDir ? countsOf(this.opts.galleryDir) : undefined, bankSize: bank, ocrReader: this.opts.ocrReader }, o);
  }

  stats(): DetectPoolStats {
    const perDetectorMs: DetectPoolStats["perDetectorMs"] = {};
    for (const [k, v] of Object.entries(this.perDetectorMs)) perDetectorMs[k] = { ...v };
    return { pending: this.pending(), processed: this.processed, perDetectorMs, batches: { ...this.batches } };
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
    if (this.pending() >= this.queueLimit && this.queue.queuedIn(lane) > 0) return Promise.reject(new QueueFullError(this.queueLimit));
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
    if (this.pending() >= this.queueLimit && this.queue.queuedIn(DEFAULT_LANE) > 0) return Promise.reject(new QueueFullError(this.queueLimit));
    return new Promise<FaceEmbedding | null>((resolve, reject) => {
      this.enqueue({ id: this.nextId++, lane: DEFAULT_LANE, bytes: ownedBytes(image), resolve: resolve as (v: never) => void, reject });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new PoolClosedError();
    this.settleReady.reject(err);
    for (const job of this.queue.takeAll()) job.reject(err);
    await Promise.all(this.slots.map((slot) => retireSlot(slot, err)));
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
    return this.queue.size + this.slots.reduce((n, s) => n + s.jobs.length, 0);
  }

  private enqueue(job: Job, signal?: AbortSignal): void {
    this.queue.push(job, signal);
    this.pump();
  }

  private spawn(index: number): Slot {
    const slot = startSlot(index, this.opts, this.engines);
    this.slots[index] = slot;
    slot.worker.on("message", (m: FromWorker) => this.onMessage(slot, m));
    slot.worker.on("error", (e: Error) => (slot.lastError = e));
    slot.worker.on("exit", (code) => this.onExit(slot, code));
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
      const job = slot.jobs.find((j) => j.id === m.id);
      if (!job) return;
      const hold = this.minJobMs - (Date.now() - (slot.dispatchedAt ?? 0));
      if (hold > 0) {
        setTimeout(() => slot.jobs.includes(job) && this.complete(slot, job, m), hold);
        return;
      }
      this.complete(slot, job, m);
    }
  }

  private complete(slot: Slot, job: Job, m: Exclude<FromWorker, { type: "ready" } | { type: "init-error" }>): void {
    finishJob(slot, job);
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
    for (const job of slot.jobs) {
      finishJob(slot, job);
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
    for (const job of this.queue.takeAll()) job.reject(e);
    for (const slot of this.slots) void retireSlot(slot, e);
  }

  private pump(): void {
    const idle = this.slots.filter((slot) => slot.ready && slot.jobs.length === 0 && !slot.retiring);
    for (const [k, slot] of idle.entries()) {
      if (this.queue.size === 0) return;
      // frames waiting at this moment go as one batch (round-robin over the lanes, so frames of different streams)
      // when they ask for an engine that takes one; nothing waits for a batch to fill, and the waiting frames are
      // shared among the idle workers first (a batch never leaves a worker idle while frames wait)
      const cap = Math.min(this.maxBatch, Math.ceil(this.queue.size / (idle.length - k)));
      const jobs = [this.queue.take()!];
      while (jobs.length < cap && this.batchable(jobs[0]) && this.batchable(this.queue.peek())) jobs.push(this.queue.take()!);
      if (jobs.length > 1) {
        this.batches.count++;
        this.batches.frames += jobs.length;
      }
      dispatchJobs(slot, jobs, this.jobTimeoutMs);
    }
  }

  /** A frame asking for a type whose engine takes a batch (NSFW). */
  private batchable(job: Job | undefined): boolean {
    return !!job?.input && job.input.imgTypes.some((t) => {
      const e = engineForImgType(t);
      return e !== undefined && this.engines.includes(e) && (BATCHED_ENGINES as readonly EngineName[]).includes(e);
    });
  }
}
