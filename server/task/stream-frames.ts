// A live task's frames once captured: detected (up to one per detect worker at a time), each called back once.
import fs from "node:fs/promises";
import { metrics } from "../metrics";
import type { FrameVerdict } from "../detect";
import type { QueuedFrameInput } from "../detect/pool";
import type { LiveFrame } from "../ingest/live";
import type { PreviewRecorder } from "../preview";
import { frameResult } from "./stream-callbacks";
import { FrameReuse, framePixels, type DetectedFrame } from "./frame-reuse";
import type { DrainLane, LaneDeps } from "./stream-lane";
import { langOf } from "./stream-request";

interface FrameJob {
  f: LiveFrame;
  settled: boolean;
  begin?: number;
  abort?: AbortController;
  /** the verdict is the one of this earlier frame: its pixels are unchanged (frame-reuse.ts) */
  reusedFrom?: number;
}

export interface FrameLaneDeps extends LaneDeps {
  imgTypes: string[];
  imgBusinessTypes: string[];
  /** the live preview: a REJECT cuts a clip around its frame */
  preview: PreviewRecorder | null;
}

export class FrameLane implements DrainLane {
  private readonly queue: FrameJob[] = [];
  private readonly detecting = new Set<FrameJob>();
  private readonly counts = { captured: 0, checked: 0, notChecked: 0, reused: 0 };
  private readonly reuse = new FrameReuse();

  constructor(private readonly d: FrameLaneDeps) {}

  counters() {
    return { ...this.counts, waiting: this.queue.length, detecting: this.detecting.size };
  }

  get undone(): number {
    return this.queue.length + this.detecting.size;
  }

  /** A captured frame (already in the stream's state): counted, then detected, skipped (detectStep) or left unchecked. */
  take(f: LiveFrame): void {
    this.counts.captured++;
    metrics().frames.inc({ state: "captured" });
    const job: FrameJob = { f, settled: false };
    const step = Number(this.d.req.data.detectStep ?? 0);
    if (step > 1 && (f.index - 1) % step !== 0) {
      this.settle(job, null); // skipped by detectStep (§2.1): called back as not checked
      return;
    }
    this.queue.push(job);
    // the detectors cannot keep up: the oldest waiting frame is called back now, as not checked
    while (this.queue.length > this.d.ctx.config.streamFrameBacklog) {
      this.settle(this.queue.shift()!, null);
      this.d.noteBehind();
    }
    this.pump();
  }

  settleAll(): void {
    for (const job of [...this.queue.splice(0), ...this.detecting]) this.settle(job, null);
  }

  /** The lease went elsewhere: what waits is the new holder's to capture again (no callback). */
  dropWaiting(): void {
    this.queue.length = 0;
  }

  /** Up to one frame per detect worker in flight; the pool serves streams round-robin. */
  private pump(): void {
    const max = Math.max(1, this.d.ctx.config.detectWorkers);
    while (this.detecting.size < max && this.queue.length) {
      const job = this.queue.shift()!;
      this.detecting.add(job);
      void this.detect(job).finally(() => {
        this.detecting.delete(job);
        this.pump();
        this.d.changed();
      });
    }
  }

  private async detect(job: FrameJob): Promise<void> {
    const { ctx, req, requestId } = this.d;
    job.begin = Date.now();
    job.abort = new AbortController();
    const bizStep = Math.max(1, Number(req.data.imgBusinessDetectStep ?? 1));
    let verdict: FrameVerdict | null = null;
    try {
      const jpeg = new Uint8Array(await fs.readFile(job.f.path));
      const imgBusinessTypes = (job.f.index - 1) % bizStep === 0 ? this.d.imgBusinessTypes : [];
      const businessKey = imgBusinessTypes.join(",");
      // the pixels are decoded beside the detectors (the libuv pool), only when frames may be reused
      const pixels = ctx.config.frameReuse ? framePixels(jpeg) : null;
      pixels?.catch(() => undefined);
      const same = pixels ? this.reuse.match(await pixels, businessKey) : null;
      if (same) {
        job.reusedFrom = same.index;
        this.counts.reused++;
        verdict = same.verdict;
      } else {
        const input: QueuedFrameInput = { jpeg, imgTypes: this.d.imgTypes, imgBusinessTypes, lang: langOf(req), lane: `stream:${requestId}`, signal: job.abort.signal };
        verdict = await ctx.detect.detectFrame(input);
        if (pixels) this.reuse.detected({ index: job.f.index, pixels: await pixels, verdict, businessKey, detectedAt: Date.now() } satisfies DetectedFrame);
      }
    } catch (err) {
      if (!job.settled) ctx.log(`stream ${requestId}: frame ${job.f.index} not detected: ${(err as Error).message}`);
    }
    this.settle(job, verdict);
  }

  /** Counts the frame once, checked (verdict) or not checked (null), and queues its callback. */
  private settle(job: FrameJob, verdict: FrameVerdict | null): void {
    if (job.settled) return;
    const { ctx, req, requestId } = this.d;
    job.settled = true;
    job.abort?.abort(); // a job still queued in the pool leaves it
    if (verdict) this.counts.checked++;
    else this.counts.notChecked++;
    metrics().frames.inc({ state: verdict ? "checked" : "not_checked" });
    if (verdict) {
      const lagSec = (Date.now() - job.f.capturedAt.getTime()) / 1000;
      metrics().detectionLag.observe(lagSec);
      this.d.noteLag(lagSec);
    }
    const v = verdict ?? passVerdict(langOf(req));
    this.d.noteRisk(v.riskLevel);
    if (v.riskLevel === "REJECT") this.d.preview?.clipAround(job.f.index, job.f.capturedAt);
    if (v.riskLevel === "PASS" && req.data.returnAllImg !== 1) return;
    const f = job.f;
    const step = Number(req.data.detectStep ?? 0);
    const body = frameResult({
      taskId: requestId,
      index: f.index,
      imgUrl: this.d.mediaUrl(f.path),
      verdict: v,
      detected: verdict !== null,
      stepped: step > 1 || verdict === null,
      reusedFrom: job.reusedFrom,
      capturedAt: f.capturedAt,
      begin: job.begin ?? Date.now(),
      finish: Date.now(),
      room: req.data.room,
      btId: req.data.btId ? String(req.data.btId) : undefined,
      passThrough: req.data.extra?.passThrough,
    });
    this.d.emit(() => ctx.dispatcher.enqueue({ requestId, url: req.imgCallback!, body, schedule: "videostream" }));
  }
}

function passVerdict(lang: "zh" | "en"): FrameVerdict {
  return { riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: lang === "en" ? "Normal" : "正常", riskDetail: { riskSource: 1000 }, allLabels: [], businessLabels: [], applied: [], notApplied: [], timingsMs: {} };
}
