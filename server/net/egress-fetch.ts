import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import { looksLikePlaylist, MAX_PLAYLIST_BYTES, rewritePlaylist, type UriMapper } from "./hls-rewrite";
import { pinnedRequest, type CheckedTarget } from "./pinned";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
// hop-by-hop headers (RFC 9110 §7.6.1) are not forwarded in either direction
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"];

function withoutHopByHop<T extends Record<string, unknown>>(headers: T): T {
  const out = { ...headers };
  for (const h of HOP_BY_HOP) delete out[h];
  return out;
}

const plain = (res: ServerResponse, status: number, text: string) => {
  if (res.headersSent || res.destroyed) return void res.destroy();
  res.writeHead(status, { "content-type": "text/plain", connection: "close" }).end(text);
};

export interface ServeChecked {
  target: string;
  req: IncomingMessage;
  res: ServerResponse;
  signal: AbortSignal;
  /** The URL guard for one URL: the checked target, or the refusal's reason. */
  check: (raw: string) => Promise<CheckedTarget | string>;
  mapUri: UriMapper;
}

/** The first bytes of a body (at least `want`, unless it ends first) and an iterator over the rest. */
async function peek(body: IncomingMessage, want: number): Promise<{ head: Buffer; rest: AsyncIterator<Buffer>; ended: boolean }> {
  const rest = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < want) {
    const next = await rest.next();
    if (next.done) return { head: Buffer.concat(chunks), rest, ended: true };
    chunks.push(next.value);
    size += next.value.length;
  }
  return { head: Buffer.concat(chunks), rest, ended: false };
}

/**
 * Fetches `target` for ffmpeg: each URL of the redirect chain checked by `check` and connected to the addresses it
 * vetted, then the final answer passed on in plain http — an HLS playlist rewritten by `mapUri` first (whole, with
 * its new length), any other body streamed as it comes. Compressed bodies are refused: a playlist must be read here.
 */
export async function serveChecked(o: ServeChecked): Promise<void> {
  const { req, res } = o;
  // ffmpeg's own headers (range, cookies, user agent) go on; the body must come uncompressed to be read here
  const headers = { ...withoutHopByHop(req.headers), "accept-encoding": "identity", connection: "close" };
  let current = o.target;
  let up: IncomingMessage | null = null;
  let target: CheckedTarget | string = "";
  try {
    for (let hop = 0; ; hop++) {
      target = await o.check(current);
      if (typeof target === "string") return plain(res, 403, `refused by the egress guard: ${target}`);
      up = await pinnedRequest(target, { method: req.method, headers: { ...headers, host: target.url.host }, signal: o.signal });
      const location = up.headers.location;
      if (!REDIRECTS.has(up.statusCode ?? 0) || !location) break;
      up.resume();
      if (hop >= MAX_REDIRECTS) return plain(res, 502, `more than ${MAX_REDIRECTS} redirects`);
      current = new URL(location, target.url).href;
    }
  } catch (err) {
    return plain(res, 502, `upstream failed: ${(err as Error).message}`);
  }
  const final = (target as CheckedTarget).url;
  const answer = up as IncomingMessage;
  const encoding = String(answer.headers["content-encoding"] ?? "identity").toLowerCase();
  if (encoding !== "identity") {
    answer.destroy();
    return plain(res, 502, `upstream sent a ${encoding}-encoded body, which the egress guard cannot check`);
  }
  const out = withoutHopByHop(answer.headers);
  delete out.location;
  if (req.method === "HEAD") {
    res.writeHead(answer.statusCode ?? 502, { ...out, connection: "close" }).end();
    return void answer.resume();
  }
  try {
    const { head, rest, ended } = await peek(answer, 64);
    if (looksLikePlaylist(head, answer.headers["content-type"])) {
      const chunks = [head];
      let size = head.length;
      for (let next = ended ? null : await rest.next(); next && !next.done; next = await rest.next()) {
        size += next.value.length;
        if (size > MAX_PLAYLIST_BYTES) {
          answer.destroy();
          return plain(res, 502, `playlist larger than ${MAX_PLAYLIST_BYTES} bytes`);
        }
        chunks.push(next.value);
      }
      const body = Buffer.from(rewritePlaylist(Buffer.concat(chunks).toString("utf8"), final, o.mapUri), "utf8");
      for (const h of ["content-length", "content-range", "accept-ranges", "etag", "content-md5"]) delete out[h];
      // a rewritten playlist is whole: a range request for it gets all of it
      const status = answer.statusCode === 206 ? 200 : (answer.statusCode ?? 502);
      res.writeHead(status, { ...out, "content-length": String(body.length), connection: "close" }).end(body);
      return;
    }
    res.writeHead(answer.statusCode ?? 502, { ...out, connection: "close" });
    res.write(head);
    if (ended) return void res.end();
    pipeline(Readable.from({ [Symbol.asyncIterator]: () => rest }), res, () => undefined);
  } catch (err) {
    plain(res, 502, `upstream failed: ${(err as Error).message}`);
  }
}
