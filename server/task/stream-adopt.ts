// Scaled mode, a stream handed over gracefully: the new holder's task adopts what its bridge pull (stream-bridge.ts)
// captured after the old holder's last frame/segment, until the task's own pull delivers.
import fs from "node:fs/promises";
import { renameSync } from "node:fs";
import path from "node:path";
import type { LiveFrame, LiveSegment } from "../ingest/live";
import type { StreamState } from "../store/schema";
import type { EngineContext } from "./context";
import type { StreamBridge } from "./stream-bridge";

/** A bridge pull runs no longer than this after the task starts, whatever its own pull does. */
const BRIDGE_MAX_MS = 30_000;
/** A bridged audio segment is taken only when it ends this much after the newest one taken (it overlaps it otherwise). */
const SEGMENT_OVERLAP_MS = 1000;

export interface AdoptionDeps {
  ctx: Pick<EngineContext, "log">;
  requestId: string;
  /** the task's folder: adopted files are moved into it */
  dir: string;
  /** the task's state: numbers adopted files, tells which are newer than the last taken */
  state: StreamState;
  /** what the task's pulls capture */
  shape: { frameIntervalSec: number | null; audio: boolean };
  stopping(): boolean;
  /** an adopted frame / segment, numbered and in the task's folder */
  frame(f: LiveFrame): void;
  segment(s: LiveSegment): void;
}

export class BridgeAdoption {
  private bridge: StreamBridge | null;
  /** this task's own pull delivered a frame / a segment (the bridge is no longer needed for it) */
  private readonly ownDelivered = { frame: false, segment: false };

  constructor(
    bridge: StreamBridge | null,
    private readonly d: AdoptionDeps,
  ) {
    this.bridge = bridge;
  }

  /** Takes what the bridge holds and what it captures from now on (no bridge: nothing to do). */
  start(): void {
    if (!this.bridge) return;
    this.bridge.attach({ frame: (f) => this.onFrame(f), segment: (s) => this.onSegment(s) });
    setTimeout(() => this.stop(), BRIDGE_MAX_MS).unref();
  }

  /** The task's own pull delivered a frame. */
  ownFrame(): void {
    if (this.ownDelivered.frame) return;
    this.ownDelivered.frame = true;
    this.served();
  }

  /** The task's own pull delivered a segment. */
  ownSegment(): void {
    if (this.ownDelivered.segment) return;
    this.ownDelivered.segment = true;
    this.served();
  }

  stop(): void {
    const b = this.bridge;
    this.bridge = null;
    if (b) void b.stop().catch((err: Error) => this.d.ctx.log(`stream ${this.d.requestId}: stopping the bridge pull: ${err.message}`));
  }

  /** A bridged frame captured after the newest one taken is adopted under the next number; older ones are dropped. */
  private onFrame(f: LiveFrame): void {
    const { state } = this.d;
    if (this.d.stopping() || this.ownDelivered.frame || f.capturedAt.getTime() <= (state.lastFrameAt ?? 0)) return void fs.rm(f.path, { force: true });
    const adopted = this.adopt(f.path, `f${state.nextFrameIndex}.jpg`);
    if (adopted) this.d.frame({ ...f, index: state.nextFrameIndex++, path: adopted });
  }

  private onSegment(s: LiveSegment): void {
    const { state } = this.d;
    if (this.d.stopping() || this.ownDelivered.segment || s.endedAt.getTime() <= (state.lastSegmentEndAt ?? 0) + SEGMENT_OVERLAP_MS) return void fs.rm(s.path, { force: true });
    const adopted = this.adopt(s.path, `a${state.nextSegmentIndex}.wav`);
    if (adopted) this.d.segment({ ...s, index: state.nextSegmentIndex++, path: adopted });
  }

  /** Moves a bridged file into the task's folder (same file system: a rename, before anyone reads it). */
  private adopt(from: string, name: string): string | null {
    const to = path.join(this.d.dir, name);
    try {
      renameSync(from, to);
      return to;
    } catch (err) {
      this.d.ctx.log(`stream ${this.d.requestId}: a bridged file could not be taken: ${(err as Error).message}`);
      return null;
    }
  }

  /** The own pull delivered what the bridge stood in for: the bridge stops. */
  private served(): void {
    if (!this.bridge) return;
    if ((this.d.shape.frameIntervalSec === null || this.ownDelivered.frame) && (!this.d.shape.audio || this.ownDelivered.segment)) this.stop();
  }
}
