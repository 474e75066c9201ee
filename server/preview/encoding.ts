import path from "node:path";

/** How the preview output gets its tracks: remuxed as they come, or encoded into what every browser plays. */
export interface PreviewMode {
  video: "copy" | "h264";
  audio: "copy" | "aac";
}

/** Until the input says otherwise: the usual RTMP/FLV/HLS source carries H.264 + AAC. */
export const REMUX: PreviewMode = { video: "copy", audio: "copy" };

/** hls.js plays these from MPEG-TS segments without help. */
const PLAYABLE_VIDEO = new Set(["h264"]);
const PLAYABLE_AUDIO = new Set(["aac"]);

export function modeFor(codecs: { video: string | null; audio: string | null }): PreviewMode {
  return { video: codecs.video === null || PLAYABLE_VIDEO.has(codecs.video) ? "copy" : "h264", audio: codecs.audio === null || PLAYABLE_AUDIO.has(codecs.audio) ? "copy" : "aac" };
}

export const sameMode = (a: PreviewMode, b: PreviewMode) => a.video === b.video && a.audio === b.audio;

const INPUT_STREAM = /^\s*Stream #0:\d+.*?: (Video|Audio): ([a-z0-9_]+)/;

/** Reads input #0's codecs from ffmpeg's stderr (its "Input #0" block, printed before any output starts). */
export class InputCodecs {
  video: string | null = null;
  audio: string | null = null;
  /** the input block is over: what is known now is all there is */
  complete = false;
  private inBlock = false;

  /** true once, on the line that completes the input block */
  line(l: string): boolean {
    if (this.complete) return false;
    if (/^Input #0\b/.test(l)) {
      this.inBlock = true;
      return false;
    }
    if (!this.inBlock) return false;
    if (/^(Input #\d+|Output #\d+|Stream mapping:)/.test(l)) {
      this.complete = true;
      return true;
    }
    const m = INPUT_STREAM.exec(l);
    if (m?.[1] === "Video" && this.video === null) this.video = m[2];
    if (m?.[1] === "Audio" && this.audio === null) this.audio = m[2];
    return false;
  }
}

export interface PreviewOutputInput {
  dir: string;
  /** number of the run's first segment file (s<n>.ts) */
  startNumber: number;
  /** CSV segment list ffmpeg appends to as each segment is closed: `s<n>.ts,<start>,<end>` */
  listFile: string;
  segmentSec: number;
  mode: PreviewMode;
}

/** Keyframes often enough for short segments, small enough to cost little on a loaded machine. */
const H264_RENDITION = ["-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-vf", "scale='min(640,iw)':-2", "-b:v", "700k", "-maxrate", "900k", "-bufsize", "1800k"];

/**
 * ffmpeg output arguments that add the preview to a live pull: input 0's first video and audio tracks cut
 * into MPEG-TS segments at keyframes (≈ segmentSec, or the source's GOP when longer), listed in a CSV as each
 * closes. The playlist is written by the recorder, not by ffmpeg (one ring across runs, see recorder.ts).
 */
export function previewOutputArgs(o: PreviewOutputInput): string[] {
  const video = o.mode.video === "copy" ? ["-c:v", "copy"] : [...H264_RENDITION, "-force_key_frames", `expr:gte(t,n_forced*${o.segmentSec})`];
  const audio = o.mode.audio === "copy" ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "64k"];
  return [
    "-map", "0:v:0?", "-map", "0:a:0?",
    ...video, ...audio,
    // a declared audio track that sends nothing must not hold the video back for ffmpeg's default 10 s
    "-max_interleave_delta", "1000000",
    "-f", "segment", "-segment_format", "mpegts", "-segment_time", String(o.segmentSec),
    "-segment_list", o.listFile, "-segment_list_type", "csv",
    "-segment_start_number", String(o.startNumber), "-reset_timestamps", "0",
    path.join(o.dir, "s%d.ts"),
  ];
}
