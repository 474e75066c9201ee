import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { LivePreviewSink } from "../ingest/live";
import { cutClip, planClip, type ClipPlan } from "./clips";
import { InputCodecs, modeFor, previewOutputArgs, REMUX, type PreviewMode } from "./encoding";
import { PreviewRing, SEGMENT_FILE, segmentFile, type PreviewSegment } from "./playlist";

export interface PreviewSettings {
  /** PREVIEW_RETENTION_MIN: media kept in the ring */
  retentionMin: number;
  /** PREVIEW_SEGMENT_SEC: target segment length (a source's GOP may make them longer) */
  segmentSec: number;
  clipBeforeSec: number;
  clipAfterSec: number;
}

export const PLAYLIST = "index.m3u8";
export const previewDirOf = (taskDir: string) => path.join(taskDir, "preview");
export const clipsDirOf = (taskDir: string) => path.join(taskDir, "clips");

const POLL_MS = 250;
/** Cut clips remembered, so a late REJECT verdict inside one is added to it instead of starting another. */
const RECENT_CLIPS = 20;

/**
 * One video task's preview and evidence clips. Each ffmpeg run of the task's pull adds a preview output
 * (outputArgs); the recorder follows the CSV list ffmpeg appends to as each segment closes, keeps the ring
 * of the last PREVIEW_RETENTION_MIN minutes (index.m3u8 on disk, with program date-times from the pull's own
 * media clock, a discontinuity at each new run) and cuts a clip once the ring holds CLIP_AFTER_SEC after a
 * REJECT frame. Files: <task>/preview/s<n>.ts + index.m3u8, <task>/clips/<n>.mp4 + <n>.json.
 */
export class PreviewRecorder implements LivePreviewSink {
  readonly previewDir: string;
  readonly clipsDir: string;
  private ring = new PreviewRing();
  private ready = false;
  private loading: Promise<void> | null = null;
  /** what the next run's output uses; runMode: what the current run's uses */
  private mode: PreviewMode = REMUX;
  private runMode: PreviewMode = REMUX;
  private codecs = new InputCodecs();
  private clock: { wallAt(mediaSec: number): Date; observe(mediaSec: number): void } | null = null;
  private newRun = false;
  /** this run's segments with their media start, re-dated as the pull's media clock settles */
  private runSegments: Array<{ seg: PreviewSegment; startSec: number }> = [];
  /** this run's output cannot play (it is being restarted transcoded): what it lists is thrown away */
  private discardRun = false;
  private list = { offset: 0, rest: "" };
  private timer: NodeJS.Timeout | null = null;
  private reading = false;
  /** disk work of this task's preview, one step at a time */
  private chain: Promise<void> = Promise.resolve();
  private readonly plans: ClipPlan[] = [];
  private readonly cut: ClipPlan[] = [];
  private closed = false;

  constructor(
    taskDir: string,
    private readonly settings: PreviewSettings,
    private readonly log: (msg: string) => void,
  ) {
    this.previewDir = previewDirOf(taskDir);
    this.clipsDir = clipsDirOf(taskDir);
  }

  private get listFile(): string {
    return path.join(this.previewDir, "run.csv");
  }

  /** Loads the ring a previous process left (the task resumes) and removes segment files it does not list. */
  open(): Promise<void> {
    this.loading ??= (async () => {
      await fsp.mkdir(this.previewDir, { recursive: true });
      const text = await fsp.readFile(path.join(this.previewDir, PLAYLIST), "utf8").catch(() => null);
      if (text) this.ring = PreviewRing.parse(text);
      const listed = new Set(this.ring.segments.map((s) => segmentFile(s.seq)));
      for (const name of await fsp.readdir(this.previewDir)) if (SEGMENT_FILE.test(name) && !listed.has(name)) await fsp.rm(path.join(this.previewDir, name), { force: true });
      this.ready = true;
    })();
    return this.loading;
  }

  // ---- LivePreviewSink: called by the live pull around each ffmpeg run ----

  outputArgs(): string[] {
    if (!this.ready || this.closed) return [];
    fs.rmSync(this.listFile, { force: true });
    this.list = { offset: 0, rest: "" };
    this.codecs = new InputCodecs();
    this.runMode = this.mode;
    this.newRun = true;
    this.discardRun = false;
    this.runSegments = [];
    return previewOutputArgs({ dir: this.previewDir, startNumber: this.ring.nextSeq, listFile: this.listFile, segmentSec: this.settings.segmentSec, mode: this.runMode });
  }

  runStarted(clock: { wallAt(mediaSec: number): Date; observe(mediaSec: number): void }): void {
    this.clock = clock;
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.timer.unref();
  }

  /** true: this run's preview would not play in a browser (e.g. HEVC copied): the pull restarts it transcoded. */
  stderrLine(line: string): boolean {
    if (!this.codecs.line(line)) return false;
    const wanted = modeFor(this.codecs);
    const unplayable = (this.runMode.video === "copy" && wanted.video !== "copy") || (this.runMode.audio === "copy" && wanted.audio !== "copy");
    this.mode = wanted;
    this.discardRun ||= unplayable;
    if (unplayable) this.log(`preview: source is ${this.codecs.video ?? "no video"}/${this.codecs.audio ?? "no audio"}: transcoding the preview (video ${wanted.video}, audio ${wanted.audio})`);
    return unplayable;
  }

  async runEnded(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.enqueue(() => this.readList());
  }

  // ---- clips ----

  /** A REJECT frame captured at `at`: keep a clip from CLIP_BEFORE_SEC before to CLIP_AFTER_SEC after it. */
  clipAround(frameIndex: number, at: Date): void {
    if (this.closed) return;
    const frame = { index: frameIndex, atMs: at.getTime() };
    const slack = this.settings.segmentSec * 1000;
    const covered = this.cut.find((c) => frame.atMs - this.settings.clipBeforeSec * 1000 >= c.fromMs - slack && frame.atMs + this.settings.clipAfterSec * 1000 <= c.toMs + slack);
    if (covered) {
      covered.frames.push(frame);
      void this.enqueue(() => this.addFrameToCut(covered.n, frame));
      return;
    }
    planClip(this.plans, frame, this.settings.clipBeforeSec, this.settings.clipAfterSec);
    void this.enqueue(() => this.cutDue(false));
  }

  /**
   * The pull is over for this process: clips still waiting are cut from what the ring holds; `ended` marks
   * the playlist finished (EXT-X-ENDLIST). Process shutdown passes false: the task resumes at the next start.
   */
  async close(ended: boolean): Promise<void> {
    await this.open();
    await this.runEnded();
    await this.enqueue(async () => {
      await this.cutDue(true);
      this.closed = true;
      this.ring.ended = ended;
      await this.writePlaylist();
    });
  }

  // ---- internals ----

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(step).catch((err: Error) => this.log(`preview: ${err.message}`));
    return this.chain;
  }

  private poll(): void {
    if (this.reading) return;
    this.reading = true;
    void this.enqueue(() => this.readList()).finally(() => (this.reading = false));
  }

  /** New lines of ffmpeg's CSV list (`s<n>.ts,<start>,<end>`, media seconds): segments now complete on disk. */
  private async readList(): Promise<void> {
    const fh = await fsp.open(this.listFile, "r").catch(() => null);
    if (!fh) return;
    let added = 0;
    try {
      const { size } = await fh.stat();
      if (size <= this.list.offset) return;
      const buf = Buffer.alloc(size - this.list.offset);
      const { bytesRead } = await fh.read(buf, 0, buf.length, this.list.offset);
      this.list.offset += bytesRead;
      const lines = (this.list.rest + buf.subarray(0, bytesRead).toString("utf8")).split("\n");
      this.list.rest = lines.pop() ?? "";
      for (const line of lines) if (this.addListed(line)) added++;
    } finally {
      await fh.close();
    }
    if (added) await this.afterSegments();
  }

  private addListed(line: string): boolean {
    const [name, start, end] = line.trim().split(",");
    const m = SEGMENT_FILE.exec(name ?? "");
    const startSec = Number(start);
    const endSec = Number(end);
    if (!m || !Number.isFinite(startSec) || !Number.isFinite(endSec)) return false;
    const seq = Number(m[1]);
    if (seq < this.ring.nextSeq) return false;
    // the next run starts at the same number and overwrites it
    if (this.discardRun) return false;
    const durationSec = Math.max(0.001, endSec - startSec);
    // the muxer closed it on reading the next keyframe (stream copy: no decoding in between), so its end is
    // media that just arrived: a tighter reading for the media clock than a decoded, encoded frame
    this.clock?.observe(endSec);
    const startMs = this.clock ? this.clock.wallAt(startSec).getTime() : Date.now() - durationSec * 1000;
    const seg: PreviewSegment = { seq, durationSec, startMs, discontinuity: this.newRun && this.ring.segments.length > 0 };
    this.ring.push(seg);
    this.runSegments.push({ seg, startSec });
    this.newRun = false;
    return true;
  }

  private async afterSegments(): Promise<void> {
    // the media clock's offset settles after the join burst (live-clock.ts): the run's dates follow it, so the
    // playlist and the frames' imgTime stay on one clock
    const clock = this.clock;
    if (clock) for (const r of this.runSegments) r.seg.startMs = clock.wallAt(r.startSec).getTime();
    const keepFrom = Math.min(...this.plans.map((p) => p.fromMs));
    const dropped = this.ring.trim(this.settings.retentionMin * 60, keepFrom);
    if (dropped.length) {
      const gone = new Set(dropped);
      this.runSegments = this.runSegments.filter((r) => !gone.has(r.seg));
    }
    await this.writePlaylist();
    for (const s of dropped) await fsp.rm(path.join(this.previewDir, segmentFile(s.seq)), { force: true });
    await this.cutDue(false);
  }

  private async writePlaylist(): Promise<void> {
    const file = path.join(this.previewDir, PLAYLIST);
    await fsp.writeFile(`${file}.tmp`, this.ring.render());
    await fsp.rename(`${file}.tmp`, file);
  }

  /** Cuts every planned clip the ring now holds to its end (`all`: every one, with what there is). */
  private async cutDue(all: boolean): Promise<void> {
    const held = this.ring.window()?.endMs ?? -Infinity;
    for (const plan of [...this.plans]) {
      if (!all && held < plan.toMs) continue;
      this.plans.splice(this.plans.indexOf(plan), 1);
      const meta = await cutClip({ previewDir: this.previewDir, clipsDir: this.clipsDir, plan, ring: this.ring.segments, partial: held < plan.toMs });
      if (!meta) {
        this.log(`preview: no preview media for the clip of frame ${plan.n}`);
        continue;
      }
      this.cut.push(plan);
      if (this.cut.length > RECENT_CLIPS) this.cut.shift();
    }
  }

  private async addFrameToCut(n: number, frame: { index: number; atMs: number }): Promise<void> {
    const file = path.join(this.clipsDir, `${n}.json`);
    const meta = JSON.parse(await fsp.readFile(file, "utf8")) as { frames: Array<{ index: number; at: string }> };
    meta.frames.push({ index: frame.index, at: new Date(frame.atMs).toISOString() });
    await fsp.writeFile(file, JSON.stringify(meta));
  }
}
