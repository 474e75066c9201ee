// A second pull of the same live stream that bridges a switch of pulls, so the switch leaves no gap: a pull's first
// frame needs a connection and a keyframe (seconds), longer than a 1 s cadence. Scaled mode: a worker taking over a
// stream that its holder hands over gracefully opens a bridge first; the holder stops pulling only once the bridge
// captures, and the new holder's task adopts the bridge's frames captured after the holder's last one until its own
// pull (with the preview) delivers. Frames and segments are written to a scratch folder and kept until the task
// adopts them (renamed into the task's folder under its own numbers) or the bridge is dropped.
import fs from "node:fs/promises";
import path from "node:path";
import { parseTypeList, AUDIO_TYPES, AUDIO_BUSINESS_TYPES } from "../../lib/contract/taxonomy";
import type { LiveFrame, LivePull, LiveSegment } from "../ingest/live";
import { streamSourceFor } from "../ingest/stream-source";
import { sourceDataOf } from "./source-secrets";
import type { TaskRow } from "../store/schema";
import type { EngineContext } from "./context";
import { mediaEgress } from "./url-policy";

/** Frames and segments a bridge keeps while no task has taken it (older ones are deleted). */
const KEEP_FRAMES = 30;
const KEEP_SEGMENTS = 6;

/** What a task's pulls capture: a frame every N s (video streams) and whether the audio is cut into segments. */
export function pullShapeOf(row: Pick<TaskRow, "kind" | "request">): { frameIntervalSec: number | null; audio: boolean } {
  const r = row.request as Record<string, unknown> & { data: Record<string, unknown> };
  if (row.kind === "audiostream") return { frameIntervalSec: null, audio: true };
  const audio = parseTypeList(String(r.audioType ?? ""), AUDIO_TYPES).types.some((t) => t !== "NONE") || parseTypeList(String(r.audioBusinessType ?? ""), AUDIO_BUSINESS_TYPES).types.length > 0;
  return { frameIntervalSec: Math.max(1, Math.min(60, Math.floor(Number(r.data.detectFrequency ?? 3)))), audio };
}

export interface BridgeSink {
  frame(f: LiveFrame): void;
  segment(s: LiveSegment): void;
}

export class StreamBridge {
  private readonly frames: LiveFrame[] = [];
  private readonly segments: LiveSegment[] = [];
  private sink: BridgeSink | null = null;
  private readonly pull: LivePull;
  private stopped: Promise<void> | null = null;
  private markReady: (ok: boolean) => void = () => undefined;
  /** true once it captures (a frame; for an audio-only stream, media); false if its pull ended first */
  readonly ready: Promise<boolean>;
  readonly dir: string;

  constructor(ctx: EngineContext, row: TaskRow, owner: string) {
    this.dir = path.join(ctx.mediaRoot, row.requestId, `.bridge-${owner.replace(/[^\w.-]/g, "_")}-${Date.now()}`);
    this.ready = new Promise<boolean>((resolve) => (this.markReady = resolve));
    const shape = pullShapeOf(row);
    this.pull = streamSourceFor(sourceDataOf(row), mediaEgress(ctx), ctx.config.webrtc).open({
      ...shape,
      outDir: this.dir,
      onStarted: () => {
        if (shape.frameIntervalSec === null) this.markReady(true);
      },
      onFrame: (f) => {
        this.markReady(true);
        if (this.sink) return this.sink.frame(f);
        this.frames.push(f);
        for (const old of this.frames.splice(0, Math.max(0, this.frames.length - KEEP_FRAMES))) void fs.rm(old.path, { force: true });
      },
      onSegment: (s) => {
        if (this.sink) return this.sink.segment(s);
        this.segments.push(s);
        for (const old of this.segments.splice(0, Math.max(0, this.segments.length - KEEP_SEGMENTS))) void fs.rm(old.path, { force: true });
      },
    });
    void this.pull.done.then(
      () => this.markReady(false),
      () => this.markReady(false),
    );
  }

  /** The task takes what the bridge holds (oldest first) and everything it captures from now on. */
  attach(sink: BridgeSink): void {
    this.sink = sink;
    for (const f of this.frames.splice(0)) sink.frame(f);
    for (const s of this.segments.splice(0)) sink.segment(s);
  }

  /** Stops its pull and removes what was not adopted. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.sink = null;
      await this.pull.stop().catch(() => undefined);
      await this.pull.done.catch(() => undefined);
      await fs.rm(this.dir, { recursive: true, force: true });
    })();
    return this.stopped;
  }
}
