import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".mkv": "video/x-matroska",
  ".webm": "video/webm",
  ".flv": "video/x-flv",
  ".m3u8": "application/vnd.apple.mpegurl",
  ".ts": "video/mp2t",
  ".wav": "audio/wav",
  ".jpg": "image/jpeg",
  ".png": "image/png",
};

export interface StaticServerOptions {
  /** Honour Range requests (default true); false serves whole files only, like a plain origin. */
  range?: boolean;
}

/** `bytes=a-b` | `bytes=a-` | `bytes=-n` → inclusive [start, end], or null when unsatisfiable. */
function parseRange(header: string, size: number): [number, number] | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(size - 1, Number(m[2]));
  }
  return start <= end && start < size ? [start, end] : null;
}

/**
 * A tiny static file server on 127.0.0.1:0 for test media. Besides files under `dir` it answers
 * `/__redirect?to=<url>[&status=302]`, `/__status/<code>` and `/__hang` (never answers); `?chunked` on a
 * file sends it without Content-Length.
 */
export async function startStaticServer(dir: string, opts: StaticServerOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const root = path.resolve(dir);
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://localhost");
    if (u.pathname === "/__redirect") {
      res.writeHead(Number(u.searchParams.get("status") ?? 302), { location: u.searchParams.get("to") ?? "/" }).end();
      return;
    }
    const forced = /^\/__status\/(\d{3})$/.exec(u.pathname);
    if (forced) return void res.writeHead(Number(forced[1]), { "content-type": "text/plain" }).end(`status ${forced[1]}`);
    if (u.pathname === "/__hang") return; // left open until close()

    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405).end();
    const file = path.resolve(root, "." + decodeURIComponent(u.pathname));
    const info = file.startsWith(root + path.sep) ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");

    const headers: http.OutgoingHttpHeaders = { "content-type": TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream" };
    if (opts.range !== false) headers["accept-ranges"] = "bytes";
    let start = 0;
    let end = info.size - 1;
    let status = 200;
    if (opts.range !== false && req.headers.range) {
      const r = parseRange(req.headers.range, info.size);
      if (!r) return void res.writeHead(416, { "content-range": `bytes */${info.size}` }).end();
      [start, end] = r;
      status = 206;
      headers["content-range"] = `bytes ${start}-${end}/${info.size}`;
    }
    // ?chunked leaves out Content-Length, so clients must enforce size limits while streaming
    if (!u.searchParams.has("chunked")) headers["content-length"] = info.size === 0 ? 0 : end - start + 1;
    res.writeHead(status, headers);
    if (req.method === "HEAD" || info.size === 0) return void res.end();
    createReadStream(file, { start, end }).on("error", () => res.destroy()).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
