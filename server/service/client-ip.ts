import type http from "node:http";

/** The caller's address: the TCP peer, or with TRUST_PROXY=1 the first X-Forwarded-For hop (set by our proxy). */
export function clientIp(req: http.IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = String(req.headers["x-forwarded-for"] ?? "").split(",")[0].trim();
    if (fwd) return fwd;
  }
  return req.socket.remoteAddress ?? "unknown";
}
