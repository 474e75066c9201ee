import path from "node:path";
import type { LiveFrame, LiveSegment } from "../ingest/live";
import type { StreamState, TaskRow } from "../store/schema";
import type { EngineContext } from "./context";
import { worst } from "./file-result";
import type { StreamProduct } from "./pull-retries";
import { cadenceSecOf, NO_HEALTH_SINK, retriesAllowed, StreamHealthMonitor, type HealthSink } from "../health/monitor";
import type { StreamCounters, StreamHealthSnapshot } from "../../lib/stream-health";
import { PreviewRecorder } from "../preview";
import { pullShapeOf, type StreamBridge } from "./stream-bridge";
import { initialStreamState, streamTypesOf, type StreamRequest, type StreamTypes } from "./stream-request";
import type { LaneDeps, RiskLevel } from "./stream-lane";
import { FrameLane } from "./stream-frames";
import { SegmentLane } from "./stream-segments";
import { BridgeAdoption } from "./stream-adopt";
import { CallbackChain, FencedState } from "./stream-save";
import { endStream, StreamDrain } from "./stream-end";
import { advanceByFrame, advanceBySegment } from "./stream-position";
import { StreamPulls } from "./stream-pulls";
import { diskShortage } from "../store/disk-guard";
import { sourceDataOf } from "./source-secrets";

// the request's shape and initial state live in stream-request.ts; importers of this module still find them here
export { initialStreamState, type StreamRequest } from "./stream-request";

/** Process shutdown (the task stays running and resumes at the next start): how long it still detects what it holds. */
const STOP_DRAIN_MS = 5000;

/** Counters (captured = checked + notChecked + waiting + detecting), pull state, input meter (server/health). */
export type StreamHealth = StreamHealthSnapshot;

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
  private stopping = false;
  private closed = false;
  private closing: Promise<void> | null = null;
  private loop: Promise<void> | null = null;
  private ending: Promise<void> | null = null;
  private endStored: Promise<void> | null = null;
  private endDone = false;
  /** When the detectors last could not keep up with this stream (a frame or segment left the backlog unchecked). */
  private behindAt = 0;
  private readonly types: StreamTypes;
  private readonly monitor: StreamHealthMonitor;
  /** video streams: the live preview and REJECT clips (server/preview); null when PREVIEW_RETENTION_MIN is 0 */
  private readonly preview: PreviewRecorder | null;
  /** what each pull captures */
  private readonly shape: { frameIntervalSec: number | null; audio: boolean };
  /** this task's own pull, with its retries */
  private readonly pulls: StreamPulls;
  /** the task row's writes (fenced by the lease in scaled mode) and the callbacks queued after them */
  private readonly saved: FencedState;
  private readonly callbacks: CallbackChain;
  private readonly frames: FrameLane;
  private readonly segments: SegmentLane;
  private readonly drain: StreamDrain;
  /** scaled mode, a stream handed over gracefully: the bridge pull that fills in until this task's own pull delivers */
  private readonly adoption: BridgeAdoption;

  constructor(
    private readonly ctx: EngineContext,
    private readonly row: TaskRow,
    private readonly onEnded: (requestId: string, health: StreamHealth) => void,
    healthSink: HealthSink = NO_HEALTH_SINK,
    bridge: StreamBridge | null = null,
  ) {
    const requestId = row.requestId;
    this.shape = pullShapeOf(row);
    this.product = row.kind as StreamProduct;
    this.req = row.request as unknown as StreamRequest;
    this.state = { ...initialStreamState(), ...(row.state ?? {}) };
    this.dir = path.join(ctx.mediaRoot, requestId);
    const { shape, product, req, state, dir } = this;
    this.types = streamTypesOf(product, req);
    this.monitor = new StreamHealthMonitor({
      requestId,
      cadenceSec: cadenceSecOf(product, req.data),
      retries: retriesAllowed(product, String(req.data.streamType ?? "NORMAL")),
      audioPulled: product === "audiostream" || this.types.audio.length > 0,
      source: { counters: () => this.counters(), meter: () => this.pulls.meter() },
      sink: healthSink,
      disk: () => diskShortage(ctx.config.dataDir),
    });
    this.preview = product === "videostream" && ctx.config.preview.retentionMin > 0 ? new PreviewRecorder(dir, ctx.config.preview, (m) => ctx.log(`stream ${requestId}: ${m}`)) : null;
    const { monitor, preview } = this;
    this.saved = new FencedState({ ctx, requestId, state, fence: ctx.config.scale.on ? row.leaseOwner : null, onLost: () => this.loseLease() });
    this.callbacks = new CallbackChain(ctx, requestId, this.saved);
    const lane: LaneDeps = {
      ctx,
      requestId,
      req,
      noteRisk: (level) => this.noteRisk(level),
      noteBehind: () => (this.behindAt = Date.now()),
      noteLag: (lagSec) => {
        const bound = ctx.config.streamAdmissionLagSec;
        if (bound > 0 && lagSec > bound) this.behindAt = Date.now();
      },
      changed: () => this.drain.changed(),
      emit: (enqueue) => this.callbacks.emit(enqueue),
      mediaUrl: (file) => this.mediaUrl(file),
    };
    this.frames = new FrameLane({ ...lane, imgTypes: this.types.img, imgBusinessTypes: this.types.imgBusiness, preview });
    this.segments = new SegmentLane({ ...lane, product, dir, audioRiskTypes: this.types.audioRisk, audioBusinessTypes: this.types.audioBusiness });
    this.drain = new StreamDrain({ ctx, requestId, frames: this.frames, segments: this.segments, callbacks: this.callbacks });
    const stopping = () => this.stopping;
    const own = { onFrame: (f: LiveFrame) => this.onFrame(f), onSegment: (s: LiveSegment) => this.onSegment(s) };
    this.pulls = new StreamPulls({ ctx, requestId, req, sourceData: sourceDataOf(row), product, dir, shape, state, monitor, preview, stopping, ...own, finish: (reason, errorCode) => this.finish(reason, errorCode) });
    const adopted = { frame: (f: LiveFrame) => this.onFrame(f, true), segment: (s: LiveSegment) => this.onSegment(s, true) };
    this.adoption = new BridgeAdoption(bridge, { ctx, requestId, dir, state, shape, stopping, ...adopted });
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
      frames: this.frames.counters(),
      segments: this.segments.counters(),
    };
  }

  /** Scaled mode: records that the stream moved between workers (a health event: the gap explains itself). */
  noteHandover(message: string): void {
    this.monitor.handover(message);
  }

  /** True when a frame or segment of this stream was left unchecked for want of detector time, or checked too late, within `windowMs`. */
  behindWithin(windowMs: number): boolean {
    return this.behindAt > 0 && Date.now() - this.behindAt <= windowMs;
  }

  start(): void {
    // a crash interrupted this task's end (its reason was stored): complete the end, never pull again
    if (this.state.endReason) {
      this.loop = this.finish(this.state.endReason, this.state.endErrorCode, true);
      return;
    }
    this.monitor.start();
    this.adoption.start();
    this.loop = this.pulls.run().catch((err) => {
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
        this.pulls.wakeUp();
        this.adoption.stop();
        // what the pull captured before the Close is still detected and called back (the drain)
        await this.pulls.stop(true);
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
    this.drain.limit(Date.now() + drainMs);
    this.drain.changed();
    this.pulls.wakeUp();
    this.adoption.stop();
    await this.pulls.stop();
    await this.loop;
    await this.closing;
    if (this.ending) {
      // an end already begun completes (briefly drained), with its stream-end
      await this.ending;
      return;
    }
    if (drainMs > 0) await this.drain.run(Date.now() + drainMs, false);
    await this.saved.save();
    await this.preview?.close(false);
  }

  /** A frame of this task's pull or adopted from the bridge: the stream's position advances, then it is detected. */
  private onFrame(f: LiveFrame, bridged = false): void {
    advanceByFrame(this.state, f, { bridged, pullBase: this.pulls.base });
    if (!bridged) this.adoption.ownFrame();
    this.frames.take(f);
  }

  private onSegment(s: LiveSegment, bridged = false): void {
    advanceBySegment(this.state, s, { bridged, pullBase: this.pulls.base }, this.product === "audiostream");
    if (!bridged) this.adoption.ownSegment();
    this.segments.take(s);
  }

  private mediaUrl(file: string): string {
    return this.ctx.media.url(this.row.baseUrl, `${this.requestId}/${path.basename(file)}`, this.row.expiresAt);
  }

  private noteRisk(level: RiskLevel): void {
    this.state.worstRisk = worst([this.state.worstRisk, level]);
    this.saved.saveSoon();
  }

  /** Scaled mode: another process holds the stream now. Stop pulling and detecting here at once, write nothing more. */
  private loseLease(): void {
    this.ctx.log(`stream ${this.requestId}: its lease is held elsewhere now; stopping here without writing`);
    this.stopping = true;
    this.drain.cutAt(Date.now());
    // what waits for detection is the new holder's to capture again: dropped here, not called back
    this.frames.dropWaiting();
    this.segments.dropWaiting();
    this.drain.changed();
    this.pulls.wakeUp();
    this.adoption.stop();
    void this.pulls.stop()?.catch(() => undefined);
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
    this.pulls.wakeUp();
    this.adoption.stop();
    this.state.endReason = reason;
    if (errorCode) this.state.endErrorCode = errorCode;
    if (!resumed) this.monitor.ended(reason === "closed" || reason === "ended" ? reason : "failed", errorCode ?? null);
    this.endStored = this.saved.save();
    this.ending = this.endStored
      .then(() => this.completeEnd(reason, errorCode, resumed))
      .catch((err) => this.ctx.log(`stream ${this.requestId}: end failed: ${(err as Error).stack ?? err}`));
    return this.ending;
  }

  private async completeEnd(reason: NonNullable<StreamState["endReason"]>, errorCode: number | undefined, resumed: boolean): Promise<void> {
    const { ctx, requestId, req, product, state, pulls, drain, callbacks, saved, preview } = this;
    await endStream({ ctx, requestId, req, product, state, audioTypes: this.types.audio, errorCode, resumed, pulls, drain, callbacks, saved, preview });
    this.endDone = true;
    const h = this.health();
    this.ctx.log(`stream ${this.requestId} ended: ${reason}${errorCode ? ` (errorCode ${errorCode})` : ""}; frames ${h.frames.captured} captured, ${h.frames.checked} checked, ${h.frames.notChecked} not checked`);
    this.onEnded(this.requestId, h);
  }
}
