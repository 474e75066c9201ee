// What the frame and segment lanes of a live task (stream-frames.ts, stream-segments.ts) need from the task.
import type { EngineContext } from "./context";
import type { StreamRequest } from "./stream-request";

export type RiskLevel = "PASS" | "REVIEW" | "REJECT";

export interface LaneDeps {
  ctx: EngineContext;
  requestId: string;
  req: StreamRequest;
  /** a frame or segment was settled at this level (the stream's worst risk) */
  noteRisk(level: RiskLevel): void;
  /** the detectors could not keep up: one left the backlog unchecked */
  noteBehind(): void;
  /** one was checked this long after its capture (a segment: its end); past STREAM_ADMISSION_LAG_SEC that is behind too */
  noteLag(lagSec: number): void;
  /** one finished detecting: a drain waiting on it looks again */
  changed(): void;
  /** queues a callback after every earlier one (stream-save.ts) */
  emit(enqueue: () => Promise<unknown>): void;
  mediaUrl(file: string): string;
}

/** What an end's drain asks of a lane (stream-end.ts). */
export interface DrainLane {
  /** waiting or being detected */
  readonly undone: number;
  /** calls back everything undone as not checked */
  settleAll(): void;
}
