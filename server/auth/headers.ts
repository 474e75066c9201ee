import { randomBytes } from "node:crypto";
import type http from "node:http";
import { plainHost } from "../net/host-header";


/**
 * Where the page may connect: its own origin, and socket.io's WebSocket to the same host under the name the
 * browser used (`'self'` covers ws: only in newer browsers); never any other host (it was `ws: wss:`, any host).
 */
export function connectSources(host: string | undefined): string {
  // only a Host that is exactly host[:port] (server/net/host-header.ts) is put in a header
  return host && plainHost(host) ? `'self' ws://${host} wss://${host}` : "'self'";
}

/**
 * Security headers for every dashboard response. The CSP carries a per-request nonce that Next
 * applies to its own inline scripts (it reads the nonce from the request's CSP header).
 */
export function applySecurityHeaders(req: http.IncomingMessage, res: http.ServerResponse, o: { dev: boolean; mediaOrigins: string[]; https: boolean }): void {
  const nonce = randomBytes(16).toString("base64");
  const media = ["'self'", "data:", "blob:", ...o.mediaOrigins].join(" ");
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${o.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${media}`,
    `media-src ${media}`,
    // hls.js transmuxes the preview in a worker it starts from a blob: URL
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src ${connectSources(req.headers.host)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  req.headers["content-security-policy"] = csp;
  res.setHeader("content-security-policy", csp);
  res.setHeader("x-frame-options", "DENY");
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("referrer-policy", "same-origin");
  res.setHeader("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()");
  res.setHeader("cross-origin-opener-policy", "same-origin");
  if (o.https) res.setHeader("strict-transport-security", "max-age=31536000");
}
