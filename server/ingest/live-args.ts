import { decodeLimits } from "./ffmpeg";

/** How a live URL is read: RTMP(S), HLS playlist, or another HTTP(S) stream (FLV, TS…). */
export type LiveInputKind = "rtmp" | "hls" | "http";

export const LIVE_SAMPLE_RATE = 16_000;
export const FRAME_INTERVAL_MIN_SEC = 1;
export const FRAME_INTERVAL_MAX_SEC = 60;

export function liveInputKind(url: string): LiveInputKind {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "http"; // not a URL: ffmpeg will refuse it and the pull fails like any unreachable address
  }
  if (/^rtmp[st]?s?:$/.test(u.protocol)) return "rtmp";
  return /\.m3u8$/i.test(u.pathname) ? "hls" : "http";
}

export interface LiveArgsInput {
  url: string;
  /** Already clamped; null = no frames. */
  frameIntervalSec: number | null;
  audio: boolean;
  maxWidth: number;
  ioTimeoutMs: number;
  /** Options for the input, put right before its -i (the egress guard's -http_proxy / -rtmp_tcurl). */
  inputArgs?: string[];
  /** Largest picture (w × h) the decoder accepts; bigger frames are refused (default: 8K, as MEDIA_MAX_WIDTH/HEIGHT). */
  maxPixels?: number;
  /** A further output (the live preview, server/preview), added only when frames are captured. */
  extraOutputs?: string[];
  /**
   * Decode keyframes only and capture the keyframe nearest each slot (the caller knows or assumes the source's
   * GOP is no longer than the cadence). Ignored when a further output re-encodes the video (it needs every frame).
   */
  keyframesOnly?: boolean;
}

/** Hostile sources: bounded probing and a decoder picture cap, as for files (server/ingest/ffmpeg.ts). */
const LIVE_PROBE_BYTES = "10000000";
const LIVE_MAX_PIXELS = 7680 * 4320;

export interface LiveArgs {
  args: string[];
  /** stdout carries JPEGs. */
  frames: boolean;
  /** fd 3 carries s16le mono PCM. */
  audio: boolean;
  /** Track map is mandatory (ffmpeg fails when the input lacks it) rather than optional. */
  videoRequired: boolean;
  audioRequired: boolean;
  /** extraOutputs were added */
  preview: boolean;
  /** only keyframes are decoded (-skip_frame nokey), frames picked by keyframeSelectExpr */
  keyframes: boolean;
}

// A zero-length stand-in keeps the audio output valid when the input has no audio (an ffmpeg output with
// no stream is fatal). It is stream-copied, so it needs no first frame to initialise, and the output's
// max_interleave_delta stops the muxer from waiting for packets it will never produce.
const EMPTY_AUDIO = `anullsrc=r=${LIVE_SAMPLE_RATE}:cl=mono,atrim=end_sample=0`;
const AUDIO_FILTER = `aresample=${LIVE_SAMPLE_RATE}:async=1:first_pts=0,aformat=sample_fmts=s16:channel_layouts=mono`;
/** FLV headers from RTMP/HTTP-FLV servers claim both tracks even when one never comes; don't wait 5 s for it. */
const FLV_ANALYZE_US = "2000000";

/**
 * Frame cadence as STACK.md's proven live command: the first frame, then the first one ≥ N s after the last
 * kept; also any frame whose time went backwards (a timestamp reset), which would otherwise stall selection.
 */
export function selectExpr(intervalSec: number): string {
  return `select='isnan(prev_selected_t)+gte(t-prev_selected_t,${intervalSec})+lt(t,prev_selected_t)'`;
}

/** Below this cadence keyframe-only capture is not tried: sources' GOPs are rarely shorter than 2 s. */
export const KEYFRAME_MIN_CADENCE_SEC = 2;

/**
 * Keyframe-only cadence (the decoder outputs keyframes only): slots every N s from the first frame; a keyframe
 * fills the next open slot when the one after it, a GOP later (the last keyframe gap, t - prev_t), would sit no
 * nearer, so a capture lies within half a GOP of its slot. The next slot is the first one after the keyframe
 * (a gap in the source skips the slots it covered instead of catching up with every keyframe). Expression
 * variable 0 holds the next slot; a timestamp going backwards restarts the grid, as selectExpr does.
 */
export function keyframeSelectExpr(intervalSec: number): string {
  const n = intervalSec;
  const gapHalf = "if(isnan(prev_t),0,(t-prev_t)/2)";
  const nextSlot = `st(0,ld(0)+${n}*max(1,floor((t-ld(0))/${n})+1))`;
  return `select='if(isnan(prev_selected_t)+lt(t,prev_selected_t),st(0,t+${n});1,if(gte(t+${gapHalf},ld(0)),${nextSlot};1,0))'`;
}

/** An extra output that re-encodes video needs every decoded frame (the preview's H.264 rendition). */
export function reencodesVideo(outputArgs: string[] | undefined): boolean {
  const a = outputArgs ?? [];
  return a.some((arg, i) => (arg === "-c:v" || arg === "-codec:v" || arg === "-vcodec") && a[i + 1] !== "copy");
}

/**
 * ffmpeg arguments for one live pull (ffmpegArgv adds the protocol whitelists and global flags). Each
 * output holds one real stream, so the muxer never holds packets back waiting for another track.
 * Frames: select → scale → showinfo (pts on stderr) → mjpeg on stdout. Audio: 16 kHz mono s16le on
 * fd 3, gap-filled from t=0 so the sample count is the media clock. With both wanted, the audio track is
 * optional (stand-in above) and a missing video track makes ffmpeg fail fast ("Output file #0 does not
 * contain any stream"), after which the caller reruns audio-only; with one wanted, its track is required.
 */
export function buildLiveArgs(o: LiveArgsInput): LiveArgs {
  const frames = o.frameIntervalSec !== null;
  const both = frames && o.audio;
  const args: string[] = [
    // progress lines (time=…) feed the stall watchdog; ffmpegArgv put -nostats first, the last one wins
    "-stats",
  ];
  const kind = liveInputKind(o.url);
  // Measured with ffmpeg 5.1: an FLV/RTMP read that stops waits rw_timeout twice before giving up, so half
  // of ioTimeoutMs ends a dead source after ≈ ioTimeoutMs. HLS fetches each segment on its own: full value.
  args.push("-rw_timeout", String(Math.round(o.ioTimeoutMs * (kind === "hls" ? 1000 : 500))));
  if (kind !== "hls") args.push("-analyzeduration", FLV_ANALYZE_US);
  args.push("-probesize", LIVE_PROBE_BYTES, ...decodeLimits(o.maxPixels ?? LIVE_MAX_PIXELS));
  // No -reconnect*: a reconnect in the middle of an HTTP-FLV body restarts the FLV byte stream, which the
  // demuxer cannot splice, and the HLS demuxer already skips a failed segment. Retrying is the caller's job.
  const keyframes = frames && o.keyframesOnly === true && !reencodesVideo(o.extraOutputs);
  // a decoder option: the skipped frames are never decoded (a stream-copied preview still gets every packet)
  if (keyframes) args.push("-skip_frame:v", "nokey");
  args.push(...(o.inputArgs ?? []), "-i", o.url);
  if (both) args.push("-f", "lavfi", "-i", EMPTY_AUDIO);

  if (frames) {
    const width = Math.max(16, Math.floor(o.maxWidth));
    args.push(
      "-map", both ? "0:v:0?" : "0:v:0",
      "-vf", `${(keyframes ? keyframeSelectExpr : selectExpr)(o.frameIntervalSec as number)},scale='min(iw,${width})':-2,showinfo`,
      "-vsync", "vfr",
      // one thread for this output: measured, ffmpeg 5.1 otherwise hands each captured frame over ≈ 1 s late (1.15 s
      // → 0.14 s glass → JPEG from a zerolatency RTMP publish, the same with rawvideo out: not the encoder's own delay)
      "-threads", "1",
      "-c:v", "mjpeg", "-q:v", "4",
      "-flush_packets", "1",
      "-f", "image2pipe", "pipe:1",
    );
  }
  if (o.audio) {
    args.push("-map", both ? "0:a:0?" : "0:a:0");
    if (both) args.push("-map", "1:a");
    args.push("-filter:a:0", AUDIO_FILTER, "-c:a:0", "pcm_s16le");
    if (both) args.push("-c:a:1", "copy", "-max_interleave_delta", "1");
    args.push("-flush_packets", "1", "-f", "s16le", "pipe:3");
  }
  const preview = frames && (o.extraOutputs?.length ?? 0) > 0;
  if (preview) args.push(...(o.extraOutputs as string[]));
  return { args, frames, audio: o.audio, videoRequired: frames && !both, audioRequired: o.audio && !both, preview, keyframes };
}
