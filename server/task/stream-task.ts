import fs from "node:fs/promises";
import { renameSync } from "node:fs";
import { metrics } from "../metrics";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { parseTypeList, IMG_TYPES, IMG_BUSINESS_TYPES, AUDIO_TYPES, AUDIO_BUSINESS_TYPES, AUDIOSTREAM_TYPES, AUDIOSTREAM_BUSINESS_TYPES } from "../../lib/contract/taxonomy";
import type { FrameVerdict } from "../detect";
import type { SegmentVerdict } from "../detect/audio";
import type { QueuedFrameInput } from "../detect/pool";
import type { LiveFrame, LivePull, LiveSegment } from "../ingest/live";
import { streamSourceFor } from "../ingest/stream-source";
import { mediaEgress } from "./url-policy";
import { tasks, type StreamState, type TaskRow } from "../store/schema";
import type { EngineContext } from "./context";
import { worst } from "./file-result";
import { pullRetryDelayMs, type StreamProduct } from "./pull-retries";
import { audioStreamEnd, audioStreamSegmentResult, frameResult, videoStreamAudioResult, videoStreamEnd } from "./stream-callbacks";
import { concatWavs, detectAudio } from "./audio-verdict";
import { cadenceSecOf, NO_HEALTH_SINK, retriesAllowed, StreamHealthMonitor, type HealthSink } from "../health/monitor";
import type { StreamCounters, StreamHealthSnapshot } from "../../lib/stream-health";
import { PreviewRecorder } from "../preview";
import { pullShapeOf, type StreamBridge } from "./stream-bridge";

/** Audio segments of one stream waiting for detection; past it the oldest is called back not checked. */
const MAX_SEGMENT_BACKLOG = 3;
/** Process shutdown (the task stays running and resumes at the next start): how long it still detects what it holds. */
const STOP_DRAIN_MS = 5000;
/** A bridge pull (stream-bridge.ts) runs no longer than this after the task starts, whatever its own pull does. */
const BRIDGE_MAX_MS = 30_000;
/** A bridged audio segment is taken only when it ends this much after the newest one taken (it overlaps it otherwise). */
const SEGMENT_OVERLAP_MS = 1000;

interface FrameJob {
  f: LiveFrame;
  settled: boolean;
  begin?: number;
  abort?: AbortController;
}

interface SegmentJob {
  s: LiveSegment;
  previous: LiveSegment | null;
  settled: boolean;
  begin?: number;
}

/** Counters (captured = checked + notChecked + waiting + detecting), pull state, input meter (server/health). */
export type StreamHealth = StreamHealthSnapshot;

type Level = "PASS" | "REVIEW" | "REJECT";

export interface StreamRequest {
  imgType?: string;
  imgBusinessType?: string;
  audioType?: string;
  audioBusinessType?: string;
  type?: string;
  businessType?: string;
  imgCallback?: string;
  audioCallback?: string;
  callback?: string;
  acceptLang?: "zh" | "en";
  data: Record<string, unknown> & { btId?: string; room?: string; extra?: { passThrough?: Record<string, unknown> } };
}

export const initialStreamState = (): StreamState => ({ nextFrameIndex: 1, nextSegmentIndex: 1, worstRisk: "PASS", gotFrame: false, streamTimeSec: 0 });

/**
 * One running live task: pulls with retries (§4), detects, and queues callbacks; ends once, with a reason.
 * Every frame and audio segment it captures is accounted for: checked, or called back as not checked
 * (`auxInfo.detectType: 2`) when its stream's backlog overflows or the end's drain bound runs out.
 */
export class StreamTask {
  private readonly product: StreamProduct;
  private readonly req: StreamRequest;
  private readonly state: StreamState;
  private readonly dir: string;
  private pull: LivePull | null = null;
  private stopping = false;
  private closed = false;
  private closing: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** callbacks are queued one after another, in the order their frames/segments were settled */
  private emits: Promise<void> = Promise.resolve();
  /** set once the drain of an end is over: nothing may be queued after the stream-end */
  private sealed = false;
  private readonly frameQueue: FrameJob[] = [];
  private readonly frameDetecting = new Set<FrameJob>();
  private readonly segmentQueue: SegmentJob[] = [];
  private segmentDetecting: SegmentJob | null = null;
  private readonly frames = { captured: 0, checked: 0, notChecked: 0 };
  private readonly segments = { captured: 0, checked: 0, notChecked: 0, skipped: 0 };
  private lastSegment: LiveSegment | null = null;
  private previousText: string | undefined;
  private pullBase = 0;
  private loop: Promise<void> | null = null;
  private ending: Promise<void> | null = null;
  private endStored: Promise<void> | null = null;
  private endDone = false;
  /** drains end no later than this (ms since epoch); a process shutdown lowers it */
  private drainCap = Infinity;
  /**
   * Scaled mode: the lease this task runs under (server/scale). Its writes to the task row are fenced by it: once
   * another process holds the stream, this one's state never overwrites the holder's.
   */
  private readonly fence: string | null;
  private leaseLost = false;
  private changeWaiters: Array<() => void> = [];
  private saveTimer: NodeJS.Timeout | null = null;
  private readonly imgTypes: string[];
  private readonly imgBusinessTypes: string[];
  private readonly audioTypes: string[];
  private readonly audioRiskTypes: string[];
  private readonly audioBusinessTypes: string[];
  private readonly monitor: StreamHealthMonitor;
  /** video streams: the live preview and REJECT clips (server/preview); null when PREVIEW_RETENTION_MIN is 0 */
  private readonly preview: PreviewRecorder | null;
  /** what each pull captures */
  private readonly shape: { frameIntervalSec: number | null; audio: boolean };
  /** scaled mode, a stream handed over gracefully: the pull that fills in until this task's own pull delivers */
  private bridge: StreamBridge | null;
  /** this task's own pull delivered a frame / a segment (the bridge is no longer needed for it) */
  private readonly ownDelivered = { frame: false, segment: false };

  constructor(
    private readonly ctx: EngineContext,
    private readonly row: TaskRow,
    private readonly onEnded: (requestId: string, health: StreamHealth) => void,
    healthSink: HealthSink = NO_HEALTH_SINK,
    bridge: StreamBridge | null = null,
  ) {
    this.bridge = bridge;
    this.shape = pullShapeOf(row);
    this.product = row.kind as StreamProduct;
    this.req = row.request as unknown as StreamRequest;
    this.state = { ...initialStreamState(), ...(row.state ?? {}) };
    this.fence = ctx.config.scale.on ? row.leaseOwner : null;
    this.dir = path.join(ctx.mediaRoot, row.requestId);
    const r = this.req;
    this.imgTypes = this.product === "videostream" ? [...parseTypeList(r.imgType ?? "", IMG_TYPES).types] : [];
    this.imgBusinessTypes = this.product === "videostream" ? [...parseTypeList(r.imgBusinessType ?? "", IMG_BUSINESS_TYPES).types] : [];
    const video = this.product === "videostream";
    this.audioRiskTypes = video ? parseTypeList(r.audioType ?? "", AUDIO_TYPES).types.filter((t) => t !== "NONE") : [...parseTypeList(r.type ?? "", AUDIOSTREAM_TYPES).types];
    this.audioBusinessTypes = [...parseTypeList((video ? r.audioBusinessType : r.businessType) ?? "", video ? AUDIO_BUSINESS_TYPES : AUDIOSTREAM_BUSINESS_TYPES).types];
    this.audioTypes = [...this.audioRiskTypes, ...this.audioBusinessTypes];
    this.monitor = new StreamHealthMonitor({
      requestId: row.requestId,
      cadenceSec: cadenceSecOf(this.product, r.data),
      retries: retriesAllowed(this.product, String(r.data.streamType ?? "NORMAL")),
      audioPulled: this.product === "audiostream" || this.audioTypes.length > 0,
      source: { counters: () => this.counters(), meter: () => this.pull?.meter?.() ?? null },
      sink: healthSink,
    });
    this.preview = video && ctx.config.preview.retentionMin > 0 ? new PreviewRecorder(this.dir, ctx.config.preview, (m) => ctx.log(`stream ${row.requestId}: ${m}`)) : null;
  }

  get requestId(): string {
    return this.row.requestId;
  }

  /** Its end has begun (Close, natural end, pull failure): it pulls no more and only drains what it captured. */
  get isEnding(): boolean {
    return this.closed || this.ending !== null;
  }

  health(): StreamHealth {
    return this.monitor.snapshot();
  }

  private counters(): StreamCounters & { phase: StreamHealth["phase"] } {
    return {
      phase: this.endDone ? "ended" : this.isEnding ? "ending" : "running",
      frames: { ...this.frames, waiting: this.frameQueue.length, detecting: this.frameDetecting.size },
      segments: { ...this.segments, waiting: this.segmentQueue.length, detecting: this.segmentDetecting ? 1 : 0 },
    };
  }

  /** Scaled mode: records that the stream moved between workers (a health event: the gap explains itself). */
  noteHandover(message: string): void {
    this.monitor.handover(message);
  }

  start(): void {
    // a crash interrupted this task's end (its reason was stored): complete the end, never pull again
    if (this.state.endReason) {
      this.loop = this.finish(this.state.endReason, this.state.endErrorCode, true);
      return;
    }
    this.monitor.start();
    if (this.bridge) {
      this.bridge.attach({ frame: (f) => this.onBridgeFrame(f), segment: (s) => this.onBridgeSegment(s) });
      setTimeout(() => this.stopBridge(), BRIDGE_MAX_MS).unref();
    }
    this.loop = this.run().catch((err) => {
      this.ctx.log(`stream ${this.requestId}: ${(err as Error).stack ?? err}`);
      return this.finish("failed", 3002);
    });
  }

  /**
   * Close endpoint: stops the pull at once and begins the end. Resolves once the pull is stopped and the end
   * is stored; the drain (everything already captured is detected and called back, bounded by
   * STREAM_DRAIN_TIMEOUT_SEC) and then the stream-end (when asked for) follow: `whenEnded()`.
   */
  close(): Promise<void> {
    if (!this.closing) {
      this.closed = true;
      this.closing = (async () => {
        this.stopping = true;
        this.wake?.();
        this.stopBridge();
        await this.pull?.stop();
        // a task whose end a crash interrupted keeps its stored reason; one already ending (natural end,
        // retries exhausted) keeps its own
        void this.finish(this.state.endReason ?? "closed", this.state.endErrorCode, this.state.endReason !== undefined);
        await this.endStored;
      })();
    }
    return this.closing;
  }

  /** Resolves once the task has ended (its stream-ends queued) or stopped. */
  async whenEnded(): Promise<void> {
    await this.closing;
    await this.loop;
    await this.ending;
  }

  /**
   * Process shutdown: stop pulling but keep the task running in the store, to resume at next start. `drainMs` 0
   * (scaled mode, the lease went to another process) stops without detecting what waits: the holder owns it now.
   */
  async stop(drainMs = STOP_DRAIN_MS): Promise<void> {
    this.stopping = true;
    this.monitor.stop();
    this.drainCap = Math.min(this.drainCap, Date.now() + drainMs);
    this.changed();
    this.wake?.();
    this.stopBridge();
    await this.pull?.stop();
    await this.loop;
    await this.closing;
    if (this.ending) {
      // an end already begun completes (briefly drained), with its stream-end
      await this.ending;
      return;
    }
    if (drainMs > 0) await this.drain(Date.now() + drainMs, false);
    await this.save();
    await this.preview?.close(false);
  }

  private async run(): Promise<void> {
    const source = streamSourceFor(this.req.data, mediaEgress(this.ctx));
    await fs.mkdir(this.dir, { recursive: true });
    await this.preview?.open();
    const d = this.req.data;
    let retry = 0;
    while (!this.stopping) {
      this.pullBase = this.state.streamTimeSec;
      this.monitor.connecting(retry);
      const pull = source.open({
        ...this.shape,
        outDir: this.dir,
        // numbered here, one counter for this pull and a bridge's frames
        nextIndex: { frame: () => this.state.nextFrameIndex++, segment: () => this.state.nextSegmentIndex++ },
        onFrame: (f) => this.onFrame(f),
        onSegment: (s) => this.onSegment(s),
        onStarted: () => this.monitor.connected(),
        preview: this.preview ?? undefined,
      });
      this.pull = pull;
      if (this.stopping) void pull.stop(); // a Close or stop() that came while it was being opened
      const end = await pull.done;
      this.pull = null;
      if (this.stopping || end.reason === "stopped") return;
      if (end.gotData) retry = 0;
      if (end.reason === "ended" && end.finite) {
        this.monitor.pullEnded(end, null);
        return this.finish("ended");
      }
      retry++;
      const streamType = String(d.streamType ?? "NORMAL");
      const delay = pullRetryDelayMs(this.product, streamType, retry, this.ctx.config.streamRetryTimeScale);
      this.monitor.pullEnded(end, delay === null ? null : { attempt: retry, delayMs: delay });
      if (delay === null) return this.finish("failed", end.reason === "failed" ? end.errorCode : 3001);
      metrics().pullRetries.inc();
      this.ctx.log(`stream ${this.requestId}: pull ${end.reason}${end.reason === "failed" ? ` (${end.message})` : ""}; retry ${retry} in ${delay} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  // ---- frames ----

  private onFrame(f: LiveFrame, bridged = false): void {
    this.state.nextFrameIndex = Math.max(this.state.nextFrameIndex, f.index + 1);
    this.state.gotFrame = true;
    const at = f.capturedAt.getTime();
    if (bridged) this.state.streamTimeSec += Math.max(0, (at - (this.state.lastFrameAt ?? at)) / 1000);
    else this.state.streamTimeSec = Math.max(this.state.streamTimeSec, this.pullBase + f.streamTimeSec);
    this.state.lastFrameAt = Math.max(this.state.lastFrameAt ?? 0, at);
    if (!bridged && !this.ownDelivered.frame) {
      this.ownDelivered.frame = true;
      this.bridgeServed();
    }
    this.frames.captured++;
    metrics().frames.inc({ state: "captured" });
    const job: FrameJob = { f, settled: false };
    const step = Number(this.req.data.detectStep ?? 0);
    if (step > 1 && (f.index - 1) % step !== 0) {
      this.settleFrame(job, null); // skipped by detectStep (§2.1): called back as not checked
      return;
    }
    this.frameQueue.push(job);
    // the detectors cannot keep up: the oldest waiting frame is called back now, as not checked
    while (this.frameQueue.length > this.ctx.config.streamFrameBacklog) {
      this.settleFrame(this.frameQueue.shift()!, null);
      this.noteBehind();
    }
    this.pumpFrames();
  }

  /** Up to one frame per detect worker in flight; the pool serves streams round-robin. */
  private pumpFrames(): void {
    const max = Math.max(1, this.ctx.config.detectWorkers);
    while (this.frameDetecting.size < max && this.frameQueue.length) {
      const job = this.frameQueue.shift()!;
      this.frameDetecting.add(job);
      void this.detectFrame(job).finally(() => {
        this.frameDetecting.delete(job);
        this.pumpFrames();
        this.changed();
      });
    }
  }

  private async detectFrame(job: FrameJob): Promise<void> {
    job.begin = Date.now();
    job.abort = new AbortController();
    const bizStep = Math.max(1, Number(this.req.data.imgBusinessDetectStep ?? 1));
    let verdict: FrameVerdict | null = null;
    try {
      const input: QueuedFrameInput = {
        jpeg: new Uint8Array(await fs.readFile(job.f.path)),
        imgTypes: this.imgTypes,
        imgBusinessTypes: (job.f.index - 1) % bizStep === 0 ? this.imgBusinessTypes : [],
        lang: this.lang,
        lane: `stream:${this.requestId}`,
        signal: job.abort.signal,
      };
      verdict = await this.ctx.detect.detectFrame(input);
    } catch (err) {
      if (!job.settled) this.ctx.log(`stream ${this.requestId}: frame ${job.f.index} not detected: ${(err as Error).message}`);
    }
    this.settleFrame(job, verdict);
  }

  /** Counts the frame once, checked (verdict) or not checked (null), and queues its callback. */
  /** When the detectors last could not keep up with this stream (a frame or segment left the backlog unchecked). */
  private behindAt = 0;

  private noteBehind(): void {
    this.behindAt = Date.now();
  }

  /** True when a frame or segment of this stream was left unchecked for want of detector time within `windowMs`. */
  behindWithin(windowMs: number): boolean {
    return this.behindAt > 0 && Date.now() - this.behindAt <= windowMs;
  }

  private settleFrame(job: FrameJob, verdict: FrameVerdict | null): void {
    if (job.settled) return;
    job.settled = true;
    job.abort?.abort(); // a job still queued in the pool leaves it
    if (verdict) this.frames.checked++;
    else this.frames.notChecked++;
    metrics().frames.inc({ state: verdict ? "checked" : "not_checked" });
    if (verdict) metrics().detectionLag.observe((Date.now() - job.f.capturedAt.getTime()) / 1000);
    const v = verdict ?? passVerdict(this.lang);
    this.noteRisk(v.riskLevel);
    if (v.riskLevel === "REJECT") this.preview?.clipAround(job.f.index, job.f.capturedAt);
    if (v.riskLevel === "PASS" && this.req.data.returnAllImg !== 1) return;
    const f = job.f;
    const step = Number(this.req.data.detectStep ?? 0);
    const body = frameResult({
      taskId: this.requestId,
      index: f.index,
      imgUrl: this.mediaUrl(f.path),
      verdict: v,
      detected: verdict !== null,
      stepped: step > 1 || verdict === null,
      capturedAt: f.capturedAt,
      begin: job.begin ?? Date.now(),
      finish: Date.now(),
      room: this.req.data.room,
      passThrough: this.req.data.extra?.passThrough,
    });
    this.emit(() => this.ctx.dispatcher.enqueue({ requestId: this.requestId, url: this.req.imgCallback!, body, schedule: "videostream" }));
  }

  // ---- audio segments ----

  private onSegment(s: LiveSegment, bridged = false): void {
    this.state.nextSegmentIndex = Math.max(this.state.nextSegmentIndex, s.index + 1);
    const end = s.endedAt.getTime();
    if (this.product === "audiostream") {
      if (bridged) this.state.streamTimeSec += Math.max(0, Math.min(s.endSec - s.startSec, (end - (this.state.lastSegmentEndAt ?? end)) / 1000));
      else this.state.streamTimeSec = Math.max(this.state.streamTimeSec, this.pullBase + s.endSec);
    }
    this.state.lastSegmentEndAt = Math.max(this.state.lastSegmentEndAt ?? 0, end);
    if (!bridged && !this.ownDelivered.segment) {
      this.ownDelivered.segment = true;
      this.bridgeServed();
    }
    this.segments.captured++;
    metrics().segments.inc({ state: "captured" });
    const step = Number(this.req.data.audioDetectStep ?? 0);
    const previous = this.lastSegment;
    this.lastSegment = s;
    if (step > 0 && (s.index - 1) % (step + 1) !== 0) {
      this.segments.skipped++; // skipped segments are not reviewed (§2.1)
      return;
    }
    this.segmentQueue.push({ s, previous, settled: false });
    while (this.segmentQueue.length > MAX_SEGMENT_BACKLOG) {
      this.settleSegment(this.segmentQueue.shift()!, null);
      this.noteBehind();
    }
    this.pumpSegments();
  }

  /** One segment at a time, in order (each passes its transcript to the next: returnPreText). */
  private pumpSegments(): void {
    if (this.segmentDetecting || !this.segmentQueue.length) return;
    const job = this.segmentQueue.shift()!;
    this.segmentDetecting = job;
    void this.detectSegment(job)
      .catch((err) => this.ctx.log(`stream ${this.requestId}: segment ${job.s.index}: ${(err as Error).stack ?? err}`))
      .finally(() => {
        this.settleSegment(job, null); // no-op unless it failed
        this.segmentDetecting = null;
        this.pumpSegments();
        this.changed();
      });
  }

  private async detectSegment(job: SegmentJob): Promise<void> {
    job.begin = Date.now();
    const previousText = this.req.data.returnPreText === 1 ? this.previousText : undefined;
    const verdict = await detectAudio(this.ctx.audio, { wavPath: job.s.path, types: this.audioRiskTypes, businessTypes: this.audioBusinessTypes, lang: this.lang, previousText }, this.ctx.log);
    if (job.settled) return;
    this.previousText = verdict.segmentText;
    this.settleSegment(job, verdict);
  }

  private settleSegment(job: SegmentJob, verdict: SegmentVerdict | null): void {
    if (job.settled) return;
    job.settled = true;
    if (verdict) this.segments.checked++;
    else this.segments.notChecked++;
    metrics().segments.inc({ state: verdict ? "checked" : "not_checked" });
    const v = verdict ?? unlabelledSegment(this.lang);
    this.noteRisk(v.riskLevel);
    const d = this.req.data;
    if (v.riskLevel === "PASS" && d.returnAllText !== 1) return;
    const { s, previous } = job;
    const begin = job.begin ?? Date.now();
    const finish = Date.now();
    this.emit(async () => {
      let preAudioUrl: string | undefined;
      if (d.returnPreAudio === 1 && v.riskLevel === "REJECT" && previous) {
        const file = path.join(this.dir, `pre${s.index}.wav`);
        await concatWavs(previous.path, s.path, file);
        preAudioUrl = this.mediaUrl(file);
      }
      const input = { taskId: this.requestId, index: s.index, audioUrl: this.mediaUrl(s.path), verdict: v, preAudioUrl, startedAt: s.startedAt, endedAt: s.endedAt, begin, finish, room: d.room, passThrough: d.extra?.passThrough, detected: verdict !== null };
      if (this.product === "videostream") {
        await this.ctx.dispatcher.enqueue({ requestId: this.requestId, url: this.req.audioCallback!, body: videoStreamAudioResult(input), schedule: "videostream" });
      } else {
        const body = audioStreamSegmentResult({ ...input, btId: String(d.btId ?? ""), requestParams: this.requestParams() });
        await this.ctx.dispatcher.enqueue({ requestId: this.requestId, url: this.req.callback!, body, schedule: "audiostream" });
      }
    });
  }

  // ---- the bridge (stream-bridge.ts): what another pull captured while this task's own pull was starting ----

  /** A bridged frame captured after the newest one taken is adopted under the next number; older ones are dropped. */
  private onBridgeFrame(f: LiveFrame): void {
    if (this.stopping || this.ownDelivered.frame || f.capturedAt.getTime() <= (this.state.lastFrameAt ?? 0)) return void fs.rm(f.path, { force: true });
    const adopted = this.adopt(f.path, `f${this.state.nextFrameIndex}.jpg`);
    if (adopted) this.onFrame({ ...f, index: this.state.nextFrameIndex++, path: adopted }, true);
  }

  private onBridgeSegment(s: LiveSegment): void {
    if (this.stopping || this.ownDelivered.segment || s.endedAt.getTime() <= (this.state.lastSegmentEndAt ?? 0) + SEGMENT_OVERLAP_MS) return void fs.rm(s.path, { force: true });
    const adopted = this.adopt(s.path, `a${this.state.nextSegmentIndex}.wav`);
    if (adopted) this.onSegment({ ...s, index: this.state.nextSegmentIndex++, path: adopted }, true);
  }

  /** Moves a bridged file into the task's folder (same file system: a rename, before anyone reads it). */
  private adopt(from: string, name: string): string | null {
    const to = path.join(this.dir, name);
    try {
      renameSync(from, to);
      return to;
    } catch (err) {
      this.ctx.log(`stream ${this.requestId}: a bridged file could not be taken: ${(err as Error).message}`);
      return null;
    }
  }

  /** The own pull delivered what the bridge stood in for: the bridge stops. */
  private bridgeServed(): void {
    if (!this.bridge) return;
    if ((this.shape.frameIntervalSec === null || this.ownDelivered.frame) && (!this.shape.audio || this.ownDelivered.segment)) this.stopBridge();
  }

  private stopBridge(): void {
    const b = this.bridge;
    this.bridge = null;
    if (b) void b.stop().catch((err: Error) => this.ctx.log(`stream ${this.requestId}: stopping the bridge pull: ${err.message}`));
  }

  // ---- callbacks, drain ----

  /**
   * Queues one callback after every earlier one. The indexes are stored before the callback is queued:
   * after a crash the ids continue, never repeat.
   */
  private emit(enqueue: () => Promise<unknown>): void {
    if (this.sealed) {
      this.ctx.log(`stream ${this.requestId}: a callback after the stream's end was dropped (bug)`);
      return;
    }
    this.emits = this.emits
      .then(async () => {
        await this.save();
        // scaled mode: the save is fenced by the lease; one that found the stream held elsewhere sends nothing more
        if (this.leaseLost) return;
        await enqueue();
      })
      .catch((err) => this.ctx.log(`stream ${this.requestId}: ${(err as Error).stack ?? err}`));
  }

  private changed(): void {
    for (const w of this.changeWaiters.splice(0)) w();
  }

  private get undone(): number {
    return this.frameQueue.length + this.frameDetecting.size + this.segmentQueue.length + (this.segmentDetecting ? 1 : 0);
  }

  /**
   * Lets everything already captured be detected until `deadline` (or the drain cap), then calls back what is
   * still undone as not checked, and waits until every callback is queued. `seal`: nothing may follow.
   */
  private async drain(deadline: number, seal: boolean): Promise<void> {
    const started = Date.now();
    const before = this.undone;
    while (this.undone > 0) {
      const left = Math.min(deadline, this.drainCap) - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.changeWaiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    const late = this.undone;
    for (const job of [...this.frameQueue.splice(0), ...this.frameDetecting]) this.settleFrame(job, null);
    for (const job of [...this.segmentQueue.splice(0), ...(this.segmentDetecting ? [this.segmentDetecting] : [])]) this.settleSegment(job, null);
    if (before > 0) this.ctx.log(`stream ${this.requestId}: drained ${before - late} of ${before} frames/segments in ${Date.now() - started} ms${late ? `; ${late} called back not checked` : ""}`);
    if (seal) this.sealed = true;
    await this.emits;
  }

  private mediaUrl(file: string): string {
    return this.ctx.media.url(this.row.baseUrl, `${this.requestId}/${path.basename(file)}`, this.row.expiresAt);
  }

  private get lang(): "zh" | "en" {
    return this.req.acceptLang ?? "zh";
  }

  private requestParams(): Record<string, unknown> {
    return this.req.data;
  }

  private noteRisk(level: Level): void {
    this.state.worstRisk = worst([this.state.worstRisk, level]);
    if (!this.saveTimer) this.saveTimer = setTimeout(() => void this.save().catch((err) => this.ctx.log(`stream ${this.requestId}: ${err}`)), 1000);
  }

  private async save(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (this.leaseLost) return;
    const saved = await this.ctx.store.db
      .update(tasks)
      .set({ state: { ...this.state }, updatedAt: new Date() })
      .where(this.fenced())
      .returning({ id: tasks.requestId });
    if (saved.length === 0 && this.fence !== null) this.loseLease();
  }

  /** The row this task may write: in scaled mode only while its lease is still this process's. */
  private fenced() {
    return this.fence === null ? eq(tasks.requestId, this.requestId) : and(eq(tasks.requestId, this.requestId), eq(tasks.leaseOwner, this.fence));
  }

  /** Scaled mode: another process holds the stream now. Stop pulling and detecting here at once, write nothing more. */
  private loseLease(): void {
    if (this.leaseLost) return;
    this.leaseLost = true;
    this.ctx.log(`stream ${this.requestId}: its lease is held elsewhere now; stopping here without writing`);
    this.stopping = true;
    this.drainCap = Date.now();
    // what waits for detection is the new holder's to capture again: dropped here, not called back
    this.frameQueue.length = 0;
    this.segmentQueue.length = 0;
    this.changed();
    this.wake?.();
    this.stopBridge();
    void this.pull?.stop().catch(() => undefined);
  }

  /**
   * Ends the task once. Crash-safe in steps: the end reason is stored (a restart then completes the end
   * instead of pulling), what was captured is drained (bounded by STREAM_DRAIN_TIMEOUT_SEC), the stream-ends
   * (returnFinishInfo=1) are queued after every result (after a crash only those not yet in the outbox), then
   * the task is marked ended.
   */
  private finish(reason: NonNullable<StreamState["endReason"]>, errorCode?: number, resumed = false): Promise<void> {
    if (this.ending) return this.ending;
    this.stopping = true;
    this.wake?.();
    this.stopBridge();
    this.state.endReason = reason;
    if (errorCode) this.state.endErrorCode = errorCode;
    if (!resumed) this.monitor.ended(reason === "closed" || reason === "ended" ? reason : "failed", errorCode ?? null);
    this.endStored = this.save();
    this.ending = this.endStored
      .then(() => this.completeEnd(reason, errorCode, resumed))
      .catch((err) => this.ctx.log(`stream ${this.requestId}: end failed: ${(err as Error).stack ?? err}`));
    return this.ending;
  }

  private async completeEnd(reason: NonNullable<StreamState["endReason"]>, errorCode: number | undefined, resumed: boolean): Promise<void> {
    await this.pull?.stop(); // ended by itself: already stopped
    await this.drain(Date.now() + this.ctx.config.streamDrainTimeoutSec * 1000, true);
    // scaled mode: a stream whose lease went elsewhere mid-end is ended by its holder, with the stream-end (the
    // fenced save tells, right before it would be sent)
    if (this.fence !== null) await this.emits.then(() => this.save()).catch(() => undefined);
    if (this.req.data.returnFinishInfo === 1 && !this.leaseLost) {
      type End = { statCode?: number; contentType?: number };
      const endKey = (url: string, body: End) => `${body.contentType ?? 0} ${url}`;
      const queued = resumed ? (await this.ctx.dispatcher.deliveriesFor(this.requestId)).map((d) => ({ d, body: JSON.parse(d.body) as End })).filter((x) => x.body.statCode === 1).map((x) => endKey(x.d.url, x.body)) : [];
      const send = async (url: string, body: End, schedule: "videostream" | "audiostream") => {
        if (!queued.includes(endKey(url, body))) await this.ctx.dispatcher.enqueue({ requestId: this.requestId, url, body, schedule });
      };
      const requestParams = this.requestParams();
      if (this.product === "videostream") {
        const common = { taskId: this.requestId, worst: this.state.worstRisk, gotFrame: this.state.gotFrame, streamTimeSec: this.state.streamTimeSec, errorCode, requestParams };
        await send(this.req.imgCallback!, videoStreamEnd({ ...common, contentType: 1 }), "videostream");
        if (this.audioTypes.length > 0 && this.req.audioCallback) await send(this.req.audioCallback, videoStreamEnd({ ...common, contentType: 2 }), "videostream");
      } else {
        const body = audioStreamEnd({ taskId: this.requestId, btId: String(this.req.data.btId ?? ""), streamTimeSec: this.state.streamTimeSec, errorCode, requestParams });
        await send(this.req.callback!, body, "audiostream");
      }
    }
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.preview?.close(true); // clips still waiting (REJECTs of the drain too) are cut from what the preview holds
    if (!this.leaseLost) await this.ctx.store.db.update(tasks).set({ status: "ended", state: { ...this.state }, updatedAt: new Date() }).where(this.fenced());
    this.endDone = true;
    const h = this.health();
    this.ctx.log(`stream ${this.requestId} ended: ${reason}${errorCode ? ` (errorCode ${errorCode})` : ""}; frames ${h.frames.captured} captured, ${h.frames.checked} checked, ${h.frames.notChecked} not checked`);
    this.onEnded(this.requestId, h);
  }
}

function unlabelledSegment(lang: "zh" | "en"): SegmentVerdict {
  return { riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: lang === "en" ? "Normal" : "正常", vadCode: 0, riskDetail: { riskSource: 1000 }, allLabels: [], businessLabels: [], silent: false, applied: [], notApplied: [], timingsMs: {} };
}

function passVerdict(lang: "zh" | "en"): FrameVerdict {
  return { riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: lang === "en" ? "Normal" : "正常", riskDetail: { riskSource: 1000 }, allLabels: [], businessLabels: [], applied: [], notApplied: [], timingsMs: {} };
}
