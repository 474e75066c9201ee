import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

/** A captured frame or clip, found but not read: `open()` streams it (null when it went away since). */
export interface MediaEntry {
  ext: string;
  open(): Promise<Readable | null>;
}

/**
 * Finds a captured frame or clip by the media link a result carried, without reading it (an export streams one at a
 * time, so memory stays flat whatever the incident's size); null when it is gone or not this task's. A remote
 * service's media is only known to exist once opened.
 */
export type MediaReader = (mediaUrl: string, requestId: string) => Promise<MediaEntry | null>;

const EXT = /\.(jpg|jpeg|wav|mp3|mp4)$/i;

/**
 * The embedded engine's media store: `/media/<requestId>/<file>?exp&sig` (absolute or same-origin) → the file
 * under DATA_DIR/media. Only files of the incident's own task are read, and never outside the media root.
 * A remote service (`serviceOrigin`): its links are fetched over HTTP from that origin only.
 */
export function mediaReader(o: { mediaRoot: string | null; serviceOrigin: string | null; timeoutMs?: number }): MediaReader {
  return async (mediaUrl, requestId) => {
    let u: URL;
    try {
      u = new URL(mediaUrl, "http://same-origin.invalid");
    } catch {
      return null;
    }
    const m = /^\/media\/(.+)$/.exec(u.pathname);
    if (!m) return null;
    let rel: string;
    try {
      rel = decodeURIComponent(m[1]);
    } catch {
      return null;
    }
    const ext = EXT.exec(rel)?.[0].toLowerCase();
    if (!ext || rel.includes("..") || rel.includes("\\") || rel.split("/")[0] !== requestId) return null;
    if (o.mediaRoot) {
      const file = path.resolve(o.mediaRoot, rel);
      if (!file.startsWith(path.resolve(o.mediaRoot) + path.sep)) return null;
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile()) return null;
      return { ext, open: () => openFile(file) };
    }
    if (!o.serviceOrigin) return null;
    const target = new URL(`${u.pathname}${u.search}`, o.serviceOrigin);
    return {
      ext,
      async open() {
        const res = await fetch(target, { redirect: "error", signal: AbortSignal.timeout(o.timeoutMs ?? 15_000) }).catch(() => null);
        if (!res?.ok || !res.body) return null;
        return Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
      },
    };
  };
}

/** A read stream once the file is open (null when retention deleted it meanwhile). */
function openFile(file: string): Promise<Readable | null> {
  return new Promise((resolve) => {
    const stream = createReadStream(file);
    const failed = () => resolve(null);
    stream.once("error", failed);
    stream.once("open", () => {
      stream.off("error", failed); // later errors are the reader's to see
      resolve(stream);
    });
  });
}
