import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type http from "node:http";
import { sameSecret } from "../net/constant-time";

/** The decoded path and the query of a request target; null when it is not one (a bad % escape, `//`). */
function readTarget(url: string): { path: string; query: URLSearchParams } | null {
  try {
    const u = new URL(url, "http://x");
    return { path: decodeURIComponent(u.pathname), query: u.searchParams };
  } catch {
    return null;
  }
}

/**
 * On every /media answer: the browser takes the declared type (never sniffs a frame into HTML or script) and the
 * file runs nothing, loads nothing and is in a sandbox if opened on its own.
 */
export const MEDIA_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
  "referrer-policy": "no-referrer",
};

const TYPES: Readonly<Record<string, string>> = { ".jpg": "image/jpeg", ".wav": "audio/wav", ".mp3": "audio/mpeg", ".mp4": "video/mp4" };

/** Unguessable, expiring links to captured frames and audio clips under DATA_DIR/media. */
export class MediaUrls {
  constructor(
    private readonly secret: Buffer,
    private readonly mediaRoot: string,
  ) {}

  private sign(rel: string, exp: number): string {
    return crypto.createHmac("sha256", this.secret).update(`${rel}\n${exp}`).digest("base64url").slice(0, 32);
  }

  /** rel is relative to the media root, e.g. "<requestId>/v1.jpg". */
  url(baseUrl: string, rel: string, expiresAt: Date): string {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    return `${baseUrl}/media/${rel}?exp=${exp}&sig=${this.sign(rel, exp)}`;
  }

  /** Serves GET /media/...; answers 403 for a bad or expired signature, 404 for a missing file. */
  serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    for (const [k, v] of Object.entries(MEDIA_HEADERS)) res.setHeader(k, v);
    const target = readTarget(req.url ?? "/");
    const exp = Number(target?.query.get("exp"));
    const rel = target?.path.replace(/^\/media\//, "") ?? "";
    const ok = target !== null && sameSecret(target.query.get("sig") ?? "", this.sign(rel, exp));
    if (!ok || !Number.isFinite(exp) || exp * 1000 < Date.now() || rel.includes("..")) {
      res.writeHead(403, { "content-type": "text/plain" }).end("forbidden");
      return;
    }
    const file = path.join(this.mediaRoot, rel);
    if (!file.startsWith(this.mediaRoot + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const type = TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
      res.writeHead(200, { "content-type": type, "content-length": st.size, "cache-control": "private, max-age=3600" });
      if (req.method === "HEAD") res.end();
      else fs.createReadStream(file).pipe(res);
    });
  }
}
