import path from "node:path";
import { FfmpegError, classifyStderr, lastMeaningfulLine, stderrTail } from "./ffmpeg-error";
import { startProcess, type OwnedProcess, type ProcessResult, type StartOptions } from "./process";
import { resolveFfmpeg } from "./resolve";

export { FfmpegError, classifyStderr, type FfmpegErrorKind } from "./ffmpeg-error";
export { resolveFfmpeg, resolveFfprobe } from "./resolve";

export const LOCAL_PROTOCOLS = "file,pipe";

/**
 * Input options bounding how much of a (possibly hostile) file ffmpeg/ffprobe reads to find its streams:
 * at most 10 MB and 10 s of media (ffmpeg's own defaults are similar, but stated here they cannot drift).
 */
export const PROBE_LIMITS: readonly string[] = ["-probesize", "10000000", "-analyzeduration", "10000000"];

/**
 * Demuxers a downloaded file may be opened with: single-file containers whose demuxers read that one file and
 * never open another file or URL named inside it. Left out on purpose: playlists and manifests (hls, dash),
 * concat/ffconcat scripts, image sequences (image2) and every other demuxer that opens further inputs (a file
 * served as "video.mp4" can be any of these: ffmpeg probes the content, not the name). Names are the ones `-f`
 * takes; each also matches the demuxer's full name list ("mov" ↔ "mov,mp4,m4a,3gp,3g2,mj2").
 */
export const FILE_DEMUXERS = ["mov", "matroska", "flv", "mpegts", "avi", "ogg", "wav", "mp3", "aac", "flac", "mpeg", "asf"] as const;
export type FileDemuxer = (typeof FILE_DEMUXERS)[number];

/** `-format_whitelist` value for probing a downloaded file: every allowlisted demuxer, nothing else. */
export const FILE_FORMAT_WHITELIST = FILE_DEMUXERS.join(",");

/** The allowlisted demuxer behind a probed format name ("mov,mp4,m4a,3gp,3g2,mj2" → "mov", "hls" → null). */
export function fileDemuxerFor(formatName: string | null | undefined): FileDemuxer | null {
  const names = (formatName ?? "").split(",").map((n) => n.trim().toLowerCase());
  return FILE_DEMUXERS.find((d) => names.includes(d)) ?? null;
}

/**
 * Input options (put right before `-i <path>`) for opening a downloaded local file: only the `file` protocol
 * (no pipe, no network), and only allowlisted demuxers. With `demuxer` (the one probing found) that demuxer is
 * forced with `-f` and is the only one on `-format_whitelist`; without it every allowlisted demuxer may be
 * probed, and a playlist, concat script or image sequence is refused before its header is read (so it can
 * open nothing). Both options exist in ffmpeg 4.x and 5.x (ffmpeg and ffprobe).
 */
export function fileInputOptions(demuxer?: FileDemuxer | null): string[] {
  if (!demuxer) return ["-protocol_whitelist", "file", "-format_whitelist", FILE_FORMAT_WHITELIST];
  // mov can follow external data references (drefs); off by default, stated here so it cannot drift
  return ["-protocol_whitelist", "file", "-format_whitelist", demuxer, "-f", demuxer, ...(demuxer === "mov" ? ["-enable_drefs", "0"] : [])];
}

/** Demuxer named in ffmpeg's "[<demuxer> @ 0x…] Format not on whitelist" refusal, e.g. "hls,applehttp"; else null. */
export function refusedFormatIn(stderr: string): string | null {
  return /\[([^\]@]+?) @ 0x[0-9a-f]+\] Format not on whitelist/i.exec(stderr)?.[1]?.trim() ?? null;
}

/** A readable name for a refused demuxer: "hls,applehttp" → "hls playlist", "concat" → "concat script". */
export function describeFormat(demuxer: string): string {
  const first = demuxer.split(",")[0].trim().toLowerCase();
  if (first === "hls" || first === "applehttp") return "hls playlist";
  if (first === "concat") return "concat script (ffconcat)";
  if (first === "dash") return "dash manifest";
  if (first === "image2" || first.endsWith("_pipe") || first === "image2pipe") return `image (${first})`;
  return first;
}

/** Input option making the decoder refuse pictures larger than `maxPixels` (w × h), e.g. a 20000×20000 frame. */
export const decodeLimits = (maxPixels?: number): string[] => (maxPixels && maxPixels > 0 ? ["-max_pixels", String(Math.min(2 ** 31 - 1, Math.floor(maxPixels)))] : []);

// Per scheme family: only what that family needs, so a playlist cannot pivot to file: or another scheme
// (httpproxy: rtmps tunnels its TLS through the egress guard's proxy, server/ingest/live-egress.ts). Under the egress
// guard an http(s) input is the gateway's local URL and gets GATEWAY_PROTOCOLS instead (no https, tls, httpproxy);
// these lists serve runs without the guard (ALLOW_PRIVATE_NETWORKS=1), where every address is allowed anyway.
const NETWORK_PROTOCOLS: Record<string, string> = {
  http: "http,https,tcp,tls,crypto,httpproxy,hls",
  https: "http,https,tcp,tls,crypto,httpproxy,hls",
  rtmp: "rtmp,rtmps,rtmpt,rtmpts,tcp,tls,http,https,httpproxy",
  rtmps: "rtmp,rtmps,rtmpt,rtmpts,tcp,tls,http,https,httpproxy",
  rtmpt: "rtmp,rtmps,rtmpt,rtmpts,tcp,tls,http,https,httpproxy",
  rtmpts: "rtmp,rtmps,rtmpt,rtmpts,tcp,tls,http,https,httpproxy",
  rtsp: "rtsp,rtsps,rtp,srtp,udp,tcp,tls",
  rtsps: "rtsp,rtsps,rtp,srtp,udp,tcp,tls",
  srt: "srt,udp",
};

/**
 * The `-protocol_whitelist` for one ffmpeg input. Plain paths and file: get "file,pipe"; known network
 * schemes get their family's list; any other scheme (concat:, data:, ftp:, subfile:…) also gets
 * "file,pipe", which ffmpeg then refuses because the scheme itself is not on it.
 */
export function protocolWhitelistFor(input: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(input)?.[1]?.toLowerCase();
  if (!scheme || scheme.length === 1 /* Windows drive letter */) return LOCAL_PROTOCOLS;
  return NETWORK_PROTOCOLS[scheme] ?? LOCAL_PROTOCOLS;
}

/**
 * Adds a `-protocol_whitelist` to every input that lacks one: the first input's goes first of all,
 * later inputs' go right before their `-i` (per-input options bind to the next input).
 */
export function withProtocolWhitelists(args: readonly string[]): string[] {
  const out: string[] = [];
  let groupStart = 0; // index in `args` where the current input's options begin
  let first = true;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-i" && i + 1 < args.length) {
      const group = args.slice(groupStart, i);
      if (!group.includes("-protocol_whitelist")) {
        const wl = ["-protocol_whitelist", protocolWhitelistFor(args[i + 1])];
        if (first) out.unshift(...wl);
        else out.push(...wl);
      }
      out.push("-i", args[i + 1]);
      i++;
      groupStart = i + 1;
      first = false;
      continue;
    }
    out.push(args[i]);
  }
  return out;
}

/** Full argv: whitelist(s) first, then the flags every run needs, then the caller's arguments. */
export function ffmpegArgv(args: readonly string[]): string[] {
  const withWl = withProtocolWhitelists(args);
  const firstIsWl = withWl[0] === "-protocol_whitelist";
  const head = firstIsWl ? withWl.slice(0, 2) : [];
  const rest = firstIsWl ? withWl.slice(2) : withWl;
  // -nostats: progress lines are noise in collected stderr; a caller wanting them can pass -stats (last wins).
  return [...head, "-hide_banner", "-nostdin", "-nostats", ...rest];
}

/**
 * `text` with the absolute paths among `args` shortened to their base names ("/data/media/<id>/source" →
 * "source"), and their folders dropped from any other file named in it (ffmpeg prints the expanded output
 * name, e.g. ".../frame-00001.jpg"): error messages can reach a client, server paths must not.
 */
export function withoutPaths(text: string, args: readonly string[]): string {
  const files = args.filter((a) => a.length > 1 && path.isAbsolute(a));
  const dirs = files.map((f) => path.dirname(f)).filter((d) => d.length > 1);
  let out = text;
  for (const f of [...new Set(files)].sort((a, b) => b.length - a.length)) out = out.split(f).join(path.basename(f));
  for (const d of [...new Set(dirs)].sort((a, b) => b.length - a.length)) out = out.split(d + path.sep).join("");
  return out;
}

/**
 * Turns a finished run into the error it evidences, or null when it succeeded. With the run's `args`, the
 * message names files by base name only (withoutPaths); the stderr tail (logs only) keeps them.
 */
export function failureOf(result: ProcessResult & { spawnError: Error | null }, bin: string, args: readonly string[] = []): FfmpegError | null {
  const tail = stderrTail(result.stderr);
  if (result.spawnError) return new FfmpegError("failed", `cannot start ${bin}: ${result.spawnError.message}`, tail, { cause: result.spawnError });
  if (result.stoppedBy === "timeout") return new FfmpegError("timeout", `${bin} timed out`, tail);
  if (result.stoppedBy === "aborted") return new FfmpegError("killed", `${bin} was stopped`, tail);
  if (result.code === 0) return null;
  if (result.code === null) return new FfmpegError("killed", `${bin} was killed by ${result.signal ?? "a signal"}`, tail);
  const refused = refusedFormatIn(result.stderr);
  if (refused) return new FfmpegError("invalid-data", `${bin} refused the input: unsupported container format: ${describeFormat(refused)}`, tail);
  const kind = classifyStderr(result.stderr);
  const line = withoutPaths(lastMeaningfulLine(result.stderr), args) || `exit code ${result.code}`;
  return new FfmpegError(kind, `${bin} failed (${kind}): ${line}`, tail);
}

export type FfmpegRunOptions = Pick<StartOptions, "timeoutMs" | "signal" | "onStderrLine">;

/**
 * Starts ffmpeg and hands back the owned child (for long-lived pulls: read stdout as it comes, stop()
 * when done). `done` resolves with the raw result; use failureOf() to classify it.
 */
export function startFfmpeg(args: readonly string[], opts: StartOptions = {}): OwnedProcess & { argv: string[] } {
  const bin = resolveFfmpeg().path;
  const argv = ffmpegArgv(args);
  return { ...startProcess(bin, argv, opts), argv };
}

/** Runs ffmpeg to completion; rejects with a classified FfmpegError on failure, timeout or abort. */
export async function runFfmpeg(args: string[], opts: FfmpegRunOptions = {}): Promise<{ stdout: Buffer; stderr: string }> {
  const proc = startFfmpeg(args, opts);
  const result = await proc.done;
  const err = failureOf(result, "ffmpeg", args);
  if (err) throw err;
  return { stdout: result.stdout, stderr: result.stderr };
}
