import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { speechEnergyOf } from "./energy";
import type { EgressPolicy } from "../net/egress-proxy";
import { startFfmpeg } from "./ffmpeg";
import { guardLiveInput, type GuardedLiveInput } from "./live-egress";
import type { OwnedProcess, ProcessResult } from "./process";
import { buildLiveArgs, FRAME_INTERVAL_MAX_SEC, FRAME_INTERVAL_MIN_SEC, LIVE_SAMPLE_RATE, liveInputKind, type LiveArgs } from "./live-args";
import { LiveClock } from "./live-clock";
import { JpegSplitter } from "./live-jpeg";
import { encodeWavPcm16, PcmSegmenter, pcmToInt16, type PcmCut } from "./live-pcm";
import { classifyLiveFailure, LiveStderrParser, withoutPacketDump, type LiveErrorCode } from "./live-stderr";
import { LiveMeter, type LiveMeterReading } from "./live-meter";
import { SILENT_DBFS } from "../../lib/stream-health";
import { UrlRefusedError } from "./url-guard";

export interface LivePullOptions {
  /** rtmp://, rtmps://, http(s):// (.flv or .m3u8 HLS). */
  url: string;
  /**
   * Where ffmpeg may connect (live-egress.ts): the input is resolved and checked again before every run and
   * every connection is pinned to checked addresses. Omitted = the caller vouches for every address (tests).
   */
  egress?: EgressPolicy;
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
  /**
   * The task numbers frames and segments itself (one counter shared with a bridge pull, server/task/stream-bridge.ts):
   * called as each is captured; overrides the start indexes.
   */
  nextIndex?: { frame(): number; segment(): number };
  /** Default 1280. */
  maxWidth?: number;
  /** ffmpeg -rw_timeout (connect and read); default 10000. */
  ioTimeoutMs?: number;
  /** First media data received. */
  onStarted?: () => void;
  onFrame: (f: LiveFrame) => void;
  onSegment: (s: LiveSegment) => void;
  /** A second output of the same ffmpeg: the live preview (server/preview). Only runs that capture frames carry it. */
  preview?: LivePreviewSink;
}

/** What a pull's ffmpeg runs tell the live preview (server/preview/recorder.ts implements it). */
export interface LivePreviewSink {
  /** Output arguments appended to the next run ([] = no preview this run). */
  outputArgs(): string[];
  /**
   * The run starts, with the pull's media clock (the one the frames' capturedAt use): `wallAt` maps media time
   * to wall-clock time; `observe` reports media time `sec` as just received (a closed segment's end).
   */
  runStarted(clock: { wallAt(mediaSec: number): Date; observe(mediaSec: number): void }): void;
  /** Every stderr line; true = the preview cannot play as encoded: the pull restarts the run once. */
  stderrLine(line: string): boolean;
  /** The run's ffmpeg has exited. */
  runEnded(): Promise<void>;
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
  /** Input fps and bitrate, audio level, last media (stream health); a source without it reports none. */
  meter?(): LiveMeterReading;
}

export type { LiveErrorCode } from "./live-stderr";
export type { LiveMeterReading } from "./live-meter";

const DEFAULT_SEGMENT_SEC = 10;
const DEFAULT_IO_TIMEOUT_MS = 10_000;
const MIN_TAIL_SEC = 1;
/** vadCode threshold shared with the file pipeline (file-result.ts). */
const VOICED_RATIO = 0.05;
const WATCHDOG_TICK_MS = 500;
/** Slack on top of ioTimeoutMs before the watchdog calls a run stalled (ffmpeg's own timeout should fire first). */
const STALL_GRACE_MS = 5000;
const HLS_STALL_GRACE_MS = 15_000;
const STDERR_CLASSIFY_CHARS = 8192;
const STOP_GRACE_MS = 500;
const NO_VIDEO_OUTPUT = /Output file #0 does not contain any stream/;
const HLS_RELOAD_FAILED = /Failed to reload playlist/;

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** SIGTERM, then SIGKILL after STOP_GRACE_MS: nothing ffmpeg writes after this is used, and an HLS reload ignores SIGTERM for 1–2 s. */
async function quickStop(proc: OwnedProcess, reason: "aborted" | "timeout"): Promise<void> {
  const kill = setTimeout(() => proc.child.kill("SIGKILL"), STOP_GRACE_MS);
  await proc.stop(reason);
  clearTimeout(kill);
}

function safeCall<T>(fn: ((v: T) => void) | undefined, v: T): void {
  try {
    fn?.(v);
  } catch (err) {
    console.error("[ingest] live pull callback threw:", err);
  }
}

interface RunOutcome {
  result: ProcessResult & { spawnError: Error | null };
  parser: LiveStderrParser;
  started: boolean;
  stalled: boolean;
  /** stopped so that the preview restarts transcoded (LivePreviewSink.stderrLine) */
  restart: boolean;
}

/**
 * Pulls a live stream with ONE ffmpeg process: frames every N s as JPEG files, audio as WAV segments of
 * exactly segmentSec (the last partial one ≥ 1 s at end of stream). Never hangs: ffmpeg has an I/O timeout,
 * a watchdog kills a run whose media stops advancing, and stop() escalates SIGTERM → SIGKILL.
 * `done` rejects only for local failures (outDir not writable), never for stream problems.
 */
export function startLivePull(o: LivePullOptions): LivePull {
  const intervalSec = o.frameIntervalSec === null ? null : clamp(o.frameIntervalSec, FRAME_INTERVAL_MIN_SEC, FRAME_INTERVAL_MAX_SEC);
  const segmentSec = o.segmentSec && o.segmentSec > 0 ? o.segmentSec : DEFAULT_SEGMENT_SEC;
  const ioTimeoutMs = o.ioTimeoutMs && o.ioTimeoutMs > 0 ? o.ioTimeoutMs : DEFAULT_IO_TIMEOUT_MS;
  // HLS media arrives a whole segment at a time (often 6–10 s apart), so it needs a longer grace
  const isHls = liveInputKind(o.url) === "hls";
  const stallGraceMs = isHls ? HLS_STALL_GRACE_MS : STALL_GRACE_MS;
  const argsFor = (input: GuardedLiveInput, frameIntervalSec: number | null) =>
    buildLiveArgs({ url: input.url, inputArgs: input.inputArgs, frameIntervalSec, audio: o.audio, maxWidth: o.maxWidth ?? 1280, ioTimeoutMs, extraOutputs: frameIntervalSec === null ? undefined : o.preview?.outputArgs() });

  const counters = { frames: 0, segments: 0, bytesIn: 0 };
  let nextFrame = o.frameStartIndex ?? 1;
  let nextSegment = o.segmentStartIndex ?? 1;
  let stopped = false;
  let current: OwnedProcess | null = null;
  // a holder, so TypeScript does not narrow it to null across the awaits below
  const local: { error: Error | null } = { error: null };
  let clock = new LiveClock();
  let parserNow: LiveStderrParser | null = null;
  const meter = new LiveMeter(SILENT_DBFS, () => parserNow?.videoIndex ?? null);
  let lastCapturedMs = 0;
  // one serial chain: files are written in order and each is announced only once fully written
  let writes: Promise<void> = mkdir(o.outDir, { recursive: true }).then(
    () => undefined,
    (err: Error) => void (local.error = err),
  );

  const enqueue = (file: string, data: Buffer, announce: () => void) => {
    writes = writes.then(async () => {
      if (stopped || local.error) return;
      try {
        await writeFile(file, data);
      } catch (err) {
        local.error = err as Error;
        if (current) void quickStop(current, "aborted");
        return;
      }
      if (!stopped) announce();
    });
  };

  const emitFrame = (image: Buffer, pts: number) => {
    clock.observe(pts);
    const index = o.nextIndex ? o.nextIndex.frame() : nextFrame++;
    const file = path.join(o.outDir, `f${index}.jpg`);
    // never earlier than the previous frame: the clock's offset only settles after the join burst
    lastCapturedMs = Math.max(lastCapturedMs, clock.wallAt(pts).getTime());
    const frame: LiveFrame = { index, capturedAt: new Date(lastCapturedMs), streamTimeSec: round3(pts), path: file };
    enqueue(file, image, () => {
      counters.frames++;
      safeCall(o.onFrame, frame);
    });
  };

  const emitSegment = (cut: PcmCut) => {
    const startSec = cut.startSample / LIVE_SAMPLE_RATE;
    const endSec = cut.endSample / LIVE_SAMPLE_RATE;
    const index = o.nextIndex ? o.nextIndex.segment() : nextSegment++;
    const file = path.join(o.outDir, `a${index}.wav`);
    const { rmsDb, voicedRatio } = speechEnergyOf(pcmToInt16(cut.pcm), 1, LIVE_SAMPLE_RATE);
    const segment: LiveSegment = { index, startedAt: clock.wallAt(startSec), endedAt: clock.wallAt(endSec), startSec: round3(startSec), endSec: round3(endSec), path: file, voiced: voicedRatio > VOICED_RATIO, rmsDb };
    enqueue(file, encodeWavPcm16(cut.pcm, LIVE_SAMPLE_RATE), () => {
      counters.segments++;
      safeCall(o.onSegment, segment);
    });
  };

  let announcedStart = false;
  const runOnce = async (plan: LiveArgs, env: GuardedLiveInput["env"]): Promise<RunOutcome> => {
    const parser = new LiveStderrParser();
    parserNow = parser;
    const jpegs = new JpegSplitter();
    const pcm = new PcmSegmenter(Math.max(1, Math.round(segmentSec * LIVE_SAMPLE_RATE)));
    const pendingImages: Buffer[] = [];
    const pendingPts: number[] = [];
    let lastPts: number | null = null;
    let started = false;
    let stalled = false;
    let restart = false;
    const preview = plan.preview ? o.preview : undefined;
    let lastProgressAt = Date.now();
    let lastProgressSec = -1;
    const progress = () => void (lastProgressAt = Date.now());
    const pairFrames = () => {
      while (pendingImages.length && pendingPts.length) {
        lastPts = pendingPts.shift() as number;
        emitFrame(pendingImages.shift() as Buffer, lastPts);
      }
    };

    preview?.runStarted({ wallAt: (sec) => clock.wallAt(sec), observe: (sec) => clock.observe(sec) });
    // -dump: every packet read is printed (stream, dts, size): the input's real fps and bitrate for health
    const proc = startFfmpeg(["-dump", ...plan.args], {
      env,
      extraOutputPipe: plan.audio,
      onStderrLine: (line) => {
        if (preview?.stderrLine(line) && !restart && !stopped) {
          restart = true;
          void quickStop(proc, "aborted");
        }
        const ev = parser.line(line);
        if (ev.packet) return meter.packet(ev.packet.stream, ev.packet.dts, ev.packet.size);
        if (ev.started) {
          started = true;
          progress();
          if (!announcedStart) {
            announcedStart = true;
            safeCall(o.onStarted, undefined);
          }
        }
        if (ev.progressSec !== undefined && ev.progressSec > lastProgressSec) {
          lastProgressSec = ev.progressSec;
          progress();
        }
        if (ev.framePts !== undefined && !stopped) {
          pendingPts.push(ev.framePts);
          pairFrames();
        }
      },
      onStdout: (chunk) => {
        counters.bytesIn += chunk.length;
        progress();
        meter.media();
        if (stopped) return;
        pendingImages.push(...jpegs.push(chunk));
        pairFrames();
      },
    });
    current = proc;
    const audioPipe = proc.child.stdio[3] as Readable | null | undefined;
    audioPipe?.on("data", (chunk: Buffer) => {
      counters.bytesIn += chunk.length;
      progress();
      meter.pcm(chunk);
      if (stopped) return;
      const cuts = pcm.push(chunk);
      clock.observe(pcm.receivedSamples / LIVE_SAMPLE_RATE);
      for (const cut of cuts) emitSegment(cut);
    });
    audioPipe?.on("error", () => {}); // a broken pipe surfaces through the exit status

    // Media must keep advancing: ffmpeg's own timeouts miss a server that keeps the socket alive without
    // media, and a live HLS playlist that stops growing is reloaded forever.
    const audioOutput = plan.frames ? 1 : 0;
    const watchdog = setInterval(() => {
      const audioFlowing = plan.audio && parser.inputAudio && parser.mappedOutputs.has(audioOutput);
      const limit = started ? ioTimeoutMs + stallGraceMs + (audioFlowing ? 0 : (intervalSec ?? 0) * 1000) : 2 * ioTimeoutMs + 2 * stallGraceMs;
      if (!stalled && !stopped && Date.now() - lastProgressAt > limit) {
        stalled = true;
        void quickStop(proc, "timeout");
      }
    }, WATCHDOG_TICK_MS);

    const result = await proc.done;
    clearInterval(watchdog);
    await preview?.runEnded();
    if (!stopped) {
      // an image whose showinfo line never came: place it one interval after the last known pts
      for (const image of pendingImages.splice(0)) emitFrame(image, lastPts === null ? 0 : lastPts + (intervalSec ?? 0));
      const tail = stalled || restart ? null : pcm.flush(MIN_TAIL_SEC * LIVE_SAMPLE_RATE);
      if (tail) emitSegment(tail);
    }
    return { result, parser, started, stalled, restart };
  };

  const finish = (run: RunOutcome): LivePullEnd => {
    const { parser, stalled } = run;
    const result = { ...run.result, stderr: withoutPacketDump(run.result.stderr) };
    const gotData = run.started || counters.bytesIn > 0;
    const tail = result.stderr.slice(-STDERR_CLASSIFY_CHARS);
    if (result.spawnError) return { reason: "failed", errorCode: 3001, message: `cannot start ffmpeg: ${result.spawnError.message}`, gotData };
    if (stalled) return gotData ? { reason: "ended", gotData, finite: false } : { reason: "failed", ...classifyLiveFailure(tail), gotData };
    if (result.code === 0) {
      // finite: the input declared a duration (VOD-like), or a live HLS playlist ran into its ENDLIST
      // (ffmpeg's HLS reader also stops, with this warning, when reloading the playlist fails)
      const endlist = isHls && !HLS_RELOAD_FAILED.test(tail);
      return { reason: "ended", gotData, finite: (parser.durationSec ?? 0) > 0 || endlist };
    }
    if (NO_VIDEO_OUTPUT.test(result.stderr) && !parser.inputAudio) {
      return { reason: "failed", errorCode: 3002, message: "the stream has neither a video nor an audio track", gotData };
    }
    return { reason: "failed", ...classifyLiveFailure(tail), gotData };
  };

  const done: Promise<LivePullEnd> = (async () => {
    await writes;
    // the cause keeps the details for the log; the message (which may reach a caller) names no server path
    if (local.error) throw new Error(`live pull: cannot write the task's media directory (${(local.error as NodeJS.ErrnoException).code ?? "error"})`, { cause: local.error });
    if (stopped) return { reason: "stopped" };
    let input: GuardedLiveInput;
    try {
      input = await guardLiveInput(o.url, o.egress);
    } catch (err) {
      if (err instanceof UrlRefusedError) return { reason: "failed", errorCode: 3001, message: `refused by the egress guard: ${err.message}`, gotData: false };
      throw err;
    }
    try {
      const plan = argsFor(input, intervalSec);
      let run = await runOnce(plan, input.env);
      // the source is not H.264/AAC: once more, at once, with the preview transcoded (a fresh media clock)
      if (!stopped && run.restart) {
        clock = new LiveClock();
        run = await runOnce(argsFor(input, intervalSec), input.env);
      }
      // a "video" stream without video: carry on with its audio (only possible when both were wanted)
      if (!stopped && plan.frames && plan.audio && run.result.code !== 0 && NO_VIDEO_OUTPUT.test(withoutPacketDump(run.result.stderr)) && run.parser.inputAudio) {
        run = await runOnce(argsFor(input, null), input.env);
      }
      await writes;
      const late = local.error as Error | null; // set by the write chain while we awaited
      if (late) throw new Error(`live pull: cannot write to ${o.outDir}: ${late.message}`, { cause: late });
      if (stopped) return { reason: "stopped" };
      const end = finish(run);
      const refused = input.proxy?.refused[0];
      return end.reason === "failed" && refused ? { ...end, message: `${end.message} (refused by the egress guard: ${refused})` } : end;
    } finally {
      await input.close();
    }
  })();

  return {
    done,
    stats: () => ({ ...counters }),
    meter: () => meter.reading(),
    async stop() {
      stopped = true;
      if (current) await quickStop(current, "aborted");
      await done.catch(() => undefined);
    },
  };
}
