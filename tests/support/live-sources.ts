// Real live sources for tests: an RTMP/HTTP-FLV server (the app's own ingest) fed by an ffmpeg publisher,
// and HLS written by ffmpeg into a temp dir behind the static test server. Media is a small makeVideo()
// file (640×360, 15 fps, 2 s GOP) looped and stream-copied, so publishing costs almost no CPU.
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startRtmpServer } from "../../server/demo/rtmp-server";
import { startFfmpeg } from "../../server/ingest/ffmpeg";
import type { OwnedProcess } from "../../server/ingest/process";
import { makeVideo, startStaticServer, type VideoSpec } from "./media";
import { waitFor } from "./net";

export interface RtmpSource {
  rtmpUrl: string;
  flvUrl: string;
  /** Kills the publisher (the stream stops; the server stays up). */
  stopPublisher(): Promise<void>;
  /** Starts a fresh publisher on the same key; resolves once the server sees it publishing. */
  restartPublisher(): Promise<void>;
  close(): Promise<void>;
}

export interface RtmpSourceOptions {
  name: string;
  /** Omitted = endless. */
  durationSec?: number;
  /** Shown from fromSec to toSec of every loop of the source file (the loop lasts max(6, last toSec + 2) s). */
  qr?: VideoSpec["qr"];
  text?: VideoSpec["text"];
  audio?: "tone" | "noise" | "silence" | "none";
  /** Picture size (default 640×360 at 15 fps; the capacity bench uses 1280×720 at 25). */
  width?: number;
  height?: number;
  fps?: number;
  /** Keyframe interval of the looped file (default 2 s). */
  gopSec?: number;
  /** A plain colour instead of the moving test pattern (VideoSpec.background). */
  background?: string;
  /** B-frames of the looped file (VideoSpec.bFrames). */
  bFrames?: number;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 40) || "src";
const PUBLISH_TIMEOUT_MS = 15_000;

/** Source file for a looped source: the loop is long enough to contain every overlay window. */
export function loopSpec(name: string, o: Pick<RtmpSourceOptions, "qr" | "text" | "audio" | "width" | "height" | "fps" | "gopSec" | "background" | "bFrames">): VideoSpec {
  const lastWindow = Math.max(o.qr?.toSec ?? 0, o.text?.toSec ?? 0);
  // plain sources share one cached file; overlays get their own
  return { name: o.qr || o.text ? `live-${name}` : "live-loop", durationSec: Math.max(6, Math.ceil(lastWindow) + 2), width: o.width ?? 640, height: o.height ?? 360, fps: o.fps ?? 15, audio: o.audio ?? "tone", qr: o.qr, text: o.text, ...(o.gopSec ? { gopSec: o.gopSec } : {}), ...(o.background ? { background: o.background } : {}), ...(o.bFrames !== undefined ? { bFrames: o.bFrames } : {}) };
}

export async function startRtmpSource(o: RtmpSourceOptions): Promise<RtmpSource> {
  const file = await makeVideo(loopSpec(o.name, o));
  const server = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1" });
  // unique per source: NMS's stream registry is process-wide
  const key = `${safe(o.name)}-${randomBytes(3).toString("hex")}`;
  const rtmpUrl = server.rtmpUrl(key);
  let publisher: OwnedProcess | null = null;

  const start = async () => {
    const p = startFfmpeg(["-re", "-stream_loop", "-1", "-i", file, "-map", "0", "-c", "copy", ...(o.durationSec ? ["-t", String(o.durationSec)] : []), "-f", "flv", rtmpUrl]);
    publisher = p;
    let exited = false;
    void p.done.then(() => void (exited = true));
    await waitFor(async () => server.isPublishing(key) || exited, PUBLISH_TIMEOUT_MS, 50);
    if (exited && !server.isPublishing(key)) {
      const r = await p.done;
      throw new Error(`RTMP publisher exited before publishing: ${r.stderr.slice(-500)}`);
    }
  };
  const stopPublisher = async () => {
    const p = publisher;
    publisher = null;
    await p?.stop("aborted");
    await waitFor(async () => !server.isPublishing(key), 5000, 50);
  };

  try {
    await start();
  } catch (err) {
    await stopPublisher().catch(() => undefined);
    await server.close();
    throw err;
  }
  return {
    rtmpUrl,
    flvUrl: server.flvUrl(key),
    stopPublisher,
    async restartPublisher() {
      await stopPublisher();
      await start();
    },
    async close() {
      await stopPublisher().catch(() => undefined);
      await server.close();
    },
  };
}

export interface HlsSource {
  /** http://127.0.0.1:P/name/index.m3u8 */
  url: string;
  /** Stops the writer (ffmpeg ends the playlist with #EXT-X-ENDLIST as it exits). */
  stop(): Promise<void>;
  /** Kills the writer abruptly: the playlist stays without ENDLIST and stops growing (a frozen live stream). */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export interface HlsSourceOptions {
  name: string;
  /** live: omitted = endless; VOD: default 6. */
  durationSec?: number;
  /** true (default): rolling playlist without ENDLIST while running, written in real time; false: a finished VOD playlist. */
  live?: boolean;
  /** The looped file's picture and overlays (default: the shared plain 640×360 loop). */
  spec?: Pick<RtmpSourceOptions, "qr" | "text" | "audio" | "width" | "height" | "fps" | "gopSec" | "bFrames">;
}

const segmentCount = (playlist: string) => playlist.split("\n").filter((l) => l.trim() && !l.startsWith("#")).length;

export async function startHlsSource(o: HlsSourceOptions): Promise<HlsSource> {
  const live = o.live ?? true;
  const file = await makeVideo(loopSpec(o.name, o.spec ?? {}));
  const root = await mkdtemp(path.join(os.tmpdir(), "hls-src-"));
  const name = safe(o.name);
  const playlist = path.join(root, name, "index.m3u8");
  await mkdir(path.dirname(playlist), { recursive: true });
  const server = await startStaticServer(root);
  const duration = o.durationSec ?? (live ? undefined : 6);
  const hls = ["-f", "hls", "-hls_time", "2", "-hls_segment_filename", path.join(root, name, "seg-%05d.ts")];
  let writer: OwnedProcess | null = null;

  const cleanup = async () => {
    await writer?.stop("aborted");
    await server.close();
    await rm(root, { recursive: true, force: true });
  };
  try {
    if (live) {
      writer = startFfmpeg(["-re", "-stream_loop", "-1", "-i", file, "-map", "0", "-c", "copy", ...(duration ? ["-t", String(duration)] : []), ...hls, "-hls_list_size", "6", "-hls_flags", "delete_segments+temp_file", playlist]);
      const w = writer;
      let exited = false;
      void w.done.then(() => void (exited = true));
      // two segments listed: a pull can start right away
      await waitFor(async () => exited || segmentCount(await readFile(playlist, "utf8").catch(() => "")) >= 2, 20_000, 100);
      if (exited && segmentCount(await readFile(playlist, "utf8").catch(() => "")) < 2) throw new Error(`HLS writer exited early: ${(await w.done).stderr.slice(-500)}`);
    } else {
      const p = startFfmpeg(["-stream_loop", "-1", "-i", file, "-map", "0", "-c", "copy", "-t", String(duration), ...hls, "-hls_playlist_type", "vod", playlist], { timeoutMs: 60_000 });
      const r = await p.done;
      if (r.code !== 0) throw new Error(`HLS VOD writer failed: ${r.stderr.slice(-500)}`);
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    url: `${server.url}/${name}/index.m3u8`,
    stop: async () => void (await writer?.stop("aborted")),
    async kill() {
      writer?.child.kill("SIGKILL");
      await writer?.done;
    },
    close: cleanup,
  };
}
