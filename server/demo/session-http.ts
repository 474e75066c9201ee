// The HTTP edge WHIP publishes (whip.ts) and WHEP playback (whep-play.ts) share on the ingest's HTTP port: plain-text
// answers, a bounded body, and the routing of `/<prefix>/<name>[/<session>]` paths.
import type http from "node:http";

export function sendText(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(body);
}

/** The request's media type, lower case, without parameters ("" when absent). */
export const contentType = (req: http.IncomingMessage): string => (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();

/**
 * The body as text, or null when it is larger than `max` bytes. An oversized body is read on and dropped (so the
 * caller's 413 reaches the client) up to 16 × `max`, past which the connection is cut.
 */
export function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
      else if (size > 16 * max) req.destroy();
    });
    req.on("end", () => resolve(size > max ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("close", () => resolve(null)); // cut (or gone) before its end: nothing to answer
    req.on("error", reject);
  });
}

const SESSION_PATH = (prefix: string) => new RegExp(`^/${prefix}/([A-Za-z0-9_-]{1,128})(?:/([0-9a-f-]{36}))?$`);

/**
 * Serves `/<prefix>/<name>` and `/<prefix>/<name>/<session uuid>` with `handle`; false for any other path. A bad
 * name is 404 with the rule; a handler that throws is logged and answered 500 (when nothing was sent yet).
 */
export function routeSessions(req: http.IncomingMessage, res: http.ServerResponse, prefix: "whip" | "whep", o: { headers: Record<string, string>; log(m: string): void }, handle: (name: string, id: string | undefined) => Promise<void>): boolean {
  let pathname: string;
  try {
    pathname = new URL(req.url ?? "/", "http://x").pathname;
  } catch {
    return false;
  }
  if (!pathname.startsWith(`/${prefix}/`)) return false;
  const m = SESSION_PATH(prefix).exec(pathname);
  if (!m) return sendText(res, 404, `not found: use /${prefix}/<name> (letters, digits, _ and -)`, o.headers), true;
  handle(m[1], m[2]).catch((err: Error) => {
    o.log(`[${prefix}] ${req.method} ${pathname} failed: ${err.message}`);
    if (!res.headersSent) sendText(res, 500, "internal error", o.headers);
  });
  return true;
}
