import type http from "node:http";
import net from "node:net";
import { metrics } from "./index";
import { sameSecret } from "../net/constant-time";
import { peerIn } from "../net/peer-allow";

export interface MetricsAccess {
  /** METRICS_TOKEN: `Authorization: Bearer <token>` is let in from anywhere; null = no token */
  token: string | null;
  /** METRICS_ALLOW: networks (CIDR or single address) let in without a token, checked on the TCP peer (never a forwarded header) */
  allow: string[];
  /**
   * TRUST_PROXY=1: a reverse proxy on this host makes every visitor's TCP peer a loopback address, so no network
   * lets anyone in: only the token does (unset, /metrics is refused to everyone).
   */
  tokenOnly?: boolean;
}

function tokenOk(header: string | undefined, token: string | null): boolean {
  return token !== null && header?.startsWith("Bearer ") === true && sameSecret(header.slice(7), token);
}

/** GET /metrics (Prometheus text format) to an allowed network or the bearer token; 403 otherwise. True when it answered. */
export function serveMetrics(req: http.IncomingMessage, res: http.ServerResponse, access: MetricsAccess, list: net.BlockList): boolean {
  const p = (req.url ?? "/").split("?")[0];
  if (p !== "/metrics") return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("use GET\n");
    return true;
  }
  if (!tokenOk(req.headers.authorization, access.token) && (access.tokenOnly || !peerIn(req.socket.remoteAddress, list))) {
    const how = access.tokenOnly ? "behind a reverse proxy (TRUST_PROXY=1) metrics are served only with METRICS_TOKEN" : "metrics are served to the networks in METRICS_ALLOW or with METRICS_TOKEN";
    res.writeHead(403, { "content-type": "text/plain", "cache-control": "no-store" }).end(`${how}\n`);
    return true;
  }
  const reg = metrics().registry;
  reg.metrics().then(
    (text) => res.writeHead(200, { "content-type": reg.contentType, "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : text),
    (err: Error) => res.writeHead(500, { "content-type": "text/plain" }).end(`metrics unavailable: ${err.message}\n`),
  );
  return true;
}
