/**
 * Where a file's processing time goes: wall-clock spans of each stage (they overlap: frames are detected while
 * extraction still runs, audio while frames are detected) and the detectors' own time summed per engine.
 * Published as the engine's "file:stages" event when the file ends; `npm run bench file` prints it.
 */
export interface FileStages {
  requestId: string;
  /** wall ms from the task's start to the end of each stage */
  wallMs: Record<string, number>;
  /** ms each stage was running (its own span) */
  spanMs: Record<string, number>;
  /** detector time summed over the frames, per engine (inside the workers) */
  frameDetectMs: Record<string, number>;
  /** audio detection time summed over the segments */
  audioDetectMs: number;
  frames: number;
  segments: number;
  totalMs: number;
}

export class StageClock {
  private readonly t0 = performance.now();
  private readonly started: Record<string, number> = {};
  readonly stages: FileStages;

  constructor(requestId: string) {
    this.stages = { requestId, wallMs: {}, spanMs: {}, frameDetectMs: {}, audioDetectMs: 0, frames: 0, segments: 0, totalMs: 0 };
  }

  /** Times `work` as stage `name` (its span, and when it ended since the start). */
  async span<T>(name: string, work: () => Promise<T>): Promise<T> {
    const s = performance.now();
    this.started[name] = s;
    try {
      return await work();
    } finally {
      const e = performance.now();
      this.stages.spanMs[name] = Math.round(e - s);
      this.stages.wallMs[name] = Math.round(e - this.t0);
    }
  }

  addFrameTimings(timings: Record<string, number>): void {
    this.stages.frames++;
    for (const [k, ms] of Object.entries(timings)) this.stages.frameDetectMs[k] = Math.round((this.stages.frameDetectMs[k] ?? 0) + ms);
  }

  addAudio(ms: number): void {
    this.stages.segments++;
    this.stages.audioDetectMs = Math.round(this.stages.audioDetectMs + ms);
  }

  finish(): FileStages {
    this.stages.totalMs = Math.round(performance.now() - this.t0);
    return this.stages;
  }
}
