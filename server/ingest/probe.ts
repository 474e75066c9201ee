import { FfmpegError, PROBE_LIMITS, describeFormat, failureOf, fileDemuxerFor, fileInputOptions, protocolWhitelistFor, refusedFormatIn, startFfmpeg, type FileDemuxer } from "./ffmpeg";
import { stderrTail } from "./ffmpeg-error";
import { startProcess } from "./process";
import { resolveFfprobe } from "./resolve";

export interface MediaInfo {
  durationSec: number | null;
  hasVideo: boolean;
  hasAudio: boolean;
  width: number | null;
  height: number | null;
  fps: number | null;
  formatName: string | null;
  /** The allowlisted demuxer this format is read with (FILE_DEMUXERS), to force on every later run; null when none. */
  demuxer: FileDemuxer | null;
}

/** A downloaded file whose container is not on the allowlist (a playlist, a concat script, an image…). */
export class UnsupportedContainerError extends FfmpegError {
  constructor(format: string, stderrTail = "") {
    super("invalid-data", `unsupported container format: ${format}`, stderrTail);
    this.name = "UnsupportedContainerError";
  }
}

const PROBE_TIMEOUT_MS = 30_000;

function positive(n: unknown): number | null {
  const v = typeof n === "string" ? Number(n) : n;
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null;
}

/** "30000/1001" → 29.97; "0/0" → null. */
export function parseRate(rate: string | undefined): number | null {
  if (!rate) return null;
  const [num, den] = rate.split("/").map(Number);
  const v = den === undefined ? num : den ? num / den : NaN;
  return positive(Math.round(v * 1000) / 1000);
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
}
interface ProbeJson {
  streams?: ProbeStream[];
  format?: { duration?: string; format_name?: string };
}

/** MediaInfo from `ffprobe -print_format json -show_format -show_streams` output. */
export function mediaInfoFromProbeJson(json: ProbeJson): MediaInfo {
  const streams = json.streams ?? [];
  // cover art in mp3/m4a shows up as a one-frame video stream; it is not video to moderate
  const video = streams.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === "audio");
  const streamMax = Math.max(0, ...streams.map((s) => positive(s.duration) ?? 0));
  return {
    durationSec: positive(json.format?.duration) ?? positive(streamMax),
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
    width: positive(video?.width),
    height: positive(video?.height),
    fps: video ? parseRate(video.avg_frame_rate) ?? parseRate(video.r_frame_rate) : null,
    formatName: json.format?.format_name ?? null,
    demuxer: fileDemuxerFor(json.format?.format_name),
  };
}

/** MediaInfo from the stream summary `ffmpeg -i <file>` prints to stderr (used when ffprobe is absent). */
export function mediaInfoFromFfmpegStderr(stderr: string): MediaInfo {
  const input = /^Input #0, (.+?), from '/m.exec(stderr);
  const dur = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const streamLines = stderr.split(/\r?\n/).filter((l) => /^\s*Stream #0:\d+/.test(l));
  const videoLine = streamLines.find((l) => / Video: /.test(l) && !/\(attached pic\)/.test(l));
  const size = videoLine ? /, (\d{2,5})x(\d{2,5})\b/.exec(videoLine) : null;
  const fps = videoLine ? /, ([\d.]+)(k?) fps\b/.exec(videoLine) ?? /, ([\d.]+)(k?) tbr\b/.exec(videoLine) : null;
  return {
    durationSec: dur ? positive(Number(dur[1]) * 3600 + Number(dur[2]) * 60 + Number(dur[3])) : null,
    hasVideo: Boolean(videoLine),
    hasAudio: streamLines.some((l) => / Audio: /.test(l)),
    width: size ? positive(Number(size[1])) : null,
    height: size ? positive(Number(size[2])) : null,
    fps: fps ? positive(Number(fps[1]) * (fps[2] ? 1000 : 1)) : null,
    formatName: input?.[1] ?? null,
    demuxer: fileDemuxerFor(input?.[1]),
  };
}

/** A plain path (no scheme): a local file, probed with only the file protocol and the allowlisted demuxers. */
const isLocalPath = (input: string) => {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(input)?.[1];
  return !scheme || scheme.length === 1;
};

/** Input options for probing: a local file gets fileInputOptions() (no demuxer forced yet), a URL its scheme's whitelist. */
const probeInputOptions = (input: string) => (isLocalPath(input) ? fileInputOptions() : ["-protocol_whitelist", protocolWhitelistFor(input)]);

/** The refusal of a non-allowlisted container, when that is why the probe failed. */
function refusal(stderr: string): UnsupportedContainerError | null {
  const refused = refusedFormatIn(stderr);
  return refused ? new UnsupportedContainerError(describeFormat(refused), stderrTail(stderr)) : null;
}

async function probeWithFfprobe(bin: string, file: string): Promise<MediaInfo> {
  const args = ["-v", "error", ...probeInputOptions(file), "-print_format", "json", "-show_format", "-show_streams", ...PROBE_LIMITS, "-i", file];
  const result = await startProcess(bin, args, { timeoutMs: PROBE_TIMEOUT_MS }).done;
  const err = failureOf(result, "ffprobe", args);
  if (err) throw (!result.stoppedBy && !result.spawnError && refusal(result.stderr)) || err;
  try {
    return mediaInfoFromProbeJson(JSON.parse(result.stdout.toString("utf8")) as ProbeJson);
  } catch (cause) {
    throw new FfmpegError("failed", "ffprobe printed unreadable JSON", stderrTail(result.stderr), { cause });
  }
}

async function probeWithFfmpeg(file: string): Promise<MediaInfo> {
  // With no output ffmpeg exits 1 after printing the input summary; only a summary-less run is a failure.
  const args = [...probeInputOptions(file), ...PROBE_LIMITS, "-i", file];
  const result = await startFfmpeg(args, { timeoutMs: PROBE_TIMEOUT_MS }).done;
  const summarised = !result.stoppedBy && !result.spawnError && /^Input #0/m.test(result.stderr);
  if (summarised) return mediaInfoFromFfmpegStderr(result.stderr);
  throw (!result.stoppedBy && !result.spawnError && refusal(result.stderr)) || (failureOf(result, "ffmpeg", args) ?? new FfmpegError("failed", "ffmpeg printed no input summary", stderrTail(result.stderr)));
}

/**
 * Duration, streams, size, rate and container of a file or URL; undecodable input → FfmpegError "invalid-data".
 * A local file is probed with fileInputOptions(): only allowlisted demuxers (FILE_DEMUXERS), so a playlist or
 * concat script is refused before it can open anything (UnsupportedContainerError, "unsupported container
 * format: hls playlist"); pass `info.demuxer` to extractFrames / extractAudioSegments to force the same demuxer.
 * Messages never name the file (they can reach a client).
 */
export async function probeMedia(file: string): Promise<MediaInfo> {
  const ffprobe = resolveFfprobe();
  const info = ffprobe ? await probeWithFfprobe(ffprobe.path, file) : await probeWithFfmpeg(file);
  if (isLocalPath(file) && !info.demuxer) throw new UnsupportedContainerError(describeFormat(info.formatName ?? "unknown"));
  if (!info.hasVideo && !info.hasAudio) throw new FfmpegError("invalid-data", "no decodable audio or video stream");
  return info;
}
