import crypto from "node:crypto";
import type http from "node:http";
import net from "node:net";
import { metrics } from "./index";

export interface MetricsAccess {
  /** METRICS_TOKEN: `Authorization: Bearer <token>` is let in from anywhere; null = no token */
  token: string | null;
  /** METRICS_ALLOW: networks (CIDR or single address) let in without a token, checked on the TCP peer (never a forwarded header) */
  allow: string[];
}

/** A BlockList of the allowed networks; an entry that is not an address or CIDR is refused at start (loadConfig). */
export function allowList(entries: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const raw of entries) {
    const [addr, bits] = raw.split("/");
    const type = net.isIPv6(addr) ? "ipv6" : "ipv4";
    if (!net.isIP(addr)) throw new Error(`METRICS_ALLOW: "${raw}" is not an address or CIDR`);
    const max = type === "ipv6" ? 128 : 32;
    const prefix = bits === undefined ? max : Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`METRICS_ALLOW: "${raw}" has a bad prefix length`);
    list.addSubnet(addr, prefix, type);
  }
  return list;
}

function tokenOk(header: string | undefined, token: string | null): boolean {
  if (!token || !header?.startsWith("Bearer ")) return false;
  const a = crypto.createHash("sha256").update(header.slice(7)).digest();
  const b = crypto.createHash("sha256").update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

function peerAllowed(req: http.IncomingMessage, list: net.BlockList): boolean {
  let ip = req.socket.remoteAddress ?? "";
  if (ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7))) ip = ip.slice(7);
  if (!net.isIP(ip)) return false;
  return list.check(ip, net.isIPv6(ip) ? "ipv6" : "ipv4");
}

/** GET /metrics (Prometheus text format) to an allowed network or the bearer token; 403 otherwise. True when it answered. */
export function serveMetrics(req: http.IncomingMessage, res: http.ServerResponse, access: MetricsAccess, list: net.BlockList): boolean {
  const p = (req.url ?? "/").split("?")[0];
  if (p !== "/metrics") return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("use GET\n");
    return true;
  }
  if (!tokenOk(req.headers.authorization, access.token) && !peerAllowed(req, list)) {
    res.writeHead(403, { "content-type": "text/plain", "cache-control": "no-store" }).end("metrics are served to the networks in METRICS_ALLOW or with METRICS_TOKEN\n");
    return true;
  }
  const reg = metrics().registry;
  reg.metrics().then(
    (text) => res.writeHead(200, { "content-type": reg.contentType, "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : text),
    (err: Error) => res.writeHead(500, { "content-type": "text/plain" }).end(`metrics unavailable: ${err.message}\n`),
  );
  return true;
}
