import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { pipeline } from "node:stream";
import { checkUrl } from "../ingest/url-guard";
import { pinnedLookup, pinnedRequest, type CheckedTarget } from "./pinned";

/** Where outbound connections may go: public addresses, plus private ones when allowed or for these exact origins. */
export interface EgressPolicy {
  allowPrivate: boolean;
  allowedOrigins?: string[];
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`: give it to ffmpeg as -http_proxy and as the http_proxy environment variable. */
  url: string;
  /** Targets refused so far with the reason (the first MAX_REFUSALS), for the pull's failure message and tests. */
  refused: string[];
  close(): Promise<void>;
}

const MAX_REFUSALS = 50;
// hop-by-hop headers (RFC 9110 §7.6.1) are not forwarded in either direction
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"];

function withoutHopByHop<T extends Record<string, unknown>>(headers: T): T {
  const out = { ...headers };
  for (const h of HOP_BY_HOP) delete out[h];
  return out;
}

/**
 * A forward proxy on 127.0.0.1 for one ffmpeg run, so that every connection ffmpeg makes — the input, each
 * HTTP redirect it follows, every HLS playlist reload and segment — is resolved once here, every address
 * checked against `policy`, and the connection made to exactly those addresses (no DNS rebinding window).
 * Plain http: absolute-form GET/HEAD forwarded; https (and rtmps, which tunnels TLS the same way): CONNECT.
 * A refused target gets 403, which ffmpeg reports as an access error (the pull fails or the segment is skipped).
 */
export async function startEgressProxy(policy: EgressPolicy): Promise<EgressProxy> {
  const refused: string[] = [];
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  };
  const check = async (raw: string, protocol: "http" | "https"): Promise<CheckedTarget | string> => {
    try {
      return await checkUrl(raw, { protocols: [protocol], ...policy });
    } catch (err) {
      const reason = `${raw.slice(0, 300)}: ${(err as Error).message}`;
      if (refused.length < MAX_REFUSALS) refused.push(reason);
      return reason;
    }
  };

  const server = http.createServer(async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { connection: "close" }).end();
    const target = await check(req.url ?? "", "http");
    if (typeof target === "string") return void res.writeHead(403, { "content-type": "text/plain", connection: "close" }).end(`refused by the egress guard: ${target}`);
    const abort = new AbortController();
    res.once("close", () => abort.abort());
    try {
      const up = await pinnedRequest(target, { method: req.method, headers: { ...withoutHopByHop(req.headers), host: target.url.host, connection: "close" }, signal: abort.signal });
      res.writeHead(up.statusCode ?? 502, { ...withoutHopByHop(up.headers), connection: "close" });
      pipeline(up, res, () => undefined);
    } catch (err) {
      if (res.headersSent || res.destroyed) return void res.destroy();
      res.writeHead(502, { "content-type": "text/plain", connection: "close" }).end(`upstream failed: ${(err as Error).message}`);
    }
  });

  server.on("connect", async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on("error", () => undefined);
    const target = await check(`https://${req.url ?? ""}/`, "https");
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
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
