import fs from "node:fs/promises";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import sharp from "sharp";
import { Code, codeMessage } from "../../lib/contract/codes";
import { parseTypeList, IMG_TYPES, IMG_BUSINESS_TYPES, AUDIO_TYPES, AUDIO_BUSINESS_TYPES } from "../../lib/contract/taxonomy";
import type { FrameVerdict } from "../detect";
import { Limiter } from "../detect/audio/queue";
import { downloadToFile, DownloadError } from "../ingest/download";
import { FfmpegError } from "../ingest/ffmpeg";
import { probeMedia, type MediaInfo } from "../ingest/probe";
import { planCapture } from "../ingest/capture-plan";
import { extractFrames, type CapturedFrame } from "../ingest/frames";
import { extractAudioSegments, type AudioSegment } from "../ingest/audio";
import { detectAudio } from "./audio-verdict";
import { UrlRefusedError } from "../ingest/url-guard";
import { tasks, type TaskProgress, type TaskRow } from "../store/schema";
import type { EngineContext } from "./context";
import type { VideoFileRequest } from "./video-file";
import { buildAudioItem, buildFileResult, buildFrameItem, worst } from "./file-result";
import { cutFileClips } from "../preview/file-clips";
import { clipsDirOf } from "../preview/recorder";
import { StageClock } from "./file-stages";
import { mediaEgress } from "./url-policy";

/** Raised for content the service cannot moderate: ends the task with code 1905. */
class Unrecognised extends Error {}

/** Marks a promise as handled now (it is awaited later, with the others): a rejection before then is no unhandledRejection. */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

const rel = (requestId: string, file: string) => `${requestId}/${path.basename(file)}`;

/** Download → probe → capture frames and audio → detect → result → callback. Re-runnable from scratch. */
export async function runVideoFile(ctx: EngineContext, task: TaskRow, signal: AbortSignal): Promise<void> {
  const req = task.request as unknown as VideoFileRequest;
  const dir = path.join(ctx.mediaRoot, task.requestId);
  const progress: TaskProgress = { framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0 };
  // this run's number is its claim on the task: a run superseded by another (scaled mode: this worker lost the job's
  // lock and another runs the file) stores no result and queues no callback
  const run = await setStatus(ctx, task, "processing", progress);
  if (run === null) return; // finished meanwhile (another run stored its result): its media is left alone
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });

  let result: Record<string, unknown>;
  const clock = new StageClock(task.requestId);
  try {
    result = await analyse(ctx, task, req, dir, progress, signal, clock);
  } catch (err) {
    if (signal.aborted) throw err;
    if (!(err instanceof Unrecognised || err instanceof DownloadError || err instanceof FfmpegError || err instanceof UrlRefusedError)) throw err;
    ctx.log(`file ${task.requestId}: ${err.message}`);
    const reason = publicReason(err.message, [dir, ctx.mediaRoot, ctx.config.dataDir]);
    result = { code: Code.CONTENT_UNRECOGNISED, message: `${codeMessage(Code.CONTENT_UNRECOGNISED)}: ${reason}`, requestId: task.requestId, btId: req.data.btId };
  } finally {
    await fs.rm(path.join(dir, "source"), { force: true });
  }

  const done = result.code === Code.SUCCESS;
  const stored = await ctx.store.db
    .update(tasks)
    .set({ status: done ? "done" : "failed", result, resultCode: result.code as number, progress, updatedAt: new Date() })
    .where(and(eq(tasks.requestId, task.requestId), eq(tasks.status, "processing"), eq(tasks.runCount, run)))
    .returning({ id: tasks.requestId });
  if (stored.length === 0) {
    ctx.log(`file ${task.requestId}: run ${run} was superseded by another run; its result is not stored`);
    return;
  }
  if (req.callback) await ctx.dispatcher.enqueue({ requestId: task.requestId, url: req.callback, body: result, schedule: "video" });
  emit(ctx, task, done ? "done" : "failed", progress, result);
  ctx.events.emit("file:stages", clock.finish());
}

/**
 * Requested types the file cannot be checked for at all: audio types of a file without an audio track, image types
 * of one without video (a type asked of both channels counts when neither is there). They go to notAppliedTypes,
 * so a PASS never reads as clean for checks that could not run.
 */
export function untestable(info: Pick<MediaInfo, "hasVideo" | "hasAudio">, image: readonly string[], audio: readonly string[]): string[] {
  const ran = new Set([...(info.hasVideo ? image : []), ...(info.hasAudio ? audio : [])]);
  return [...new Set([...image, ...audio])].filter((t) => t !== "NONE" && !ran.has(t));
}

async function analyse(ctx: EngineContext, task: TaskRow, req: VideoFileRequest, dir: string, progress: TaskProgress, signal: AbortSignal, clock: StageClock) {
  const source = path.join(dir, "source");
  const limits = ctx.config.limits;
  await clock.span("download", () =>
    withStallWatch(dir, limits.downloadStallTimeoutSec * 1000, signal, (s) =>
      downloadToFile(req.data.url, source, { maxBytes: ctx.config.fileMaxBytes, timeoutMs: 10 * 60_000, ...mediaEgress(ctx), signal: s }),
    ),
  );
  const info = await clock.span("probe", () => probeMedia(source));
  if (!info.hasVideo && !info.hasAudio) throw new Unrecognised("no audio or video stream");
  if (info.durationSec !== null && info.durationSec > ctx.config.fileMaxDurationSec) throw new Unrecognised(`duration ${info.durationSec.toFixed(1)} s is over the ${ctx.config.fileMaxDurationSec} s limit`);
  if (info.hasVideo && ((limits.mediaMaxWidth > 0 && (info.width ?? 0) > limits.mediaMaxWidth) || (limits.mediaMaxHeight > 0 && (info.height ?? 0) > limits.mediaMaxHeight))) {
    throw new Unrecognised(`resolution ${info.width}×${info.height} is over the ${limits.mediaMaxWidth}×${limits.mediaMaxHeight} limit`);
  }
  // wall-clock cap on the rest (capture + detection), relative to the duration; its ffmpeg runs are killed when it passes
  const capSec = limits.fileProcessMinSec + limits.fileProcessTimeFactor * (info.durationSec ?? ctx.config.fileMaxDurationSec);
  return withDeadline(capSec * 1000, signal, (inner) => moderate(ctx, task, req, dir, source, info, progress, inner, clock));
}

async function moderate(ctx: EngineContext, task: TaskRow, req: VideoFileRequest, dir: string, source: string, info: MediaInfo, progress: TaskProgress, signal: AbortSignal, clock: StageClock) {
  const limits = ctx.config.limits;

  const imgTypes = [...parseTypeList(req.imgType ?? "", IMG_TYPES).types];
  const imgBusinessTypes = [...parseTypeList(req.imgBusinessType ?? "", IMG_BUSINESS_TYPES).types];
  const audioTypes = parseTypeList(req.audioType ?? "", AUDIO_TYPES).types.filter((t) => t !== "NONE");
  const audioBusinessTypes = [...parseTypeList(req.audioBusinessType ?? "", AUDIO_BUSINESS_TYPES).types];
  const lang = req.acceptLang ?? "zh";
  const expiresAt = task.expiresAt;

  const plan = info.hasVideo ? planCapture({ durationSec: info.durationSec, screenshotType: req.data.screenshotType, detectFrequency: req.data.detectFrequency, advancedFrequency: req.data.advancedFrequency, checkFrameCount: req.data.checkFrameCount }) : null;
  progress.framesTotal = plan ? (plan.mode === "times" ? plan.times.length : Math.max(1, Math.round((info.durationSec ?? 0) / 2))) : 0;
  const wantAudio = info.hasAudio && (audioTypes.length > 0 || audioBusinessTypes.length > 0);
  emit(ctx, task, "processing", progress);

  const notApplied = new Set<string>(untestable(info, [...imgTypes, ...imgBusinessTypes], [...audioTypes, ...audioBusinessTypes]));
  const verdicts: Promise<{ frame: CapturedFrame; verdict: FrameVerdict; similarity: number }>[] = [];
  let previous: Promise<Buffer> = Promise.resolve(Buffer.alloc(256));
  const tick = throttle(() => saveProgress(ctx, task, progress), 500);
  // frames go to the detector pool a few at a time: extraction can run hundreds of frames ahead of detection,
  // more than the pool queues (past its queueLimit it refuses them, which failed the whole file)
  const detectSlots = new Limiter(Math.max(2, ctx.config.detectWorkers * 2), Number.MAX_SAFE_INTEGER);
  const detectOne = (frame: CapturedFrame) => {
    const thumb = fs.readFile(frame.path).then((b) => sharp(b).resize(16, 16, { fit: "fill" }).greyscale().raw().toBuffer());
    const prev = previous;
    previous = thumb;
    return (async () => {
      const verdict = await detectSlots.run(async () => {
        signal.throwIfAborted(); // the file was given up (deadline, failure): frames still waiting are not detected
        return ctx.detect.detectFrame({ jpeg: new Uint8Array(await fs.readFile(frame.path)), imgTypes, imgBusinessTypes, lang });
      });
      verdict.notApplied.forEach((t) => notApplied.add(t));
      clock.addFrameTimings(verdict.timingsMs);
      const similarity = compare(await prev, await thumb);
      progress.framesDone++;
      emit(ctx, task, "processing", progress);
      tick();
      return { frame, verdict, similarity };
    })();
  };

  const maxPixels = limits.mediaMaxWidth * limits.mediaMaxHeight;
  // the demuxer probing chose (an allowlisted container) is forced on every run: see fileInputOptions
  const framesJob = plan ? clock.span("extractFrames", () => extractFrames(source, plan, dir, { signal, maxPixels, demuxer: info.demuxer, onFrame: (f) => verdicts.push(handled(detectOne(f))) })) : Promise.resolve([]);
  const audioJob = wantAudio ? clock.span("extractAudio", () => extractAudioSegments(source, dir, { signal, demuxer: info.demuxer })) : Promise.resolve([] as AudioSegment[]);
  // audio is detected while frames still are: the detectors use different cores (worker thread vs child processes)
  const step = req.data.audioDetectStep ?? 0;
  const audioItemsJob = audioJob.then((segments) => clock.span("detectAudio", async () => {
    progress.segmentsTotal = segments.length;
    const items = [];
    for (const seg of segments) {
      if (step > 0 && (seg.index - 1) % (step + 1) !== 0) continue;
      const started = performance.now();
      const verdict = await detectAudio(ctx.audio, { wavPath: seg.path, types: audioTypes, businessTypes: audioBusinessTypes, lang }, ctx.log);
      clock.addAudio(performance.now() - started);
      verdict.notApplied.forEach((t) => notApplied.add(t));
      items.push(buildAudioItem(task.requestId, seg, ctx.media.url(task.baseUrl, rel(task.requestId, seg.path), expiresAt), verdict));
      progress.segmentsDone++;
      emit(ctx, task, "processing", progress);
    }
    return items;
  }));
  // if frame capture fails first, these settle later with nobody awaiting them: keep that from crashing the process
  audioItemsJob.catch(() => undefined);
  const frames = await framesJob.catch((err) => {
    verdicts.forEach((v) => v.catch(() => undefined));
    throw err;
  });
  if (plan && frames.length === 0 && info.hasVideo) throw new Unrecognised("no frame could be decoded");
  progress.framesTotal = frames.length;
  const [detected, audioItems] = await Promise.all([clock.span("detectFramesAfterExtract", () => Promise.all(verdicts)).then((v) => v.sort((a, b) => a.frame.index - b.frame.index)), audioItemsJob]);

  const frameItems = detected.map(({ frame, verdict, similarity }) => buildFrameItem(task.requestId, frame, verdict, ctx.media.url(task.baseUrl, rel(task.requestId, frame.path), expiresAt), similarity, imgTypes));
  // evidence clips around the REJECT frames, cut from the downloaded file before it is deleted
  const rejects = detected.filter((_, i) => frameItems[i].riskLevel === "REJECT").map(({ frame }) => ({ index: frame.index, timeSec: frame.timeSec }));
  const { clipBeforeSec, clipAfterSec } = ctx.config.preview;
  if (rejects.length && info.hasVideo) await clock.span("clips", () => cutFileClips({ source, demuxer: info.demuxer, clipsDir: clipsDirOf(dir), durationSec: info.durationSec, rejects, beforeSec: clipBeforeSec, afterSec: clipAfterSec }, (m) => ctx.log(`file ${task.requestId}: ${m}`)));
  const audioDuration = info.hasAudio ? (info.durationSec ?? 0) : 0;
  return buildFileResult({
    requestId: task.requestId,
    btId: req.data.btId,
    riskLevel: worst([...frameItems.map((f) => f.riskLevel), ...audioItems.map((a) => a.riskLevel)]),
    frames: frameItems,
    audio: audioItems,
    returnAllImg: req.data.returnAllImg === 1,
    returnAllAudio: req.data.returnAllAudio === 1,
    billingImgNum: frames.length,
    billingAudioDuration: Math.round(audioDuration * 1000) / 1000,
    time: info.durationSec ?? 0,
    passThrough: req.data.extra?.passThrough,
    notAppliedTypes: [...notApplied],
  });
}

/** Runs `fn` with a signal that also aborts after `ms`; past it the file ends with 1905 (its ffmpeg runs are stopped). */
async function withDeadline<T>(ms: number, outer: AbortSignal, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const timedOut = new Promise<never>((_, reject) => ac.signal.addEventListener("abort", () => reject(new Unrecognised(`processing took longer than ${Math.round(ms / 1000)} s (FILE_PROCESS_MIN_SEC + FILE_PROCESS_TIME_FACTOR × duration)`)), { once: true }));
  const timer = setTimeout(() => ac.abort(), ms);
  const work = fn(AbortSignal.any([outer, ac.signal]));
  work.catch(() => undefined); // after a timeout it settles with nobody awaiting it
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a download into `dir` and aborts it when the partial file (`source.*.part`) has not grown for `ms`
 * (a source that stalls before or in the middle of its body); the download then fails with 1905.
 */
async function withStallWatch<T>(dir: string, ms: number, outer: AbortSignal, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (!(ms > 0)) return fn(outer);
  const ac = new AbortController();
  let size = -1;
  let since = Date.now();
  const timer = setInterval(async () => {
    const parts = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith("source.") && n.endsWith(".part"));
    const now = (await Promise.all(parts.map((n) => fs.stat(path.join(dir, n)).then((st) => st.size, () => 0)))).reduce((a, b) => a + b, 0);
    if (now !== size) {
      size = now;
      since = Date.now();
    } else if (Date.now() - since >= ms) {
      ac.abort(new Unrecognised(`download stalled: no data for ${Math.round(ms / 1000)} s`));
    }
  }, Math.min(1000, ms / 2));
  try {
    return await fn(AbortSignal.any([outer, ac.signal]));
  } catch (err) {
    throw ac.signal.aborted && !outer.aborted ? ac.signal.reason : err;
  } finally {
    clearInterval(timer);
  }
}

/**
 * A failure reason fit for a client (Query / callback): no server path. Paths under `roots` (the task's media
 * folder, the media root, DATA_DIR) lose their folders, and any other absolute path left in the text (after a
 * space, quote, bracket or "=") becomes "<path>"; URLs ("http://…") are left as they are.
 */
export function publicReason(message: string, roots: readonly string[]): string {
  let out = message;
  for (const root of [...new Set(roots.filter((r) => r.length > 1))].sort((a, b) => b.length - a.length)) {
    out = out.split(root + path.sep).join("").split(root).join("<data>");
  }
  return out.replace(/(^|[\s'"`([=])\/[^\s'"`()[\]:;,]+/g, "$1<path>");
}

/** 1 − mean absolute difference of two 16×16 greyscale thumbnails. */
function compare(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < b.length; i++) sum += Math.abs((a[i] ?? 0) - b[i]);
  return Math.round((1 - sum / (b.length * 255)) * 1000) / 1000;
}

function throttle(fn: () => Promise<unknown>, ms: number): () => void {
  let last = 0;
  return () => {
    if (Date.now() - last < ms) return;
    last = Date.now();
    void fn().catch(() => undefined);
  };
}

/** Marks the task processing and counts the run; returns this run's number, or null when the task has finished meanwhile. */
async function setStatus(ctx: EngineContext, task: TaskRow, status: "processing", progress: TaskProgress): Promise<number | null> {
  const [row] = await ctx.store.db
    .update(tasks)
    .set({ status, progress, runCount: sql`${tasks.runCount} + 1`, updatedAt: new Date() })
    .where(and(eq(tasks.requestId, task.requestId), inArray(tasks.status, ["queued", "processing"])))
    .returning({ runCount: tasks.runCount });
  if (!row) return null;
  emit(ctx, task, status, progress);
  return row.runCount;
}

async function saveProgress(ctx: EngineContext, task: TaskRow, progress: TaskProgress) {
  await ctx.store.db.update(tasks).set({ progress: { ...progress }, updatedAt: new Date() }).where(eq(tasks.requestId, task.requestId));
}

function emit(ctx: EngineContext, task: TaskRow, status: "processing" | "done" | "failed", progress: TaskProgress, result?: Record<string, unknown>) {
  ctx.events.emit("file:progress", {
    requestId: task.requestId,
    btId: task.btId ?? "",
    status,
    ...progress,
    riskLevel: result?.riskLevel as "PASS" | "REVIEW" | "REJECT" | undefined,
    code: result?.code as number | undefined,
  });
}
