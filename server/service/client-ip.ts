import type http from "node:http";

/**
 * The caller's address: the TCP peer, or with TRUST_PROXY=1 the last X-Forwarded-For entry — the one our own
 * proxy appended (earlier entries are whatever the client claimed).
 */
export function clientIp(req: http.IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = String(req.headers["x-forwarded-for"] ?? "").split(",").map((h) => h.trim()).filter(Boolean);
    if (hops.length) return hops[hops.length - 1];
  }
  return req.socket.remoteAddress ?? "unknown";
}
