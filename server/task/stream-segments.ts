// A live task's audio segments once captured: detected one at a time, in order (each passes its transcript to the
// next), each called back once.
import path from "node:path";
import { metrics } from "../metrics";
import type { SegmentVerdict } from "../detect/audio";
import type { LiveSegment } from "../ingest/live";
import type { StreamProduct } from "./pull-retries";
import { audioStreamSegmentResult, videoStreamAudioResult } from "./stream-callbacks";
import { concatWavs, detectAudio } from "./audio-verdict";
import type { DrainLane, LaneDeps } from "./stream-lane";
import { langOf } from "./stream-request";

/** Audio segments of one stream waiting for detection; past it the oldest is called back not checked. */
const MAX_SEGMENT_BACKLOG = 3;

interface SegmentJob {
  s: LiveSegment;
  previous: LiveSegment | null;
  settled: boolean;
  begin?: number;
}

export interface SegmentLaneDeps extends LaneDeps {
  product: StreamProduct;
  /** the task's folder (a REJECT's preceding audio is written there) */
  dir: string;
  audioRiskTypes: string[];
  audioBusinessTypes: string[];
}

export class SegmentLane implements DrainLane {
  private readonly queue: SegmentJob[] = [];
  private detecting: SegmentJob | null = null;
  private readonly counts = { captured: 0, checked: 0, notChecked: 0, skipped: 0 };
  private last: LiveSegment | null = null;
  private previousText: string | undefined;

  constructor(private readonly d: SegmentLaneDeps) {}

  counters() {
    return { ...this.counts, waiting: this.queue.length, detecting: this.detecting ? 1 : 0 };
  }

  get undone(): number {
    return this.queue.length + (this.detecting ? 1 : 0);
  }

  /** A captured segment (already in the stream's state): counted, then detected, skipped (audioDetectStep) or left unchecked. */
  take(s: LiveSegment): void {
    this.counts.captured++;
    metrics().segments.inc({ state: "captured" });
    const step = Number(this.d.req.data.audioDetectStep ?? 0);
    const previous = this.last;
    this.last = s;
    if (step > 0 && (s.index - 1) % (step + 1) !== 0) {
      this.counts.skipped++; // skipped segments are not reviewed (§2.1)
      return;
    }
    this.queue.push({ s, previous, settled: false });
    while (this.queue.length > MAX_SEGMENT_BACKLOG) {
      this.settle(this.queue.shift()!, null);
      this.d.noteBehind();
    }
    this.pump();
  }

  settleAll(): void {
    for (const job of [...this.queue.splice(0), ...(this.detecting ? [this.detecting] : [])]) this.settle(job, null);
  }

  /** The lease went elsewhere: what waits is the new holder's to capture again (no callback). */
  dropWaiting(): void {
    this.queue.length = 0;
  }

  /** One segment at a time, in order (each passes its transcript to the next: returnPreText). */
  private pump(): void {
    if (this.detecting || !this.queue.length) return;
    const job = this.queue.shift()!;
    this.detecting = job;
    void this.detect(job)
      .catch((err) => this.d.ctx.log(`stream ${this.d.requestId}: segment ${job.s.index}: ${(err as Error).stack ?? err}`))
      .finally(() => {
        this.settle(job, null); // no-op unless it failed
        this.detecting = null;
        this.pump();
        this.d.changed();
      });
  }

  private async detect(job: SegmentJob): Promise<void> {
    const { ctx, req } = this.d;
    job.begin = Date.now();
    const previousText = req.data.returnPreText === 1 ? this.previousText : undefined;
    const verdict = await detectAudio(ctx.audio, { wavPath: job.s.path, types: this.d.audioRiskTypes, businessTypes: this.d.audioBusinessTypes, lang: langOf(req), previousText }, ctx.log);
    if (job.settled) return;
    this.previousText = verdict.segmentText;
    this.settle(job, verdict);
  }

  /** Counts the segment once, checked (verdict) or not checked (null), and queues its callback. */
  private settle(job: SegmentJob, verdict: SegmentVerdict | null): void {
    if (job.settled) return;
    const { ctx, req, requestId } = this.d;
    job.settled = true;
    if (verdict) this.counts.checked++;
    else this.counts.notChecked++;
    metrics().segments.inc({ state: verdict ? "checked" : "not_checked" });
    if (verdict) this.d.noteLag((Date.now() - job.s.endedAt.getTime()) / 1000);
    const v = verdict ?? unlabelledSegment(langOf(req));
    this.d.noteRisk(v.riskLevel);
    const d = req.data;
    if (v.riskLevel === "PASS" && d.returnAllText !== 1) return;
    const { s, previous } = job;
    const begin = job.begin ?? Date.now();
    const finish = Date.now();
    this.d.emit(async () => {
      let preAudioUrl: string | undefined;
      if (d.returnPreAudio === 1 && v.riskLevel === "REJECT" && previous) {
        const file = path.join(this.d.dir, `pre${s.index}.wav`);
        await concatWavs(previous.path, s.path, file);
        preAudioUrl = this.d.mediaUrl(file);
      }
      const input = { taskId: requestId, index: s.index, audioUrl: this.d.mediaUrl(s.path), verdict: v, preAudioUrl, startedAt: s.startedAt, endedAt: s.endedAt, begin, finish, room: d.room, passThrough: d.extra?.passThrough, detected: verdict !== null };
      if (this.d.product === "videostream") {
        await ctx.dispatcher.enqueue({ requestId, url: req.audioCallback!, body: videoStreamAudioResult({ ...input, btId: d.btId ? String(d.btId) : undefined }), schedule: "videostream" });
      } else {
        const body = audioStreamSegmentResult({ ...input, btId: String(d.btId ?? ""), requestParams: req.data });
        await ctx.dispatcher.enqueue({ requestId, url: req.callback!, body, schedule: "audiostream" });
      }
    });
  }
}

function unlabelledSegment(lang: "zh" | "en"): SegmentVerdict {
  return { riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: lang === "en" ? "Normal" : "正常", vadCode: 0, riskDetail: { riskSource: 1000 }, allLabels: [], businessLabels: [], silent: false, applied: [], notApplied: [], timingsMs: {} };
}
