import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { CLIP_FILE, listClips } from "./clips";
import type { PreviewInfo } from "./info";
import { previewLinks } from "./links";
import { PreviewRing, SEGMENT_FILE, segmentFile } from "./playlist";
import { clipsDirOf, PLAYLIST, previewDirOf, type PreviewSettings } from "./recorder";

/** Where a process's previews live: the embedded engine's media root and DATA_DIR. */
export interface PreviewPlace {
  mediaRoot: string;
  dataDir: string;
  settings: PreviewSettings;
}

const REQUEST_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** A blocking playlist reload (`_HLS_msn`) waits at most this long for its segment. */
const BLOCK_MAX_MS = 6000;
const BLOCK_POLL_MS = 100;
const NO_STORE = { "cache-control": "no-store" };

const text = (status: number, body: string) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...NO_STORE } });
const forbidden = () => text(403, "forbidden: missing, wrong or expired signature");
const notFound = () => text(404, "not found");

async function readRing(place: PreviewPlace, requestId: string): Promise<PreviewRing | null> {
  const file = path.join(previewDirOf(path.join(place.mediaRoot, requestId)), PLAYLIST);
  const body = await fsp.readFile(file, "utf8").catch(() => null);
  return body === null ? null : PreviewRing.parse(body);
}

/** Without a playlist: the recorder made its folder (a stream with a preview that got no media yet), or there is none. */
async function noRingReason(place: PreviewPlace, requestId: string): Promise<string> {
  const recording = await fsp.stat(previewDirOf(path.join(place.mediaRoot, requestId))).then((st) => st.isDirectory(), () => false);
  return recording ? "no media from the source yet (it has not connected, or was lost before the first segment)" : "this stream has no preview (audio streams, or started with the preview off)";
}

/** What the player needs: a signed playlist link, the ring's span and the clips (each with a signed link). */
export async function previewInfo(place: PreviewPlace, requestId: string): Promise<PreviewInfo | null> {
  if (!REQUEST_ID.test(requestId)) return null;
  const links = await previewLinks(place.dataDir);
  const ring = await readRing(place, requestId);
  const window = ring?.window() ?? null;
  const clips = await listClips(clipsDirOf(path.join(place.mediaRoot, requestId)));
  const available = (ring?.segments.length ?? 0) > 0;
  return {
    requestId,
    available,
    live: ring ? !ring.ended : false,
    playlistUrl: available ? links.link(requestId, PLAYLIST, { absolute: true }) : null,
    window: window && { startAt: new Date(window.startMs).toISOString(), endAt: new Date(window.endMs).toISOString() },
    segments: ring?.segments.length ?? 0,
    retentionMin: place.settings.retentionMin,
    clipBeforeSec: place.settings.clipBeforeSec,
    clipAfterSec: place.settings.clipAfterSec,
    utcOffsetMin: -new Date().getTimezoneOffset(),
    clips: clips.map((c) => ({ n: c.n, url: links.link(requestId, `clips/${c.n}.mp4`, { absolute: true }), frames: c.frames, startAt: c.startAt, endAt: c.endAt, durationSec: c.durationSec, partial: c.partial, ...(c.offsets ? { offsets: c.offsets } : {}) })),
    ...(available ? {} : { reason: ring ? "no preview segment yet" : await noRingReason(place, requestId) }),
  };
}

/** GET /api/preview/<requestId>/<index.m3u8 | s<n>.ts>?exp&sig: 403 without a valid signature, 404 when absent. */
export async function servePreviewFile(place: PreviewPlace, requestId: string, name: string, url: URL): Promise<Response> {
  if (!REQUEST_ID.test(requestId) || (name !== PLAYLIST && !SEGMENT_FILE.test(name))) return notFound();
  const links = await previewLinks(place.dataDir);
  if (!links.check(requestId, name, url.searchParams)) return forbidden();
  if (name === PLAYLIST) {
    const msn = url.searchParams.get("_HLS_msn");
    const ring = msn === null ? await readRing(place, requestId) : await ringWith(place, requestId, Number(msn));
    if (ring === "too far") return text(400, "_HLS_msn is more than two segments ahead");
    if (!ring) return notFound();
    // every segment gets a fresh signed link, relative to this playlist
    const body = ring.render((s) => links.link(requestId, segmentFile(s.seq)), { blockingReload: true });
    return new Response(body, { headers: { "content-type": "application/vnd.apple.mpegurl", ...NO_STORE } });
  }
  return fileResponse(path.join(previewDirOf(path.join(place.mediaRoot, requestId)), name), "video/mp2t", null);
}

/** Blocking playlist reload: the ring once it lists segment `msn` (or has ended, or BLOCK_MAX_MS passed). */
async function ringWith(place: PreviewPlace, requestId: string, msn: number): Promise<PreviewRing | null | "too far"> {
  const deadline = Date.now() + BLOCK_MAX_MS;
  for (;;) {
    const ring = await readRing(place, requestId);
    if (!ring || !Number.isSafeInteger(msn) || ring.ended || ring.nextSeq > msn) return ring;
    if (msn > ring.nextSeq + 2) return "too far";
    if (Date.now() >= deadline) return ring;
    await new Promise((r) => setTimeout(r, BLOCK_POLL_MS));
  }
}

/** GET /api/preview/<requestId>/clips/<n>.mp4?exp&sig (byte ranges, so the browser can seek in it). */
export async function serveClip(place: PreviewPlace, requestId: string, name: string, url: URL, range: string | null): Promise<Response> {
  if (!REQUEST_ID.test(requestId) || !CLIP_FILE.test(name)) return notFound();
  const links = await previewLinks(place.dataDir);
  if (!links.check(requestId, `clips/${name}`, url.searchParams)) return forbidden();
  return fileResponse(path.join(clipsDirOf(path.join(place.mediaRoot, requestId)), name), "video/mp4", range);
}

async function fileResponse(file: string, type: string, range: string | null): Promise<Response> {
  const st = await fsp.stat(file).catch(() => null);
  if (!st?.isFile()) return notFound();
  const headers: Record<string, string> = { "content-type": type, "cache-control": "private, max-age=3600", "accept-ranges": "bytes" };
  const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (range && (!m || (m[1] === "" && m[2] === ""))) return new Response(null, { status: 416, headers: { "content-range": `bytes */${st.size}` } });
  let start = 0;
  let end = st.size - 1;
  if (m) {
    start = m[1] === "" ? Math.max(0, st.size - Number(m[2])) : Number(m[1]);
    end = m[1] !== "" && m[2] !== "" ? Math.min(Number(m[2]), st.size - 1) : st.size - 1;
    if (start > end || start >= st.size) return new Response(null, { status: 416, headers: { "content-range": `bytes */${st.size}` } });
    headers["content-range"] = `bytes ${start}-${end}/${st.size}`;
  }
  headers["content-length"] = String(end - start + 1);
  const body = st.size === 0 ? null : (Readable.toWeb(fs.createReadStream(file, { start, end })) as ReadableStream<Uint8Array>);
  return new Response(body, { status: m ? 206 : 200, headers });
}
