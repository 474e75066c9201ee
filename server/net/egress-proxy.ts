import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { checkUrl } from "../ingest/url-guard";
import { serveChecked } from "./egress-fetch";
import type { NetworkList } from "./networks";
import { pinnedLookup, type CheckedTarget } from "./pinned";

/** Where outbound connections may go: public addresses, plus private ones when allowed, in ALLOW_NETWORKS, or for these exact origins. */
export interface EgressPolicy {
  allowPrivate: boolean;
  allowedOrigins?: string[];
  allowNetworks?: NetworkList;
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`: give it to ffmpeg as -http_proxy and as the http_proxy environment variable. */
  url: string;
  /** The local URL ffmpeg opens instead of `target` (an http(s) URL): fetched, checked and rewritten here. */
  localUrl(target: string): string;
  /** `text` (an ffmpeg message) with each gateway URL in it replaced by the URL it stands for. */
  originalsIn(text: string): string;
  /** Targets refused so far with the reason (the first MAX_REFUSALS), for the pull's failure message and tests. */
  refused: string[];
  close(): Promise<void>;
}

const MAX_REFUSALS = 50;
const GATEWAY_PREFIX = "/u/";
const REFUSED_PREFIX = "/refused/";

/** A URL's last path segment as a safe file name ("index.m3u8"), so ffmpeg still sees the extension it may probe by. */
function nameOf(u: URL): string {
  const raw = u.pathname.split("/").pop() ?? "";
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    // a malformed %-sequence: the raw text, made safe below
  }
  const last = text.replace(/[^A-Za-z0-9._-]/g, "_").slice(-80);
  return last.replace(/^\.+/, "") || "media";
}

/**
 * A per-run HTTP gateway and forward proxy on 127.0.0.1 through which ffmpeg reaches everything, so that every
 * connection ffmpeg's input makes — the input, each redirect, every playlist reload, nested playlist, key, map and
 * segment — is resolved once here, checked against `policy`, and connected to exactly the addresses checked:
 * - `localUrl(target)` names a gateway URL; the gateway fetches the target itself (http or https, redirects followed
 *   and each hop checked) and answers ffmpeg in plain http. A body that is an HLS playlist is rewritten first: every
 *   URI in it becomes a gateway URL, and a URI of any other scheme (httpproxy:, tcp:, file:, data:…) a refusal, so
 *   ffmpeg never sees a URL it could open by itself. With ffmpeg limited to http/tcp/crypto (live-egress.ts) it
 *   needs no TLS of its own: nothing a playlist names can open a connection that does not come here;
 * - an absolute-form request (ffmpeg's -http_proxy) for any other URL is served the same way (checked first);
 * - CONNECT (rtmps, which tunnels its TLS) is checked and pinned.
 * A refused target gets 403, which ffmpeg reports as an access error (the pull fails or the segment is skipped).
 */
export async function startEgressProxy(policy: EgressPolicy): Promise<EgressProxy> {
  const refused: string[] = [];
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  };
  const refuse = (raw: string, why: string): string => {
    const reason = `${raw.slice(0, 300)}: ${why}`;
    if (refused.length < MAX_REFUSALS) refused.push(reason);
    return reason;
  };
  const check = async (raw: string, protocols: string[]): Promise<CheckedTarget | string> => {
    try {
      const target = await checkUrl(raw, { protocols, ...policy });
      // the gateway itself (reachable when ALLOW_NETWORKS covers 127.0.0.1) would only loop requests back here
      if (target.url.port === base.split(":").pop() && target.addresses.some((a) => /^(127\.|0\.|::1?$|::ffff:(127|0)\.)/.test(a))) return refuse(raw, "names the egress gateway itself");
      return target;
    } catch (err) {
      return refuse(raw, (err as Error).message);
    }
  };
  let base = "";
  let refusals = 0;
  const localUrl = (target: string): string => {
    const u = new URL(target);
    return `${base}${GATEWAY_PREFIX}${Buffer.from(u.href).toString("base64url")}/${nameOf(u)}`;
  };
  // a playlist's URI: http(s) through the gateway, anything else (or nonsense) a local URL that answers 403
  const mapUri = (uri: string, playlist: URL): string => {
    let u: URL | null = null;
    try {
      u = new URL(uri, playlist);
    } catch {
      u = null;
    }
    if (u && (u.protocol === "http:" || u.protocol === "https:")) return localUrl(u.href);
    refuse(uri, `a playlist may name only http(s) URLs, not ${u ? u.protocol : "this"}`);
    // named like the URI it replaces: ffmpeg may judge a segment by its extension before it opens it
    return `${base}${REFUSED_PREFIX}${++refusals}/${u ? nameOf(u) : "refused"}`;
  };

  /** The target a request names: a gateway path (origin-form, or absolute-form to this proxy), else the absolute URL. */
  const targetOf = (reqUrl: string): string | null => {
    let path = reqUrl;
    if (!reqUrl.startsWith("/")) {
      let u: URL;
      try {
        u = new URL(reqUrl);
      } catch {
        return null;
      }
      if (`${u.protocol}//${u.host}` !== base) return u.href;
      path = `${u.pathname}${u.search}`;
    }
    if (!path.startsWith(GATEWAY_PREFIX)) return null;
    const encoded = path.slice(GATEWAY_PREFIX.length).split("/")[0];
    try {
      return Buffer.from(encoded, "base64url").toString("utf8");
    } catch {
      return null;
    }
  };

  const server = http.createServer(async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { connection: "close" }).end();
    const target = targetOf(req.url ?? "");
    if (target === null) return void res.writeHead(403, { "content-type": "text/plain", connection: "close" }).end("refused by the egress guard: not a URL this run may fetch");
    const abort = new AbortController();
    res.once("close", () => abort.abort());
    await serveChecked({ target, req, res, signal: abort.signal, check: (raw) => check(raw, ["http", "https"]), mapUri });
  });

  server.on("connect", async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on("error", () => undefined);
    const target = await check(`https://${req.url ?? ""}/`, ["https"]);
    if (typeof target === "string") return void client.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
    const host = target.url.hostname.replace(/^\[(.*)\]$/, "$1");
    const upstream = net.connect({ host, port: Number(target.url.port || 443), lookup: pinnedLookup(target.addresses) });
    track(upstream);
    let open = false;
    upstream.once("connect", () => {
      open = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => (open ? client.destroy() : client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n")));
    client.once("close", () => upstream.destroy());
  });
  server.on("connection", track);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  const gatewayUrl = new RegExp(`${base.replace(/[.]/g, "\\.")}${GATEWAY_PREFIX}([A-Za-z0-9_-]+)/[A-Za-z0-9._-]*`, "g");
  return {
    url: base,
    localUrl,
    originalsIn: (text) => text.replace(gatewayUrl, (_m, encoded: string) => Buffer.from(encoded, "base64url").toString("utf8")),
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
