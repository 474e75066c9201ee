// A live task's own pull of its stream: opened again with retries (§4) until the stream ends, fails for good, or
// the task stops.
import fs from "node:fs/promises";
import { metrics } from "../metrics";
import type { StreamHealthMonitor } from "../health/monitor";
import type { LiveFrame, LivePull, LivePullEnd, LiveSegment } from "../ingest/live";
import { streamSourceFor } from "../ingest/stream-source";
import type { PreviewRecorder } from "../preview";
import { diskShortage } from "../store/disk-guard";
import type { StreamState } from "../store/schema";
import type { EngineContext } from "./context";
import { pullRetryDelayMs, type StreamProduct } from "./pull-retries";
import type { StreamRequest } from "./stream-request";
import { mediaEgress } from "./url-policy";

export interface PullDeps {
  ctx: EngineContext;
  requestId: string;
  req: StreamRequest;
  /** the source's `data` with its credentials (source-secrets.ts): what the pull opens, never echoed */
  sourceData: Record<string, unknown>;
  product: StreamProduct;
  /** the task's folder: the pull writes its frames and segments there */
  dir: string;
  /** what each pull captures */
  shape: { frameIntervalSec: number | null; audio: boolean };
  /** the task's state: numbers what the pull captures */
  state: StreamState;
  monitor: StreamHealthMonitor;
  preview: PreviewRecorder | null;
  /** the task stops (Close, end, shutdown, lease lost): no pull is opened again */
  stopping(): boolean;
  onFrame(f: LiveFrame): void;
  onSegment(s: LiveSegment): void;
  /** the stream ended by itself or its retries are exhausted */
  finish(reason: "ended" | "failed", errorCode?: number): Promise<void>;
}

export class StreamPulls {
  private pull: LivePull | null = null;
  private wake: (() => void) | null = null;
  private pullBase = 0;

  constructor(private readonly d: PullDeps) {}

  /** The stream time the current pull started at (its frames' and segments' times count from it). */
  get base(): number {
    return this.pullBase;
  }

  meter() {
    return this.pull?.meter?.() ?? null;
  }

  /** Stops the pull that runs, if one does; `keepCaptured` (a Close): what it captured before is still announced. */
  stop(keepCaptured = false): Promise<void> | undefined {
    return this.pull?.stop({ keepCaptured });
  }

  /** Ends a wait before the next retry at once. */
  wakeUp(): void {
    this.wake?.();
  }

  async run(): Promise<void> {
    const { ctx, req, state, monitor } = this.d;
    const source = streamSourceFor(this.d.sourceData, mediaEgress(ctx), ctx.config.webrtc);
    await fs.mkdir(this.d.dir, { recursive: true });
    await this.d.preview?.open();
    const d = req.data;
    let retry = 0;
    const dataDir = ctx.config.dataDir;
    while (!this.d.stopping()) {
      // DATA_DIR under DATA_DIR_MIN_FREE_MB: no pull (nothing written) until space is back; the health says why
      const shortage = diskShortage(dataDir);
      if (shortage) {
        monitor.paused();
        ctx.log(`stream ${this.d.requestId}: paused, ${shortage}`);
        await this.waitUntil(() => this.d.stopping() || !diskShortage(dataDir));
        if (this.d.stopping()) return;
        ctx.log(`stream ${this.d.requestId}: disk space back, pulling again`);
      }
      this.pullBase = state.streamTimeSec;
      monitor.connecting(retry);
      const pull = source.open({
        ...this.d.shape,
        outDir: this.d.dir,
        // numbered here, one counter for this pull and a bridge's frames
        nextIndex: { frame: () => state.nextFrameIndex++, segment: () => state.nextSegmentIndex++ },
        onFrame: (f) => this.d.onFrame(f),
        onSegment: (s) => this.d.onSegment(s),
        onStarted: () => monitor.connected(),
        preview: this.d.preview ?? undefined,
        keyframes: ctx.config.liveKeyframes,
      });
      this.pull = pull;
      if (this.d.stopping()) void pull.stop(); // a Close or stop() that came while it was being opened
      // the disk fills while it pulls: stopped (what it captured is still announced), the loop waits for space
      let diskFull = false;
      const watch = setInterval(() => {
        if (diskFull || !diskShortage(dataDir)) return;
        diskFull = true;
        void pull.stop({ keepCaptured: true });
      }, DISK_WATCH_MS);
      const end = await pull.done.catch((err: Error) => noSpaceEnd(err)).finally(() => clearInterval(watch));
      this.pull = null;
      if (this.d.stopping()) return;
      // a frame that could not be written for lack of space (ENOSPC): removed, not announced; wait for space too
      if (diskFull || (end.reason === "failed" && end.message === NO_SPACE && diskShortage(dataDir))) continue;
      if (end.reason === "stopped") return;
      if (end.gotData) retry = 0;
      if (end.reason === "ended" && end.finite) {
        monitor.pullEnded(end, null);
        return this.d.finish("ended");
      }
      retry++;
      const streamType = String(d.streamType ?? "NORMAL");
      const delay = pullRetryDelayMs(this.d.product, streamType, retry, ctx.config.streamRetryTimeScale);
      monitor.pullEnded(end, delay === null ? null : { attempt: retry, delayMs: delay });
      if (delay === null) return this.d.finish("failed", end.reason === "failed" ? end.errorCode : 3001);
      metrics().pullRetries.inc();
      ctx.log(`stream ${this.d.requestId}: pull ${end.reason}${end.reason === "failed" ? ` (${end.message})` : ""}; retry ${retry} in ${delay} ms`);
      await this.sleep(delay);
    }
  }

  /** Looks every DISK_WATCH_MS until `done()` (a wakeUp — Close, stop — looks at once). */
  private async waitUntil(done: () => boolean): Promise<void> {
    while (!done()) await this.sleep(DISK_WATCH_MS);
  }

  /** Waits `ms`, or less when woken (Close, stop). */
  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
    this.wake = null;
  }
}

const DISK_WATCH_MS = 1000;
const NO_SPACE = "cannot write the task's media directory: disk full (ENOSPC)";

/** A pull whose frame or clip could not be written for lack of space ends as failed, saying so; other errors stand. */
export function noSpaceEnd(err: Error): LivePullEnd {
  const code = (err.cause as NodeJS.ErrnoException | undefined)?.code;
  if (code !== "ENOSPC" && code !== "EDQUOT") throw err;
  return { reason: "failed", errorCode: 3002, message: NO_SPACE, gotData: true };
}
