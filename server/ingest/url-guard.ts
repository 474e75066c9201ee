import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { NetworkList } from "../net/networks";
import type { CheckedTarget } from "../net/pinned";
import { isPrivateAddress } from "./ip-ranges";

export { isPrivateAddress } from "./ip-ranges";

export type UrlRefusedReason = "protocol" | "private-address" | "unresolvable" | "malformed";

export class UrlRefusedError extends Error {
  readonly reason: UrlRefusedReason;
  constructor(reason: UrlRefusedReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UrlRefusedError";
    this.reason = reason;
  }
}

/** Name → addresses (every one of them: the guard checks all and the connection uses only these). */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
let resolver: Resolver = systemResolver;

/**
 * Replaces name resolution for every URL check in this process (tests map names such as `evil.test` to
 * chosen addresses without touching /etc/hosts); null restores the system resolver.
 */
export function setResolver(r: Resolver | null): void {
  resolver = r ?? systemResolver;
}

export interface CheckUrlOptions {
  /** Allowed schemes, with or without the colon: ["http", "https"]. */
  protocols: string[];
  allowPrivate: boolean;
  /** Exact origins (e.g. "http://127.0.0.1:3000", "rtmp://127.0.0.1:1935") exempt from the private-address check. */
  allowedOrigins?: string[];
  /** ALLOW_NETWORKS: private addresses inside these networks are allowed; every other private address stays refused. */
  allowNetworks?: NetworkList;
}

/**
 * Parses `raw`, checks its scheme, resolves its host (every address) and refuses it when any address is
 * private and outside allowNetworks, unless allowPrivate or its origin is listed. Returns the addresses checked, so the caller
 * can connect to exactly those (no second lookup a DNS rebinding could answer differently).
 */
export async function checkUrl(raw: string, opts: CheckUrlOptions): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new UrlRefusedError("malformed", `not a valid URL: ${raw.slice(0, 200)}`, { cause });
  }
  const allowed = opts.protocols.map((p) => p.replace(/:$/, "").toLowerCase());
  const scheme = url.protocol.replace(/:$/, "");
  if (!allowed.includes(scheme)) throw new UrlRefusedError("protocol", `protocol ${scheme}: is not allowed (allowed: ${allowed.join(", ")})`);
  if (!url.hostname) throw new UrlRefusedError("malformed", `URL has no host: ${url.href}`);

  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // URL.origin is "null" for rtmp: and other non-special schemes; scheme://host[:port] works for all
  const exempt = opts.allowPrivate || (opts.allowedOrigins ?? []).includes(`${url.protocol}//${url.host}`);
  const networks = opts.allowNetworks;
  // a local name is refused outright unless networks are allowed: then each address it resolves to decides
  if (!exempt && !networks?.size && /(^|\.)localhost\.?$/i.test(host)) throw new UrlRefusedError("private-address", `${host} is a local name`);

  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolver(host);
    } catch (cause) {
      throw new UrlRefusedError("unresolvable", `cannot resolve ${host}`, { cause });
    }
    if (addresses.length === 0) throw new UrlRefusedError("unresolvable", `${host} has no addresses`);
  }
  if (!exempt) {
    const bad = addresses.find((a) => isPrivateAddress(a) && !networks?.has(a));
    if (bad) throw new UrlRefusedError("private-address", `${host} resolves to a private address (${bad})`);
  }
  return { url, addresses };
}
