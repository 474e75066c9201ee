// A live task's end, once its reason is stored: the drain of what it captured (bounded), the stream-ends
// (returnFinishInfo=1), and the fenced save that marks the task ended.
import type { PreviewRecorder } from "../preview";
import type { StreamState } from "../store/schema";
import type { EngineContext } from "./context";
import type { StreamProduct } from "./pull-retries";
import { audioStreamEnd, videoStreamEnd } from "./stream-callbacks";
import type { DrainLane } from "./stream-lane";
import type { StreamRequest } from "./stream-request";
import type { StreamPulls } from "./stream-pulls";
import type { CallbackChain, FencedState } from "./stream-save";

export interface DrainDeps {
  ctx: Pick<EngineContext, "log">;
  requestId: string;
  frames: DrainLane;
  segments: DrainLane;
  callbacks: CallbackChain;
}

export class StreamDrain {
  /** drains end no later than this (ms since epoch); a process shutdown lowers it */
  private cap = Infinity;
  private waiters: Array<() => void> = [];

  constructor(private readonly d: DrainDeps) {}

  /** A frame or segment finished (or the cap moved): a drain under way looks again. */
  changed(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Drains end by `at` at the latest (process shutdown). */
  limit(at: number): void {
    this.cap = Math.min(this.cap, at);
  }

  /** Drains end at `at`, whatever was set before (the lease went elsewhere). */
  cutAt(at: number): void {
    this.cap = at;
  }

  private get undone(): number {
    return this.d.frames.undone + this.d.segments.undone;
  }

  /**
   * Lets everything already captured be detected until `deadline` (or the drain cap), then calls back what is
   * still undone as not checked, and waits until every callback is queued. `seal`: nothing may follow.
   */
  async run(deadline: number, seal: boolean): Promise<void> {
    const started = Date.now();
    const before = this.undone;
    while (this.undone > 0) {
      const left = Math.min(deadline, this.cap) - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    const late = this.undone;
    this.d.frames.settleAll();
    this.d.segments.settleAll();
    if (before > 0) this.d.ctx.log(`stream ${this.d.requestId}: drained ${before - late} of ${before} frames/segments in ${Date.now() - started} ms${late ? `; ${late} called back not checked` : ""}`);
    if (seal) this.d.callbacks.seal();
    await this.d.callbacks.settled;
  }
}

export interface StreamEndInput {
  ctx: Pick<EngineContext, "dispatcher" | "config">;
  requestId: string;
  req: StreamRequest;
  product: StreamProduct;
  state: StreamState;
  /** the audio types asked for: a video stream's audio stream-end goes out only with some */
  audioTypes: string[];
  errorCode: number | undefined;
  /** after a crash: only the stream-ends not yet in the outbox */
  resumed: boolean;
}

export interface EndInput extends StreamEndInput {
  /** the task's own pull (stopped already when it ended by itself) */
  pulls: Pick<StreamPulls, "stop">;
  drain: StreamDrain;
  callbacks: CallbackChain;
  saved: FencedState;
  preview: PreviewRecorder | null;
}

/** Resolves once the task row is marked ended (not when its lease went elsewhere meanwhile: its holder ends it). */
export async function endStream(e: EndInput): Promise<void> {
  await e.pulls.stop(true); // ended by itself: already stopped; after a Close: its stop, still keeping what it captured
  await e.drain.run(Date.now() + e.ctx.config.streamDrainTimeoutSec * 1000, true);
  // scaled mode: a stream whose lease went elsewhere mid-end is ended by its holder, with the stream-end (the
  // fenced save tells, right before it would be sent)
  if (e.saved.fenced) await e.callbacks.settled.then(() => e.saved.save()).catch(() => undefined);
  if (e.req.data.returnFinishInfo === 1 && !e.saved.leaseLost) await queueStreamEnds(e);
  e.saved.cancelSoon();
  await e.preview?.close(true); // clips still waiting (REJECTs of the drain too) are cut from what the preview holds
  await e.saved.saveEnded();
}

/** Queues the stream-ends after every result. */
async function queueStreamEnds({ ctx, requestId, req, product, state, audioTypes, errorCode, resumed }: StreamEndInput): Promise<void> {
  type End = { statCode?: number; contentType?: number };
  const endKey = (url: string, body: End) => `${body.contentType ?? 0} ${url}`;
  const queued = resumed ? (await ctx.dispatcher.deliveriesFor(requestId)).map((d) => ({ d, body: JSON.parse(d.body) as End })).filter((x) => x.body.statCode === 1).map((x) => endKey(x.d.url, x.body)) : [];
  const send = async (url: string, body: End, schedule: "videostream" | "audiostream") => {
    if (!queued.includes(endKey(url, body))) await ctx.dispatcher.enqueue({ requestId, url, body, schedule });
  };
  const requestParams = req.data;
  if (product === "videostream") {
    const common = { taskId: requestId, worst: state.worstRisk, gotFrame: state.gotFrame, streamTimeSec: state.streamTimeSec, errorCode, requestParams };
    await send(req.imgCallback!, videoStreamEnd({ ...common, contentType: 1 }), "videostream");
    if (audioTypes.length > 0 && req.audioCallback) await send(req.audioCallback, videoStreamEnd({ ...common, contentType: 2 }), "videostream");
  } else {
    const body = audioStreamEnd({ taskId: requestId, btId: String(req.data.btId ?? ""), streamTimeSec: state.streamTimeSec, errorCode, requestParams });
    await send(req.callback!, body, "audiostream");
  }
}
