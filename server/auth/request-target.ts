/**
 * The one reading of a request target that both the sign-in gate and the router agree on.
 *
 * The gate decides on a path; Next (and the engine) route on the WHATWG reading of the same target.
 * Any target the two could read differently is refused before anything else runs: a fragment, a
 * backslash, a `;`, dot segments (plain or escaped), repeated slashes, escaped characters that need
 * no escaping or that change the path's structure, anything the WHATWG parser would rewrite, and
 * every form other than origin-form (`/path?query`).
 */
export interface RequestTarget {
  /** %-escapes decoded, one trailing slash folded: what the access rules are matched against */
  pathname: string;
  /** the raw path as sent (what the router sees) */
  rawPath: string;
  /** `?…` or "" */
  search: string;
}

// escapes that a canonical client never sends: unreserved characters (A-Z a-z 0-9 - . _ ~) and the
// characters that change how a path splits (/ \ # ? ; %) plus NUL
const AMBIGUOUS_ESCAPE = /%(?:[46][1-9a-f]|[57][0-9a]|3[0-9]|2[def]|5f|7e|2f|5c|23|3f|3b|25|00)/i;
const BASE = "http://gate.invalid";

export function readRequestTarget(target: string): RequestTarget | null {
  if (!target.startsWith("/") || target.startsWith("//")) return null; // absolute-form, authority-form, "*", "//host"
  // eslint-disable-next-line no-control-regex
  if (/[#\\;\s\x00-\x1f\x7f]/.test(target)) return null;
  const q = target.indexOf("?");
  const rawPath = q < 0 ? target : target.slice(0, q);
  const search = q < 0 ? "" : target.slice(q);
  if (rawPath.includes("//")) return null;
  if (AMBIGUOUS_ESCAPE.test(rawPath)) return null;
  const segments = rawPath.split("/");
  if (segments.some((s) => s === "." || s === "..")) return null;
  // the WHATWG parser (Next's reading) must give back exactly what was sent
  let parsed: URL;
  try {
    parsed = new URL(target, BASE);
  } catch {
    return null;
  }
  if (parsed.origin !== BASE || parsed.pathname !== rawPath || parsed.search !== (search === "?" ? "" : search)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f\\]/.test(decoded)) return null;
  const pathname = decoded.length > 1 ? decoded.replace(/\/$/, "") : decoded;
  return { pathname, rawPath, search };
}
