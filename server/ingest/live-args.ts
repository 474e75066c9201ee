/** How a live URL is read: RTMP(S), HLS playlist, or another HTTP(S) stream (FLV, TS…). */
export type LiveInputKind = "rtmp" | "hls" | "http";

export const LIVE_SAMPLE_RATE = 16_000;
export const FRAME_INTERVAL_MIN_SEC = 1;
export const FRAME_INTERVAL_MAX_SEC = 60;

export function liveInputKind(url: string): LiveInputKind {
  const u = new URL(url);
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
}

export interface LiveArgs {
  args: string[];
  /** stdout carries JPEGs. */
  frames: boolean;
  /** fd 3 carries s16le mono PCM. */
  audio: boolean;
  /** Track map is mandatory (ffmpeg fails when the input lacks it) rather than optional. */
  videoRequired: boolean;
  audioRequired: boolean;
}

// Zero-length stand-ins keep an output valid when its optional track is absent from the input
// (an ffmpeg output with no stream at all is a fatal error); they never produce a packet.
const EMPTY_VIDEO = "color=c=black:s=16x16:r=1,trim=end_frame=0";
const EMPTY_AUDIO = `anullsrc=r=${LIVE_SAMPLE_RATE}:cl=mono,atrim=end_sample=0`;

/** Frame cadence as STACK.md's proven live command: the first frame, then the first one ≥ N s after the last kept. */
export function selectExpr(intervalSec: number): string {
  return `select='isnan(prev_selected_t)+gte(t-prev_selected_t,${intervalSec})'`;
}

/**
 * ffmpeg arguments for one live pull (ffmpegArgv adds the protocol whitelists and global flags).
 * Frames: select → scale → showinfo (pts on stderr) → mjpeg on stdout. Audio: 16 kHz mono s16le on
 * fd 3, gap-filled from t=0 so the sample count is the media clock. With both wanted, each track is
 * optional; with one wanted, its track is required so a missing one fails fast.
 */
export function buildLiveArgs(o: LiveArgsInput): LiveArgs {
  const frames = o.frameIntervalSec !== null;
  const both = frames && o.audio;
  const args: string[] = [
    // progress lines (time=…) feed the stall watchdog; ffmpegArgv put -nostats first, the last one wins
    "-stats",
    "-rw_timeout", String(Math.round(o.ioTimeoutMs * 1000)),
    // No -reconnect*: a reconnect in the middle of an HTTP-FLV body restarts the FLV byte stream, which the
    // demuxer cannot splice, and the HLS demuxer already skips a failed segment. Retrying is the caller's job.
    "-i", o.url,
  ];
  if (both) args.push("-f", "lavfi", "-i", EMPTY_VIDEO, "-f", "lavfi", "-i", EMPTY_AUDIO);

  if (frames) {
    const width = Math.max(16, Math.floor(o.maxWidth));
    args.push("-map", both ? "0:v:0?" : "0:v:0");
    if (both) args.push("-map", "1:v");
    args.push(
      "-vf", `${selectExpr(o.frameIntervalSec as number)},scale='min(iw,${width})':-2,showinfo`,
      "-vsync", "vfr",
      "-c:v", "mjpeg", "-q:v", "4",
      "-flush_packets", "1",
      "-f", "image2pipe", "pipe:1",
    );
  }
  if (o.audio) {
    args.push("-map", both ? "0:a:0?" : "0:a:0");
    if (both) args.push("-map", "2:a");
    args.push(
      "-af", "aresample=async=1:first_pts=0",
      "-ac", "1", "-ar", String(LIVE_SAMPLE_RATE),
      "-c:a", "pcm_s16le",
      "-flush_packets", "1",
      "-f", "s16le", "pipe:3",
    );
  }
  return { args, frames, audio: o.audio, videoRequired: frames && !both, audioRequired: o.audio && !both };
}
