import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { parseTypeList, IMG_TYPES, IMG_BUSINESS_TYPES, AUDIO_TYPES, AUDIO_BUSINESS_TYPES, AUDIOSTREAM_TYPES, AUDIOSTREAM_BUSINESS_TYPES } from "../../lib/contract/taxonomy";
import type { FrameVerdict } from "../detect";
import type { LiveFrame, LivePull, LiveSegment } from "../ingest/live";
import { streamSourceFor } from "../ingest/stream-source";
import { mediaEgress } from "./url-policy";
import { tasks, type StreamState, type TaskRow } from "../store/schema";
import type { EngineContext } from "./context";
import { worst } from "./file-result";
import { pullRetryDelayMs, type StreamProduct } from "./pull-retries";
import { audioStreamEnd, audioStreamSegmentResult, frameResult, videoStreamAudioResult, videoStreamEnd } from "./stream-callbacks";
import { concatWavs, detectAudio } from "./audio-verdict";

/** Frames waiting for detection beyond this are reported undetected (detectType 2) instead of queueing without bound. */
const MAX_FRAME_BACKLOG = 4;

type Level = "PASS" | "REVIEW" | "REJECT";

export interface StreamRequest {
  imgType?: string;
  imgBusinessType?: string;
  audioType?: string;
  audioBusinessType?: string;
  type?: string;
  businessType?: string;
  imgCallback?: string;
  audioCallback?: string;
  callback?: string;
  acceptLang?: "zh" | "en";
  data: Record<string, unknown> & { btId?: string; room?: string; extra?: { passThrough?: Record<string, unknown> } };
}

export const initialStreamState = (): StreamState => ({ nextFrameIndex: 1, nextSegmentIndex: 1, worstRisk: "PASS", gotFrame: false, streamTimeSec: 0 });

/** One running live task: pulls with retries (§4), detects, and queues callbacks; ends once, with a reason. */
export class StreamTask {
  private readonly product: StreamProduct;
  private readonly req: StreamRequest;
  private readonly state: StreamState;
  private readonly dir: string;
  private pull: LivePull | null = null;
  private stopping = false;
  private closed = false;
  private wake: (() => void) | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** audio detection runs in its own lane so a slow transcript never holds back frame results */
  private audioChain: Promise<void> = Promise.resolve();
  private lastSegment: LiveSegment | null = null;
  private previousText: string | undefined;
  private backlog = 0;
  private pullBase = 0;
  private loop: Promise<void> | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  private readonly imgTypes: string[];
  private readonly imgBusinessTypes: string[];
  private readonly audioTypes: string[];
  private readonly audioRiskTypes: string[];
  private readonly audioBusinessTypes: string[];

  constructor(
    private readonly ctx: EngineContext,
    private readonly row: TaskRow,
    private readonly onEnded: (requestId: string) => void,
  ) {
    this.product = row.kind as StreamProduct;
    this.req = row.request as unknown as StreamRequest;
    this.state = { ...initialStreamState(), ...(row.state ?? {}) };
    this.dir = path.join(ctx.mediaRoot, row.requestId);
    const r = this.req;
    this.imgTypes = this.product === "videostream" ? [...parseTypeList(r.imgType ?? "", IMG_TYPES).types] : [];
    this.imgBusinessTypes = this.product === "videostream" ? [...parseTypeList(r.imgBusinessType ?? "", IMG_BUSINESS_TYPES).types] : [];
    const video = this.product === "videostream";
    this.audioRiskTypes = video ? parseTypeList(r.audioType ?? "", AUDIO_TYPES).types.filter((t) => t !== "NONE") : [...parseTypeList(r.type ?? "", AUDIOSTREAM_TYPES).types];
    this.audioBusinessTypes = [...parseTypeList((video ? r.audioBusinessType : r.businessType) ?? "", video ? AUDIO_BUSINESS_TYPES : AUDIOSTREAM_BUSINESS_TYPES).types];
    this.audioTypes = [...this.audioRiskTypes, ...this.audioBusinessTypes];
  }

  get requestId(): string {
    return this.row.requestId;
  }

  start(): void {
    // a crash interrupted this task's end (its reason was stored): complete the end, never pull again
    if (this.state.endReason) {
      this.loop = this.finish(this.state.endReason, this.state.endErrorCode, true);
      return;
    }
    this.loop = this.run().catch((err) => {
      this.ctx.log(`stream ${this.requestId}: ${(err as Error).stack ?? err}`);
      return this.finish("failed", 3002);
    });
  }

  /** Close endpoint: stop pulling, send nothing more but the stream-end (when asked for). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.halt();
    // a task whose end a crash interrupted keeps its stored reason
    await this.finish(this.state.endReason ?? "closed", this.state.endErrorCode, this.state.endReason !== undefined);
  }

  /** Process shutdown: stop pulling but keep the task running in the store, to resume at next start. */
  async stop(): Promise<void> {
    await this.halt();
    await this.save();
  }

  private async halt(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.pull?.stop();
    await this.loop;
    await this.chain;
    await this.audioChain;
  }

  private async run(): Promise<void> {
    const source = streamSourceFor(this.req.data, mediaEgress(this.ctx));
    await fs.mkdir(this.dir, { recursive: true });
    const d = this.req.data;
    let retry = 0;
    while (!this.stopping) {
      this.pullBase = this.state.streamTimeSec;
      this.pull = source.open({
        frameIntervalSec: this.product === "videostream" ? Math.max(1, Math.min(60, Math.floor(Number(d.detectFrequency ?? 3)))) : null,
        audio: this.product === "audiostream" || this.audioTypes.length > 0,
        outDir: this.dir,
        frameStartIndex: this.state.nextFrameIndex,
        segmentStartIndex: this.state.nextSegmentIndex,
        onFrame: (f) => this.onFrame(f),
        onSegment: (s) => this.onSegment(s),
      });
      const end = await this.pull.done;
      this.pull = null;
      if (this.stopping || end.reason === "stopped") return;
      if (end.gotData) retry = 0;
      if (end.reason === "ended" && end.finite) return this.finish("ended");
      retry++;
      const streamType = String(d.streamType ?? "NORMAL");
      const delay = pullRetryDelayMs(this.product, streamType, retry, this.ctx.config.streamRetryTimeScale);
      if (delay === null) return this.finish("failed", end.reason === "failed" ? end.errorCode : 3001);
      this.ctx.log(`stream ${this.requestId}: pull ${end.reason}${end.reason === "failed" ? ` (${end.message})` : ""}; retry ${retry} in ${delay} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private onFrame(f: LiveFrame): void {
    this.state.nextFrameIndex = f.index + 1;
    this.state.gotFrame = true;
    this.state.streamTimeSec = Math.max(this.state.streamTimeSec, this.pullBase + f.streamTimeSec);
    const step = Number(this.req.data.detectStep ?? 0);
    let detect = step <= 1 || (f.index - 1) % step === 0;
    if (this.backlog >= MAX_FRAME_BACKLOG) detect = false;
    this.backlog++;
    const capturedAt = f.capturedAt;
    this.serially(async () => {
      this.backlog--;
      if (this.closed) return;
      const begin = Date.now();
      const bizStep = Number(this.req.data.imgBusinessDetectStep ?? 1);
      const verdict = detect
        ? await this.ctx.detect
            .detectFrame({ jpeg: new Uint8Array(await fs.readFile(f.path)), imgTypes: this.imgTypes, imgBusinessTypes: (f.index - 1) % Math.max(1, bizStep) === 0 ? this.imgBusinessTypes : [], lang: this.lang })
            .catch((err: Error) => {
              this.ctx.log(`stream ${this.requestId}: frame ${f.index} not detected: ${err.message}`);
              detect = false;
              return passVerdict(this.lang);
            })
        : passVerdict(this.lang);
      if (this.closed) return;
      this.noteRisk(verdict.riskLevel);
      if (verdict.riskLevel === "PASS" && this.req.data.returnAllImg !== 1) return;
      const body = frameResult({
        taskId: this.requestId,
        index: f.index,
        imgUrl: this.ctx.media.url(this.row.baseUrl, `${this.requestId}/${path.basename(f.path)}`, this.row.expiresAt),
        verdict,
        detected: detect,
        stepped: step > 1 || !detect,
        capturedAt,
        begin,
        finish: Date.now(),
        room: this.req.data.room,
        passThrough: this.req.data.extra?.passThrough,
      });
      // the indexes are stored before the callback is queued: after a crash the ids continue, never repeat
      await this.save();
      await this.ctx.dispatcher.enqueue({ requestId: this.requestId, url: this.req.imgCallback!, body, schedule: "videostream" });
    });
  }

  private onSegment(s: LiveSegment): void {
    this.state.nextSegmentIndex = s.index + 1;
    if (this.product === "audiostream") this.state.streamTimeSec = Math.max(this.state.streamTimeSec, this.pullBase + s.endSec);
    const step = Number(this.req.data.audioDetectStep ?? 0);
    const previous = this.lastSegment;
    this.lastSegment = s;
    if (step > 0 && (s.index - 1) % (step + 1) !== 0) return; // skipped segments are not reviewed (§2.1)
    this.audioChain = this.audioChain
      .then(async () => {
        if (this.closed) return;
        const begin = Date.now();
        const d = this.req.data;
        const previousText = d.returnPreText === 1 ? this.previousText : undefined;
        const verdict = await detectAudio(this.ctx.audio, { wavPath: s.path, types: this.audioRiskTypes, businessTypes: this.audioBusinessTypes, lang: this.lang, previousText }, this.ctx.log);
        this.previousText = verdict.segmentText;
        if (this.closed) return;
        this.noteRisk(verdict.riskLevel);
        if (verdict.riskLevel === "PASS" && d.returnAllText !== 1) return;
        let preAudioUrl: string | undefined;
        if (d.returnPreAudio === 1 && verdict.riskLevel === "REJECT" && previous) {
          const file = path.join(this.dir, `pre${s.index}.wav`);
          await concatWavs(previous.path, s.path, file);
          preAudioUrl = this.mediaUrl(file);
        }
        const input = { taskId: this.requestId, index: s.index, audioUrl: this.mediaUrl(s.path), verdict, preAudioUrl, startedAt: s.startedAt, endedAt: s.endedAt, begin, finish: Date.now(), room: d.room, passThrough: d.extra?.passThrough };
        await this.save();
        if (this.product === "videostream") {
          await this.ctx.dispatcher.enqueue({ requestId: this.requestId, url: this.req.audioCallback!, body: videoStreamAudioResult(input), schedule: "videostream" });
        } else {
          const body = audioStreamSegmentResult({ ...input, btId: String(d.btId ?? ""), requestParams: this.requestParams() });
          await this.ctx.dispatcher.enqueue({ requestId: this.requestId, url: this.req.callback!, body, schedule: "audiostream" });
        }
      })
      .catch((err) => this.ctx.log(`stream ${this.requestId}: ${(err as Error).stack ?? err}`));
  }

  private mediaUrl(file: string): string {
    return this.ctx.media.url(this.row.baseUrl, `${this.requestId}/${path.basename(file)}`, this.row.expiresAt);
  }

  private get lang(): "zh" | "en" {
    return this.req.acceptLang ?? "zh";
  }

  private requestParams(): Record<string, unknown> {
    return this.req.data;
  }

  private noteRisk(level: Level): void {
    this.state.worstRisk = worst([this.state.worstRisk, level]);
    if (!this.saveTimer) this.saveTimer = setTimeout(() => void this.save(), 1000);
  }

  private serially(job: () => Promise<void>): void {
    this.chain = this.chain.then(job).catch((err) => this.ctx.log(`stream ${this.requestId}: ${(err as Error).stack ?? err}`));
  }

  private async save(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.ctx.store.db.update(tasks).set({ state: { ...this.state }, updatedAt: new Date() }).where(eq(tasks.requestId, this.requestId));
  }

  private ended = false;

  /**
   * Ends the task once: stream-end callbacks (returnFinishInfo=1) after every queued result. Crash-safe in
   * three steps: the end reason is stored (a restart then completes the end instead of pulling), the
   * stream-ends are queued (after a crash only those not yet in the outbox), then the task is marked ended.
   */
  private async finish(reason: NonNullable<StreamState["endReason"]>, errorCode?: number, resumed = false): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.stopping = true;
    await this.chain;
    await this.audioChain;
    this.state.endReason = reason;
    if (errorCode) this.state.endErrorCode = errorCode;
    await this.save();
    if (this.req.data.returnFinishInfo === 1) {
      type End = { statCode?: number; contentType?: number };
      const endKey = (url: string, body: End) => `${body.contentType ?? 0} ${url}`;
      const queued = resumed ? (await this.ctx.dispatcher.deliveriesFor(this.requestId)).map((d) => ({ d, body: JSON.parse(d.body) as End })).filter((x) => x.body.statCode === 1).map((x) => endKey(x.d.url, x.body)) : [];
      const send = async (url: string, body: End, schedule: "videostream" | "audiostream") => {
        if (!queued.includes(endKey(url, body))) await this.ctx.dispatcher.enqueue({ requestId: this.requestId, url, body, schedule });
      };
      const requestParams = this.requestParams();
      if (this.product === "videostream") {
        const common = { taskId: this.requestId, worst: this.state.worstRisk, gotFrame: this.state.gotFrame, streamTimeSec: this.state.streamTimeSec, errorCode, requestParams };
        await send(this.req.imgCallback!, videoStreamEnd({ ...common, contentType: 1 }), "videostream");
        if (this.audioTypes.length > 0 && this.req.audioCallback) await send(this.req.audioCallback, videoStreamEnd({ ...common, contentType: 2 }), "videostream");
      } else {
        const body = audioStreamEnd({ taskId: this.requestId, btId: String(this.req.data.btId ?? ""), streamTimeSec: this.state.streamTimeSec, errorCode, requestParams });
        await send(this.req.callback!, body, "audiostream");
      }
    }
    if (this.saveTimer) clearTimeout(this.saveTimer);
    await this.ctx.store.db.update(tasks).set({ status: "ended", state: { ...this.state }, updatedAt: new Date() }).where(eq(tasks.requestId, this.requestId));
    this.ctx.log(`stream ${this.requestId} ended: ${reason}${errorCode ? ` (errorCode ${errorCode})` : ""}`);
    this.onEnded(this.requestId);
  }
}

function passVerdict(lang: "zh" | "en"): FrameVerdict {
  return { riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: lang === "en" ? "Normal" : "正常", riskDetail: { riskSource: 1000 }, allLabels: [], businessLabels: [], applied: [], notApplied: [], timingsMs: {} };
}
