import { existsSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import type { CapturePlan } from "./capture-plan";
import { MAX_CAPTURE_FRAMES } from "./capture-plan";
import { FfmpegError, PROBE_LIMITS, decodeLimits, fileInputOptions, runFfmpeg, type FileDemuxer } from "./ffmpeg";

export interface CapturedFrame {
  /** 1-based, in time order. */
  index: number;
  /** Presentation time of the grabbed frame, seconds from the start (3 decimals). */
  timeSec: number;
  /** JPEG file. */
  path: string;
}

export interface ExtractFramesOptions {
  maxWidth?: number;
  concurrency?: number;
  onFrame?: (f: CapturedFrame) => void;
  signal?: AbortSignal;
  /** "auto" seeks per time for sparse cadences and decodes once for dense ones (measured crossover). */
  strategy?: "auto" | "seek" | "pass";
  /** Per ffmpeg run. */
  timeoutMs?: number;
  /** The decoder refuses larger pictures (width × height); unset = ffmpeg's own limit. */
  maxPixels?: number;
  /**
   * The allowlisted demuxer probing found (MediaInfo.demuxer): forced on every run. Unset, any allowlisted
   * demuxer may be probed (never a playlist or concat script: see fileInputOptions).
   */
  demuxer?: FileDemuxer | null;
}

/** Below this spacing one decoding pass beats a seek per frame (60 s 720p, GOP 2 s: 1 s → pass 1.7 s vs seek 4.6 s; 5 s → 1.6 s vs 1.0 s). */
export const SEEK_MIN_SPACING_SEC = 3;
const JPEG_QUALITY = "4";
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
// How far back the end-of-video fallback starts decoding when a time lies past the last video frame.
const TAIL_WINDOW_SEC = 10;

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const frameName = (index: number) => `frame-${String(index).padStart(5, "0")}.jpg`;
const scaleFilter = (maxWidth: number) => `scale=w='min(iw,${Math.floor(maxWidth)})':h=-2`;

/** pts_time of every frame showinfo logged, in order. */
export function parseShowinfoTimes(stderr: string): number[] {
  const times: number[] = [];
  for (const m of stderr.matchAll(/Parsed_showinfo.*?\bn:\s*\d+\s+pts:\s*-?\d+\s+pts_time:(-?[\d.e+-]+)/g)) times.push(Number(m[1]));
  return times;
}

async function nonEmpty(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}

/** One frame at or after `t` (fast input seeking); past the last video frame, the last frame instead. */
async function grabAt(file: string, t: number, out: string, opts: Required<Pick<ExtractFramesOptions, "maxWidth" | "timeoutMs">> & { signal?: AbortSignal; maxPixels?: number; demuxer?: FileDemuxer | null }): Promise<number | null> {
  const run = (pre: string[], post: string[]) =>
    runFfmpeg([...fileInputOptions(opts.demuxer), ...PROBE_LIMITS, ...decodeLimits(opts.maxPixels), ...pre, "-i", file, "-map", "0:v:0", "-vf", `showinfo,${scaleFilter(opts.maxWidth)}`, ...post, "-q:v", JPEG_QUALITY, "-y", out], { timeoutMs: opts.timeoutMs, signal: opts.signal });
  const { stderr } = await run(["-ss", String(t)], ["-frames:v", "1"]);
  const shown = parseShowinfoTimes(stderr);
  if (shown.length && (await nonEmpty(out))) return round3(t + Math.max(0, shown[0]));
  // t can sit between the last video frame and the container's end (audio runs longer, or the margin was too small)
  const from = Math.max(0, t - TAIL_WINDOW_SEC);
  const tail = await run(["-ss", String(from)], ["-update", "1", "-vsync", "vfr"]);
  const tailTimes = parseShowinfoTimes(tail.stderr);
  if (tailTimes.length && (await nonEmpty(out))) return round3(from + tailTimes[tailTimes.length - 1]);
  return null;
}

async function extractBySeeking(file: string, times: number[], outDir: string, o: Required<Pick<ExtractFramesOptions, "maxWidth" | "concurrency" | "timeoutMs">> & ExtractFramesOptions): Promise<CapturedFrame[]> {
  const frames: CapturedFrame[] = [];
  let next = 0;
  let failed = false; // one worker's failure stops the others from starting more runs
  const worker = async () => {
    while (next < times.length && !failed) {
      if (o.signal?.aborted) throw new FfmpegError("killed", "frame extraction aborted");
      const i = next++;
      const out = path.join(outDir, frameName(i + 1));
      const timeSec = await grabAt(file, times[i], out, o).catch((err: unknown) => {
        failed = true;
        throw err;
      });
      if (timeSec === null) continue;
      const frame = { index: i + 1, timeSec, path: out };
      frames.push(frame);
      o.onFrame?.(frame);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, times.length)) }, worker));
  return frames.sort((a, b) => a.index - b.index);
}

/**
 * One decoding pass writing frame-00001.jpg…; `select` picks frames, showinfo reports their times.
 * Frames are reported as soon as their file exists (image2 atomic writing makes existence mean complete).
 */
async function extractInOnePass(file: string, outDir: string, pre: string[], selectFilter: string | null, maxFrames: number, o: Required<Pick<ExtractFramesOptions, "maxWidth" | "timeoutMs">> & ExtractFramesOptions): Promise<CapturedFrame[]> {
  const frames: CapturedFrame[] = [];
  const times: number[] = [];
  const flush = (upTo: number) => {
    while (frames.length < upTo) {
      const index = frames.length + 1;
      const p = path.join(outDir, frameName(index));
      if (!existsSync(p)) return;
      const frame = { index, timeSec: round3(times[index - 1]), path: p };
      frames.push(frame);
      o.onFrame?.(frame);
    }
  };
  const chain = [selectFilter, "showinfo", scaleFilter(o.maxWidth)].filter(Boolean).join(",");
  const args = [...fileInputOptions(o.demuxer), ...PROBE_LIMITS, ...decodeLimits(o.maxPixels), ...pre, "-i", file, "-map", "0:v:0", "-vf", chain, "-vsync", "vfr", "-frames:v", String(maxFrames), "-q:v", JPEG_QUALITY, "-atomic_writing", "1", "-start_number", "1", "-y", path.join(outDir, "frame-%05d.jpg")];
  await runFfmpeg(args, {
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    onStderrLine: (line) => {
      const t = parseShowinfoTimes(line);
      if (!t.length) return;
      times.push(t[0]);
      flush(times.length - 1);
    },
  });
  flush(times.length);
  if (frames.length < times.length) throw new FfmpegError("failed", `ffmpeg reported ${times.length} frames but wrote ${frames.length}`);
  return frames;
}

/** Step of an arithmetic progression starting at 0 (what every planCapture times list is), else null. */
export function arithmeticStep(times: number[]): number | null {
  if (times.length < 2 || times[0] !== 0) return null;
  const step = times[times.length - 1] / (times.length - 1);
  return times.every((t, i) => Math.abs(t - i * step) < 0.001) ? step : null;
}

/** `select` expression taking, for the k-th target k·step, the first frame at or after it. */
const everyStepSelect = (step: number, limit: number) => `select='lt(selected_n,${limit})*gte(t+0.001,selected_n*${step})'`;

/**
 * Grabs the frames a CapturePlan asks for as JPEGs in `outDir`, scaled down to at most maxWidth. `file` is a
 * local (downloaded) file, opened only with an allowlisted demuxer (`opts.demuxer`, see fileInputOptions).
 */
export async function extractFrames(file: string, plan: CapturePlan, outDir: string, opts: ExtractFramesOptions = {}): Promise<CapturedFrame[]> {
  await mkdir(outDir, { recursive: true });
  const o = { maxWidth: 1280, concurrency: 2, timeoutMs: DEFAULT_TIMEOUT_MS, strategy: "auto" as const, ...opts };
  if (plan.mode === "keyframes") {
    return nonEmptyOr(await extractInOnePass(file, outDir, ["-skip_frame", "nokey"], null, MAX_CAPTURE_FRAMES, o));
  }
  if (plan.times.length === 0) {
    const step = plan.intervalSec ?? 5;
    return nonEmptyOr(await extractInOnePass(file, outDir, [], everyStepSelect(step, MAX_CAPTURE_FRAMES), MAX_CAPTURE_FRAMES, o));
  }
  const step = arithmeticStep(plan.times);
  const spacing = step ?? Infinity;
  const usePass = step !== null && (o.strategy === "pass" || (o.strategy === "auto" && spacing < SEEK_MIN_SPACING_SEC));
  if (usePass) {
    const frames = await extractInOnePass(file, outDir, [], everyStepSelect(step, plan.times.length), plan.times.length, o);
    if (frames.length > 0) return frames;
  }
  return nonEmptyOr(await extractBySeeking(file, plan.times, outDir, o));
}

/** The message names no file: it reaches a client (Query / callback 1905), and the file sits under DATA_DIR. */
function nonEmptyOr(frames: CapturedFrame[]): CapturedFrame[] {
  if (frames.length === 0) throw new FfmpegError("no-stream", "no video frame could be decoded");
  return frames;
}
