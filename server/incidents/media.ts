import fs from "node:fs/promises";
import path from "node:path";

/** Reads a captured frame or clip by the media link a result carried; null when it is gone or not this task's. */
export type MediaReader = (mediaUrl: string, requestId: string) => Promise<{ bytes: Buffer; ext: string } | null>;

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
      const bytes = await fs.readFile(file).catch(() => null);
      return bytes ? { bytes, ext } : null;
    }
    if (!o.serviceOrigin) return null;
    const target = new URL(`${u.pathname}${u.search}`, o.serviceOrigin);
    const res = await fetch(target, { redirect: "error", signal: AbortSignal.timeout(o.timeoutMs ?? 15_000) }).catch(() => null);
    if (!res?.ok) return null;
    return { bytes: Buffer.from(await res.arrayBuffer()), ext };
  };
}
