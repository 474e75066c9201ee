import { mkdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { speechEnergyOf } from "./energy";
import { LIVE_SAMPLE_RATE } from "./live-args";
import type { LiveClock } from "./live-clock";
import { encodeWavPcm16, pcmToInt16, type PcmCut } from "./live-pcm";
import type { LiveFrame, LivePullOptions, LiveSegment } from "./live-types";

/** vadCode threshold shared with the file pipeline (file-result.ts). */
const VOICED_RATIO = 0.05;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function safeCall<T>(fn: ((v: T) => void) | undefined, v: T): void {
  try {
    fn?.(v);
  } catch (err) {
    console.error("[ingest] live pull callback threw:", err);
  }
}

type OutputOptions = Pick<LivePullOptions, "outDir" | "frameStartIndex" | "segmentStartIndex" | "nextIndex" | "onStarted" | "onFrame" | "onSegment">;

/** What the output reads from (and tells) the pull it belongs to. */
export interface LiveOutputHooks {
  /** the pull's current media clock (a restarted run gets a fresh one) */
  clock(): LiveClock;
  /** the pull stopped without keeping what it captured: nothing more is written or announced */
  dropping(): boolean;
  /** a file could not be written: nothing more is written or announced */
  writeFailed(): void;
}

/**
 * A pull's output to its caller: frames and segments numbered, written to outDir on one serial chain (files in
 * order) and each announced only once fully written; callback errors are logged, never thrown into the pull.
 */
export class LiveOutput {
  /** The first local failure (mkdir or a write); once set nothing more is written. */
  error: Error | null = null;
  private nextFrame: number;
  private nextSegment: number;
  /** the last frame: its capture time, and its media time on the clock it was read with */
  private last: { clock: LiveClock; pts: number; capturedMs: number } | null = null;
  private announcedStart = false;
  private chain: Promise<void>;

  constructor(
    private readonly o: OutputOptions,
    private readonly counters: { frames: number; segments: number },
    private readonly hooks: LiveOutputHooks,
  ) {
    this.nextFrame = o.frameStartIndex ?? 1;
    this.nextSegment = o.segmentStartIndex ?? 1;
    this.chain = mkdir(o.outDir, { recursive: true }).then(
      () => undefined,
      (err: Error) => void (this.error = err),
    );
  }

  /** Settles once every file queued so far is written (or dropped). */
  get written(): Promise<void> {
    return this.chain;
  }

  /** First media data of the pull (called for every run's; announced once). */
  started(): void {
    if (!this.announcedStart) {
      this.announcedStart = true;
      safeCall(this.o.onStarted, undefined);
    }
  }

  frame(image: Buffer, pts: number): void {
    const clock = this.hooks.clock();
    clock.observe(pts);
    const index = this.o.nextIndex ? this.o.nextIndex.frame() : this.nextFrame++;
    const file = path.join(this.o.outDir, `f${index}.jpg`);
    const capturedMs = this.captureTime(clock, pts);
    this.last = { clock, pts, capturedMs };
    const frame: LiveFrame = { index, capturedAt: new Date(capturedMs), streamTimeSec: round3(pts), path: file };
    this.enqueue(file, image, () => {
      this.counters.frames++;
      safeCall(this.o.onFrame, frame);
    });
  }

  /**
   * Capture times strictly increase. The clock's offset only settles after the join burst, so a frame of the
   * burst may map to a time before the previous frame's: it is then placed after the previous frame by the
   * media time between them (not in the future), and at least 1 ms after it.
   */
  private captureTime(clock: LiveClock, pts: number): number {
    const wall = clock.wallAt(pts).getTime();
    const last = this.last;
    if (!last) return wall;
    const step = last.clock === clock && pts > last.pts ? Math.round((pts - last.pts) * 1000) : 1;
    return Math.max(wall, Math.min(last.capturedMs + step, clock.nowMs()), last.capturedMs + 1);
  }

  segment(cut: PcmCut): void {
    const clock = this.hooks.clock();
    const startSec = cut.startSample / LIVE_SAMPLE_RATE;
    const endSec = cut.endSample / LIVE_SAMPLE_RATE;
    const index = this.o.nextIndex ? this.o.nextIndex.segment() : this.nextSegment++;
    const file = path.join(this.o.outDir, `a${index}.wav`);
    const { rmsDb, voicedRatio } = speechEnergyOf(pcmToInt16(cut.pcm), 1, LIVE_SAMPLE_RATE);
    const segment: LiveSegment = { index, startedAt: clock.wallAt(startSec), endedAt: clock.wallAt(endSec), startSec: round3(startSec), endSec: round3(endSec), path: file, voiced: voicedRatio > VOICED_RATIO, rmsDb };
    this.enqueue(file, encodeWavPcm16(cut.pcm, LIVE_SAMPLE_RATE), () => {
      this.counters.segments++;
      safeCall(this.o.onSegment, segment);
    });
  }

  private enqueue(file: string, data: Buffer, announce: () => void): void {
    this.chain = this.chain.then(async () => {
      if (this.hooks.dropping() || this.error) return;
      try {
        await writeFile(file, data);
      } catch (err) {
        // never a half-written frame or clip left as evidence (ENOSPC mid-write): it goes, and the pull ends saying
        // why ("cannot write the task's media directory (ENOSPC)", the stream's last error on its health strip)
        await unlink(file).catch(() => undefined);
        this.error = err as Error;
        this.hooks.writeFailed();
        return;
      }
      if (!this.hooks.dropping()) announce();
    });
  }
}
