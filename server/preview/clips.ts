import fs from "node:fs/promises";
import path from "node:path";
import { runFfmpeg } from "../ingest/ffmpeg";
import { endMs, segmentFile, type PreviewSegment } from "./playlist";

/** A clip around REJECT frames: from `fromMs` to `toMs` (wall clock), cut once the ring holds `toMs`. */
export interface ClipPlan {
  /** the first REJECT frame's index: the clip is clips/<n>.mp4 */
  n: number;
  frames: Array<{ index: number; atMs: number }>;
  fromMs: number;
  toMs: number;
}

/** What is kept beside each clip (clips/<n>.json) and listed to the dashboard. */
export interface ClipMeta {
  n: number;
  frames: Array<{ index: number; at: string }>;
  /** the span asked for: first frame − CLIP_BEFORE_SEC … last frame + CLIP_AFTER_SEC */
  from: string;
  to: string;
  /** what the clip holds: whole segments, so each end is within half a segment of the span */
  startAt: string;
  endAt: string;
  durationSec: number;
  /** the stream ended (or the ring lacked media) before the whole span was there */
  partial: boolean;
  /** a file's clip (server/preview/file-clips.ts): its span in seconds of the file (the times above are those
   * seconds as if from 1970), and whether it was stream-copied (false: a small H.264/AAC rendition) */
  offsets?: { fromSec: number; toSec: number; copied: boolean };
}

/** A bound on any clip's length, whatever the settings. */
export const MAX_CLIP_SEC = 120;

export const clipFile = (n: number) => `${n}.mp4`;
export const CLIP_FILE = /^(\d{1,9})\.mp4$/;

/**
 * Adds a REJECT frame at `atMs` to a plan still waiting whose first frame is at most `afterSec` earlier (the
 * clip then runs on to this frame's `afterSec`), or starts a new plan. So every REJECT frame has one clip that
 * holds its whole span, a run of hits gives a clip at least every `afterSec` (none waits for the run to end),
 * and no clip is longer than before + 2 × after. Returns the plan it went to.
 */
export function planClip(plans: ClipPlan[], frame: { index: number; atMs: number }, beforeSec: number, afterSec: number): ClipPlan {
  const from = frame.atMs - beforeSec * 1000;
  const to = frame.atMs + afterSec * 1000;
  const joined = plans.find((p) => {
    const first = Math.min(...p.frames.map((f) => f.atMs));
    return frame.atMs >= first && frame.atMs <= first + afterSec * 1000 && Math.max(p.toMs, to) - Math.min(p.fromMs, from) <= MAX_CLIP_SEC * 1000;
  });
  if (joined) {
    joined.frames.push(frame);
    joined.fromMs = Math.min(joined.fromMs, from);
    joined.toMs = Math.max(joined.toMs, to);
    return joined;
  }
  const plan = { n: frame.index, frames: [frame], fromMs: from, toMs: to };
  plans.push(plan);
  return plan;
}

/**
 * The segments a clip is cut from: each one whose middle lies in the span, plus any holding one of the
 * frames (so a clip always shows its hits), in ring order.
 */
export function segmentsFor(plan: ClipPlan, ring: readonly PreviewSegment[]): PreviewSegment[] {
  return ring.filter((s) => {
    const mid = (s.startMs + endMs(s)) / 2;
    return (mid >= plan.fromMs && mid <= plan.toMs) || plan.frames.some((f) => f.atMs >= s.startMs && f.atMs < endMs(s));
  });
}

/**
 * Cuts a clip from the preview segments on disk: ffmpeg's concat demuxer, stream copy (no decode, no second
 * pull), into clips/<n>.mp4 (+ its .json). Null when the ring holds none of the span.
 */
export async function cutClip(o: { previewDir: string; clipsDir: string; plan: ClipPlan; ring: readonly PreviewSegment[]; partial: boolean }): Promise<ClipMeta | null> {
  const segments = segmentsFor(o.plan, o.ring);
  if (segments.length === 0) return null;
  await fs.mkdir(o.clipsDir, { recursive: true });
  const list = path.join(o.previewDir, `.clip-${o.plan.n}.ffconcat`);
  // plain names in the segments' own folder: the concat demuxer's safe mode accepts them as they are
  await fs.writeFile(list, `ffconcat version 1.0\n${segments.map((s) => `file '${segmentFile(s.seq)}'`).join("\n")}\n`);
  const out = path.join(o.clipsDir, clipFile(o.plan.n));
  const part = `${out}.part`;
  try {
    await runFfmpeg(["-f", "concat", "-i", list, "-map", "0", "-c", "copy", "-avoid_negative_ts", "make_zero", "-movflags", "+faststart", "-f", "mp4", "-y", part], { timeoutMs: 60_000 });
    await fs.rename(part, out);
  } finally {
    await fs.rm(list, { force: true });
    await fs.rm(part, { force: true });
  }
  const first = segments[0];
  const last = segments[segments.length - 1];
  const iso = (ms: number) => new Date(ms).toISOString();
  const meta: ClipMeta = {
    n: o.plan.n,
    frames: o.plan.frames.map((f) => ({ index: f.index, at: iso(f.atMs) })),
    from: iso(o.plan.fromMs),
    to: iso(o.plan.toMs),
    startAt: iso(first.startMs),
    endAt: iso(endMs(last)),
    durationSec: Math.round(segments.reduce((sum, s) => sum + s.durationSec, 0) * 1000) / 1000,
    partial: o.partial || first.startMs > o.plan.fromMs + first.durationSec * 500 || endMs(last) < o.plan.toMs - last.durationSec * 500,
  };
  await fs.writeFile(path.join(o.clipsDir, `${o.plan.n}.json`), JSON.stringify(meta));
  return meta;
}

/** The clips kept for a task, oldest first. */
export async function listClips(clipsDir: string): Promise<ClipMeta[]> {
  const names = await fs.readdir(clipsDir).catch(() => [] as string[]);
  const metas: ClipMeta[] = [];
  for (const name of names) {
    if (!/^\d{1,9}\.json$/.test(name)) continue;
    const meta = await fs
      .readFile(path.join(clipsDir, name), "utf8")
      .then((t) => JSON.parse(t) as ClipMeta)
      .catch(() => null);
    if (meta && Number.isInteger(meta.n)) metas.push(meta);
  }
  return metas.sort((a, b) => a.n - b.n);
}
