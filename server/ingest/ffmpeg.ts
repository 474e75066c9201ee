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

/** Input option making the decoder refuse pictures larger than `maxPixels` (w × h), e.g. a 20000×20000 frame. */
export const decodeLimits = (maxPixels?: number): string[] => (maxPixels && maxPixels > 0 ? ["-max_pixels", String(Math.min(2 ** 31 - 1, Math.floor(maxPixels)))] : []);

// Per scheme family: only what that family needs, so a playlist cannot pivot to file: or another scheme
// (httpproxy: rtmps tunnels its TLS through the egress guard's proxy, server/ingest/live-egress.ts).
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

/** Turns a finished run into the error it evidences, or null when it succeeded. */
export function failureOf(result: ProcessResult & { spawnError: Error | null }, bin: string): FfmpegError | null {
  const tail = stderrTail(result.stderr);
  if (result.spawnError) return new FfmpegError("failed", `cannot start ${bin}: ${result.spawnError.message}`, tail, { cause: result.spawnError });
  if (result.stoppedBy === "timeout") return new FfmpegError("timeout", `${bin} timed out`, tail);
  if (result.stoppedBy === "aborted") return new FfmpegError("killed", `${bin} was stopped`, tail);
  if (result.code === 0) return null;
  if (result.code === null) return new FfmpegError("killed", `${bin} was killed by ${result.signal ?? "a signal"}`, tail);
  const kind = classifyStderr(result.stderr);
  const line = lastMeaningfulLine(result.stderr) || `exit code ${result.code}`;
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
  const err = failureOf(result, "ffmpeg");
  if (err) throw err;
  return { stdout: result.stdout, stderr: result.stderr };
}
