import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { speechEnergyOf } from "./energy";
import { startFfmpeg } from "./ffmpeg";
import { buildLiveArgs, FRAME_INTERVAL_MAX_SEC, FRAME_INTERVAL_MIN_SEC, LIVE_SAMPLE_RATE } from "./live-args";
import { LiveClock } from "./live-clock";
import { JpegSplitter } from "./live-jpeg";
import { encodeWavPcm16, PcmSegmenter, pcmToInt16, type PcmCut } from "./live-pcm";
import { classifyLiveFailure, LiveStderrParser, type LiveErrorCode } from "./live-stderr";

export interface LivePullOptions {
  /** rtmp://, rtmps://, http(s):// (.flv or .m3u8 HLS); already checked by the caller's URL guard. */
  url: string;
  /** Capture one frame every N s (clamped to 1–60); null = no frames (audio streams). */
  frameIntervalSec: number | null;
  /** Cut the audio track into segments. */
  audio: boolean;
  /** Default 10. */
  segmentSec?: number;
  /** Frames f<index>.jpg and segments a<index>.wav are written here. */
  outDir: string;
  /** First frame index (1-based; continues across reconnects), default 1. */
  frameStartIndex?: number;
  /** Default 1. */
  segmentStartIndex?: number;
  /** Default 1280. */
  maxWidth?: number;
  /** ffmpeg -rw_timeout (connect and read); default 10000. */
  ioTimeoutMs?: number;
  /** First media data received. */
  onStarted?: () => void;
  onFrame: (f: LiveFrame) => void;
  onSegment: (s: LiveSegment) => void;
}

export interface LiveFrame {
  index: number;
  capturedAt: Date;
  /** pts of the frame, s from the start of this pull's media timeline. */
  streamTimeSec: number;
  path: string;
}

export interface LiveSegment {
  index: number;
  startedAt: Date;
  endedAt: Date;
  startSec: number;
  endSec: number;
  /** 16 kHz mono WAV. */
  path: string;
  /** Energy-based activity (energy.ts), not speech detection. */
  voiced: boolean;
  rmsDb: number;
}

export type LivePullEnd =
  | { reason: "stopped" }
  | { reason: "ended"; gotData: boolean; finite: boolean }
  | { reason: "failed"; errorCode: LiveErrorCode; message: string; gotData: boolean };

export interface LivePull {
  readonly done: Promise<LivePullEnd>;
  stop(): Promise<void>;
  /** bytesIn counts media bytes ffmpeg delivered (JPEG + PCM), not network bytes. */
  stats(): { frames: number; segments: number; bytesIn: number };
}

export type { LiveErrorCode } from "./live-stderr";

const DEFAULT_SEGMENT_SEC = 10;
const DEFAULT_IO_TIMEOUT_MS = 10_000;
const MIN_TAIL_SEC = 1;
/** vadCode threshold shared with the file pipeline (file-result.ts). */
const VOICED_RATIO = 0.05;
const WATCHDOG_TICK_MS = 500;

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

function safeCall<T>(fn: ((v: T) => void) | undefined, v: T): void {
  try {
    fn?.(v);
  } catch (err) {
    console.error("[ingest] live pull callback threw:", err);
  }
}

/**
 * Pulls a live stream with ONE ffmpeg process: frames every N s as JPEG files, audio as WAV segments of
 * exactly segmentSec (the last partial one ≥ 1 s at end of stream). Never hangs: ffmpeg has an I/O timeout,
 * a watchdog kills a run whose media stops advancing, and stop() escalates SIGTERM → SIGKILL.
 */
export function startLivePull(o: LivePullOptions): LivePull {
  const intervalSec = o.frameIntervalSec === null ? null : clamp(o.frameIntervalSec, FRAME_INTERVAL_MIN_SEC, FRAME_INTERVAL_MAX_SEC);
  const segmentSec = o.segmentSec && o.segmentSec > 0 ? o.segmentSec : DEFAULT_SEGMENT_SEC;
  const ioTimeoutMs = o.ioTimeoutMs && o.ioTimeoutMs > 0 ? o.ioTimeoutMs : DEFAULT_IO_TIMEOUT_MS;
  const plan = buildLiveArgs({ url: o.url, frameIntervalSec: intervalSec, audio: o.audio, maxWidth: o.maxWidth ?? 1280, ioTimeoutMs });
  const audioOutput = plan.frames ? 1 : 0;

  const counters = { frames: 0, segments: 0, bytesIn: 0 };
  let nextFrame = o.frameStartIndex ?? 1;
  let nextSegment = o.segmentStartIndex ?? 1;
  let stopped = false;
  let started = false;
  let stalled = false;
  let writeError: Error | null = null;
  let lastProgressAt = Date.now();
  let lastProgressSec = -1;

  const clock = new LiveClock();
  const parser = new LiveStderrParser();
  const jpegs = new JpegSplitter();
  const pcm = new PcmSegmenter(Math.max(1, Math.round(segmentSec * LIVE_SAMPLE_RATE)));
  const pendingImages: Buffer[] = [];
  const pendingPts: number[] = [];
  let lastPts: number | null = null;
  const ready = mkdir(o.outDir, { recursive: true });
  // one serial chain: files are written in order and each is announced only once fully written
  let writes: Promise<void> = ready.then(() => undefined);

  const enqueue = (job: () => Promise<void>) => {
    writes = writes.then(async () => {
      if (stopped || writeError) return;
      try {
        await job();
      } catch (err) {
        writeError = err as Error;
        void proc.stop("aborted");
      }
    });
  };

  const progress = () => {
    lastProgressAt = Date.now();
  };

  const emitFrame = (image: Buffer, pts: number) => {
    clock.observe(pts);
    lastPts = pts;
    const index = nextFrame++;
    const file = path.join(o.outDir, `f${index}.jpg`);
    const frame: LiveFrame = { index, capturedAt: clock.wallAt(pts), streamTimeSec: round3(pts), path: file };
    enqueue(async () => {
      await writeFile(file, image);
      if (stopped) return;
      counters.frames++;
      safeCall(o.onFrame, frame);
    });
  };

  const pairFrames = () => {
    if (process.env.LIVE_DEBUG) console.log("pair", pendingImages.length, pendingPts.length);
    while (pendingImages.length && pendingPts.length) emitFrame(pendingImages.shift() as Buffer, pendingPts.shift() as number);
  };

  const emitSegment = (cut: PcmCut) => {
    const startSec = cut.startSample / LIVE_SAMPLE_RATE;
    const endSec = cut.endSample / LIVE_SAMPLE_RATE;
    const index = nextSegment++;
    const file = path.join(o.outDir, `a${index}.wav`);
    const { rmsDb, voicedRatio } = speechEnergyOf(pcmToInt16(cut.pcm), 1, LIVE_SAMPLE_RATE);
    const segment: LiveSegment = { index, startedAt: clock.wallAt(startSec), endedAt: clock.wallAt(endSec), startSec: round3(startSec), endSec: round3(endSec), path: file, voiced: voicedRatio > VOICED_RATIO, rmsDb };
    enqueue(async () => {
      await writeFile(file, encodeWavPcm16(cut.pcm, LIVE_SAMPLE_RATE));
      if (stopped) return;
      counters.segments++;
      safeCall(o.onSegment, segment);
    });
  };

  const onStderrLine = (line: string) => {
    const ev = parser.line(line);
    if (ev.started && !started) {
      started = true;
      progress();
      safeCall(o.onStarted, undefined);
    }
    if (ev.progressSec !== undefined && ev.progressSec > lastProgressSec) {
      lastProgressSec = ev.progressSec;
      progress();
    }
    if (ev.framePts !== undefined && !stopped) {
      pendingPts.push(ev.framePts);
      pairFrames();
    }
  };

  const proc = startFfmpeg(plan.args, {
    extraOutputPipe: plan.audio,
    onStderrLine,
    onStdout: (chunk) => {
      counters.bytesIn += chunk.length;
      progress();
      if (stopped) return;
      if (process.env.LIVE_DEBUG) console.log("stdout", chunk.length, chunk.subarray(0, 4), jpegs.pending);
      pendingImages.push(...jpegs.push(chunk));
      pairFrames();
    },
  });
  const audioPipe = proc.child.stdio[3] as Readable | null | undefined;
  audioPipe?.on("data", (chunk: Buffer) => {
    counters.bytesIn += chunk.length;
    progress();
    if (stopped) return;
    const cuts = pcm.push(chunk);
    clock.observe(pcm.receivedSamples / LIVE_SAMPLE_RATE);
    for (const cut of cuts) emitSegment(cut);
  });
  audioPipe?.on("error", () => {}); // EPIPE etc. surface through the exit status

  // Media must keep advancing; ffmpeg's own timeouts miss a server that keeps the socket alive without
  // media, and a live HLS playlist that stops growing is reloaded forever.
  const watchdog = setInterval(() => {
    const audioFlowing = plan.audio && parser.mappedOutputs.has(audioOutput);
    const limit = started ? ioTimeoutMs + 5000 + (audioFlowing ? 0 : (intervalSec ?? 0) * 1000) : 2 * ioTimeoutMs + 10_000;
    if (Date.now() - lastProgressAt > limit && !stalled && !stopped) {
      stalled = true;
      void proc.stop("timeout");
    }
  }, WATCHDOG_TICK_MS);

  const done: Promise<LivePullEnd> = (async () => {
    const result = await proc.done;
    clearInterval(watchdog);
    if (!stopped) {
      // images whose showinfo line never came: place them one interval after the last known pts
      for (const image of pendingImages.splice(0)) emitFrame(image, (lastPts ?? 0) + (lastPts === null ? 0 : intervalSec ?? 0));
      if (!stalled) {
        const tail = pcm.flush(MIN_TAIL_SEC * LIVE_SAMPLE_RATE);
        if (tail) emitSegment(tail);
      }
    }
    await writes;
    await ready.catch(() => undefined);
    if (stopped) return { reason: "stopped" } as const;
    const gotData = started || counters.bytesIn > 0;
    if (writeError) return { reason: "failed", errorCode: 3002, message: `cannot write pulled media: ${writeError.message}`, gotData } as const;
    if (result.spawnError) return { reason: "failed", errorCode: 3001, message: `cannot start ffmpeg: ${result.spawnError.message}`, gotData } as const;
    const tail = result.stderr.slice(-8192);
    if (stalled) {
      if (gotData) return { reason: "ended", gotData, finite: false } as const;
      return { reason: "failed", ...classifyLiveFailure(tail), gotData } as const;
    }
    if (result.code === 0) {
      if (!gotData && plan.frames && plan.audio && parser.mappedOutputs.size === 0 && /Stream mapping:/.test(result.stderr)) {
        return { reason: "failed", errorCode: 3002, message: "the stream has neither a video nor an audio track", gotData } as const;
      }
      return { reason: "ended", gotData, finite: (parser.durationSec ?? 0) > 0 } as const;
    }
    return { reason: "failed", ...classifyLiveFailure(tail), gotData } as const;
  })();

  return {
    done,
    stats: () => ({ ...counters }),
    async stop() {
      if (!stopped) {
        stopped = true;
        await proc.stop("aborted");
      }
      await done;
    },
  };
}
