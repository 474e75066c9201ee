import net from "node:net";

// a DNS name (letters, digits, "-" and "_" inside labels, an optional final dot) or an IPv4 address
const NAME = /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/**
 * A Host header that is exactly host[:port]: a DNS name, an IPv4 address or a bracketed IPv6 address, and a port
 * 1–65535; anything else (a backslash, a path, userinfo, spaces, a second colon, a number the URL parser would
 * rewrite, as `1.2.3`) is not one. Such a header never becomes a link, a CSP source or an origin.
 */
export function plainHost(host: string | undefined): boolean {
  if (typeof host !== "string" || host.length === 0 || host.length > 260) return false;
  const m = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  if (!m) return false;
  const [, name, port] = m;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  if (name.startsWith("[") ? !net.isIPv6(name.slice(1, -1)) : !NAME.test(name)) return false;
  // the WHATWG reading (what a browser and Next make of it) must be the name itself, lower-cased
  try {
    return new URL(`http://${name}/`).hostname === name.toLowerCase();
  } catch {
    return false;
  }
}
