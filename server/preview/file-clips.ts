// Evidence clips of a video file (issue #12.3): for every REJECT frame, N seconds before to N after, cut from the
// downloaded file itself (no second download) before it is deleted, into the task's clips/ beside a stream's —
// the same listing, signed links and incident exports serve both. Stream copy where MP4 can hold the codecs;
// otherwise (e.g. FLV's Sorenson Spark, WebM's VP8) a small H.264/AAC rendition, said so in the clip's record.
import fs from "node:fs/promises";
import path from "node:path";
import { fileInputOptions, runFfmpeg, type FileDemuxer } from "../ingest/ffmpeg";
import { MAX_CLIP_SEC, type ClipMeta } from "./clips";

export interface FileClipOptions {
  source: string;
  demuxer: FileDemuxer | null;
  clipsDir: string;
  durationSec: number | null;
  /** the file's REJECT frames: index (the result's `<requestId>_v<index>`) and time in the file */
  rejects: Array<{ index: number; timeSec: number }>;
  beforeSec: number;
  afterSec: number;
}

interface Plan {
  n: number;
  frames: Array<{ index: number; timeSec: number }>;
  from: number;
  to: number;
}

/** REJECT frames closer than `afterSec` share one clip (named after its first frame), each ≤ MAX_CLIP_SEC. */
export function planFileClips(o: Pick<FileClipOptions, "rejects" | "beforeSec" | "afterSec" | "durationSec">): Plan[] {
  const end = o.durationSec ?? Infinity;
  const plans: Plan[] = [];
  for (const f of [...o.rejects].sort((a, b) => a.timeSec - b.timeSec)) {
    const last = plans.at(-1);
    if (last && f.timeSec <= last.to && f.timeSec + o.afterSec - last.from <= MAX_CLIP_SEC) {
      last.frames.push(f);
      last.to = Math.min(end, f.timeSec + o.afterSec);
    } else plans.push({ n: f.index, frames: [f], from: Math.max(0, f.timeSec - o.beforeSec), to: Math.min(end, f.timeSec + o.afterSec) });
  }
  return plans;
}

const stamp = (sec: number) => new Date(Math.round(sec * 1000)).toISOString();

/** Cuts every planned clip; a clip that cannot be cut is logged and skipped (the result never waits on it). */
export async function cutFileClips(o: FileClipOptions, log: (m: string) => void): Promise<ClipMeta[]> {
  const plans = planFileClips(o);
  if (plans.length === 0) return [];
  await fs.mkdir(o.clipsDir, { recursive: true });
  const out: ClipMeta[] = [];
  for (const p of plans) {
    const file = path.join(o.clipsDir, `${p.n}.mp4`);
    const part = `${file}.part`;
    const input = [...fileInputOptions(o.demuxer), "-ss", p.from.toFixed(3), "-i", o.source, "-t", (p.to - p.from).toFixed(3), "-map", "0:v:0?", "-map", "0:a:0?"];
    const tail = ["-avoid_negative_ts", "make_zero", "-movflags", "+faststart", "-f", "mp4", "-y", part];
    let copied = true;
    try {
      await runFfmpeg([...input, "-c", "copy", ...tail], { timeoutMs: 60_000 });
    } catch {
      copied = false;
      try {
        await runFfmpeg([...input, "-c:v", "libx264", "-preset", "veryfast", "-vf", "scale='min(640,iw)':-2", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k", ...tail], { timeoutMs: 120_000 });
      } catch (err) {
        log(`clip ${p.n}: ${(err as Error).message}`);
        await fs.rm(part, { force: true });
        continue;
      }
    }
    await fs.rename(part, file);
    const meta: ClipMeta = {
      n: p.n,
      frames: p.frames.map((f) => ({ index: f.index, at: stamp(f.timeSec) })),
      from: stamp(p.from),
      to: stamp(p.to),
      startAt: stamp(p.from),
      endAt: stamp(p.to),
      durationSec: Math.round((p.to - p.from) * 1000) / 1000,
      partial: false,
      offsets: { fromSec: p.from, toSec: p.to, copied },
    };
    await fs.writeFile(path.join(o.clipsDir, `${p.n}.json`), JSON.stringify(meta));
    out.push(meta);
  }
  return out;
}
