import http, { type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import https from "node:https";
import { isIPv6, type LookupFunction } from "node:net";

/** A URL whose host the URL guard resolved and vetted, with the addresses it vetted. */
export interface CheckedTarget {
  url: URL;
  addresses: string[];
}

/**
 * A `lookup` that answers only with already-vetted addresses: a socket using it connects to exactly what was
 * checked, never to what a second DNS answer (a rebinding) would say. IP-literal hosts skip lookup entirely.
 */
export function pinnedLookup(addresses: string[]): LookupFunction {
  if (addresses.length === 0) throw new Error("pinnedLookup needs at least one address");
  const entries = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  return (_host, options, callback) => {
    const cb = callback as (err: Error | null, a: unknown, f?: number) => void;
    if ((options as { all?: boolean }).all) cb(null, entries);
    else cb(null, entries[0].address, entries[0].family);
  };
}

export interface PinnedRequestOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  signal?: AbortSignal;
}

/**
 * One HTTP(S) request to a checked target over a fresh connection (no pooled socket from another check),
 * pinned to the vetted addresses; TLS still verifies the certificate against the URL's host name.
 */
export function pinnedRequest(target: CheckedTarget, o: PinnedRequestOptions = {}): Promise<IncomingMessage> {
  const lib = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(target.url, { method: o.method ?? "GET", headers: o.headers, lookup: pinnedLookup(target.addresses), agent: false, signal: o.signal }, resolve);
    req.on("error", reject);
    req.end(o.body);
  });
}
