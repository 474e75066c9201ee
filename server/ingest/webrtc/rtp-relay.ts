// Hands the media a werift peer receives to ffmpeg: each negotiated track's (decrypted) RTP goes unchanged to a
// loopback UDP port that ffmpeg reads through an SDP file, so ffmpeg does the depacketising (H.264, VP8, Opus).
// startRtpForward is that hand-over alone (a WHEP pull gives the SDP straight to its capture ffmpeg);
// startRtpRelay adds an ffmpeg whose output args the caller decides (WHIP: an FLV publish to the app's RTMP ingest).
import dgram from "node:dgram";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RTCPeerConnection, RTCRtpTransceiver } from "werift";
import { startFfmpeg } from "../ffmpeg";
import { ffmpegSdp, rtpMediaOf, type RtpMedia } from "./codecs";

export interface RtpForward {
  /** The negotiated media lines, as written in the SDP file. */
  media: RtpMedia[];
  /** An SDP file ffmpeg reads the forwarded RTP through (removed by close). */
  sdpPath: string;
  /** RTP packets forwarded so far, by kind. */
  packets: { video: number; audio: number };
  /** Asks the sender for keyframes while a new reader starts (it can only begin decoding at one). */
  readerStarted(): void;
  close(): Promise<void>;
}

export interface RtpRelay {
  /** The negotiated media lines handed to ffmpeg. */
  media: RtpMedia[];
  /** RTP packets forwarded so far, by kind. */
  packets: { video: number; audio: number };
  /** Resolves when ffmpeg has exited (the relay is then closed): its exit code and last stderr lines. */
  done: Promise<{ code: number | null; stderrTail: string }>;
  close(): Promise<void>;
}

export interface RtpRelayOptions {
  /** ffmpeg output arguments, e.g. ["-c:v", "libx264", …, "-f", "flv", "rtmp://…"]. */
  output: (media: RtpMedia[]) => string[];
  log?: (m: string) => void;
}

/**
 * ffmpeg input options for a forward's SDP file: only the SDP demuxer, only the file and loopback RTP/UDP it names.
 * Losses are repaired by werift's NACKs before forwarding, so the reorder queue rarely holds anything.
 * `-fpsprobesize 0`: the SDP already names every codec, and a keyframe gives the picture size; without it ffmpeg
 * holds the first frames back while it estimates the frame rate (measured on a WHEP pull of a 15 fps canvas: the
 * first frame called back 1.9–2.0 s after it was drawn with it, 0.6–0.7 s without; steady-state frames unchanged).
 * A relay that re-encodes for an FLV output needs that frame rate (without it the x264 → RTMP publish never starts).
 */
export function rtpInputArgs(o: { probeFrameRate?: boolean } = {}): string[] {
  return ["-protocol_whitelist", "file,udp,rtp", "-f", "sdp", "-reorder_queue_size", "200", ...(o.probeFrameRate ? [] : ["-fpsprobesize", "0"])];
}

/** A free loopback UDP port whose successor (ffmpeg's RTCP port) was also free a moment ago. */
async function freePortPair(): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const a = dgram.createSocket("udp4");
    await new Promise<void>((resolve, reject) => a.once("error", reject).bind(0, "127.0.0.1", () => resolve()));
    const port = a.address().port;
    const b = dgram.createSocket("udp4");
    const ok = port % 2 === 0 && port < 65535 && (await new Promise<boolean>((resolve) => b.once("error", () => resolve(false)).bind(port + 1, "127.0.0.1", () => resolve(true))));
    a.close();
    b.close();
    if (ok) return port;
  }
  throw new Error("no free UDP port pair on 127.0.0.1");
}

/** The first negotiated codec of each receiving transceiver that ffmpeg can read (one video, one audio at most). */
export function negotiatedMedia(pc: RTCPeerConnection): Array<{ media: RtpMedia; transceiver: RTCRtpTransceiver }> {
  const out: Array<{ media: RtpMedia; transceiver: RTCRtpTransceiver }> = [];
  for (const t of pc.getTransceivers()) {
    if (t.stopped || t.rejected || out.some((o) => o.media.kind === t.kind)) continue;
    if (t.kind !== "video" && t.kind !== "audio") continue;
    const media = t.codecs.map((c) => rtpMediaOf(t.kind as "video" | "audio", c)).find((m) => m !== null);
    if (media) out.push({ media, transceiver: t });
  }
  return out;
}

/**
 * Keyframe requests while a reader starts (after each readerStarted), then a slow keep-alive. The first ones may
 * reach the sender before ffmpeg has bound its ports (that keyframe is lost, the next request's is not): measured,
 * [50, 200, 500, …] ms joins 0.2 s sooner than [300, 1000, …] (WHEP pull: 1.15 → 0.88 s to the first callback).
 */
const PLI_AT_MS = [50, 200, 500, 1000, 2000, 4000];
const PLI_KEEPALIVE_MS = 10_000;

export async function startRtpForward(pc: RTCPeerConnection): Promise<RtpForward> {
  const tracks = negotiatedMedia(pc);
  if (tracks.length === 0) throw new Error("no H.264/VP8 video or Opus audio was negotiated");
  const ports = new Map<string, number>();
  for (const t of tracks) ports.set(t.media.kind, await freePortPair());
  const dir = await mkdtemp(path.join(tmpdir(), "webrtc-relay-"));
  const sdpPath = path.join(dir, "in.sdp");
  await writeFile(sdpPath, ffmpegSdp(tracks.map((t) => ({ ...t.media, port: ports.get(t.media.kind)! }))));
  const sock = dgram.createSocket("udp4");
  sock.on("error", () => {}); // loopback sends to a port nobody reads yet: ICMP errors are expected, not fatal
  await new Promise<void>((resolve) => sock.bind(0, "127.0.0.1", () => resolve()));
  const packets = { video: 0, audio: 0 };
  const subs: Array<{ unSubscribe(): void }> = [];
  let startTimers: NodeJS.Timeout[] = [];
  let closed = false;
  const videoSsrcs = new Set<number>();
  for (const { media: m, transceiver } of tracks) {
    const port = ports.get(m.kind)!;
    const attach = (track: { onReceiveRtp: { subscribe(f: (p: import("werift").RtpPacket) => void): { unSubscribe(): void } }; ssrc?: number }) => {
      if (m.kind === "video" && track.ssrc !== undefined) videoSsrcs.add(track.ssrc);
      subs.push(
        track.onReceiveRtp.subscribe((p) => {
          if (closed || p.header.payloadType !== m.payloadType) return;
          if (m.kind === "video") videoSsrcs.add(p.header.ssrc);
          packets[m.kind]++;
          sock.send(p.serialize(), port, "127.0.0.1");
        }),
      );
    };
    for (const track of transceiver.receiver.tracks) attach(track);
    transceiver.onTrack.subscribe((track) => attach(track));
  }
  const video = tracks.find((t) => t.media.kind === "video");
  const pli = () => {
    if (closed || !video) return;
    for (const ssrc of videoSsrcs) void video.transceiver.receiver.sendRtcpPLI(ssrc).catch(() => {});
  };
  const keepAlive = setInterval(pli, PLI_KEEPALIVE_MS);
  return {
    media: tracks.map((t) => t.media),
    sdpPath,
    packets,
    readerStarted() {
      if (closed) return;
      for (const t of startTimers) clearTimeout(t);
      startTimers = PLI_AT_MS.map((ms) => setTimeout(pli, ms));
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      for (const t of startTimers) clearTimeout(t);
      for (const s of subs) s.unSubscribe();
      sock.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function startRtpRelay(pc: RTCPeerConnection, o: RtpRelayOptions): Promise<RtpRelay> {
  const fwd = await startRtpForward(pc);
  const input = [...rtpInputArgs({ probeFrameRate: true }), "-analyzeduration", "2000000", "-probesize", "2000000", "-i", fwd.sdpPath];
  const stderr: string[] = [];
  let closing = false;
  const proc = startFfmpeg(["-loglevel", "warning", ...input, ...o.output(fwd.media)], {
    onStderrLine: (l) => {
      stderr.push(l);
      if (stderr.length > 30) stderr.shift();
    },
  });
  fwd.readerStarted();
  const done = proc.done.then(async (r) => {
    if (!closing) o.log?.(`[webrtc] ffmpeg relay exited (${r.code ?? r.signal}): ${stderr.slice(-3).join(" | ")}`);
    await fwd.close();
    return { code: r.code, stderrTail: stderr.join("\n") };
  });
  const close = async () => {
    if (!closing) {
      closing = true;
      await fwd.close();
      await proc.stop("aborted");
    }
    await done;
  };
  return { media: fwd.media, packets: fwd.packets, done, close };
}
