// Who may publish to and play from the embedded RTMP / HTTP-FLV ingest. Streams pushed there are content under
// moderation: by default only this machine (the service's own pulls, a publisher on the same host) may do
// either; other networks are let in by INGEST_PLAY_ALLOW / INGEST_PUBLISH_ALLOW, and a publisher anywhere
// that presents INGEST_PUBLISH_KEY (`rtmp://host:1935/live/<name>?key=<INGEST_PUBLISH_KEY>`, OBS: stream key
// `<name>?key=…`). Always the TCP peer's address, never a forwarded header.
import type net from "node:net";
import { addressGroup } from "../net/address-group";
import { sameSecret } from "../net/constant-time";
import { allowList, peerIn } from "../net/peer-allow";
import { RateLimiter } from "../service/rate-limit";

export interface IngestAccessConfig {
  /** networks that may play (RTMP play, HTTP-FLV) */
  playAllow: string[];
  /** networks that may publish without the key */
  publishAllow: string[];
  /** a publisher presenting it in the stream name's query (`?key=`) may publish from anywhere; null = none */
  publishKey: string | null;
  /**
   * INGEST_KEY_FAILURES_PER_MINUTE: refused publishes an address (IPv6: its /64) may make; past them it is refused
   * even with the right key until its budget refills (default 10; 0 = unlimited)
   */
  keyFailuresPerMinute?: number;
}

/** The shortest INGEST_PUBLISH_KEY accepted: it is a password anyone on the network may guess at. */
export const MIN_PUBLISH_KEY_LENGTH = 16;

/** A configuration error for an INGEST_PUBLISH_KEY too short to be a secret, null when it is fine. */
export function publishKeyProblem(key: string | null): string | null {
  if (key === null || [...key].length >= MIN_PUBLISH_KEY_LENGTH) return null;
  return `INGEST_PUBLISH_KEY must be at least ${MIN_PUBLISH_KEY_LENGTH} characters (got ${[...key].length}); generate one with: openssl rand -base64 24`;
}

export const LOOPBACK = ["127.0.0.1/8", "::1"];

export interface IngestAccess {
  mayPlay(peer: string | undefined): boolean;
  /** Why this publish is refused (a refusal spends the address's budget), or null when it may go ahead. */
  publishRefusal(peer: string | undefined, query: Record<string, unknown> | undefined): string | null;
  mayPublish(peer: string | undefined, query: Record<string, unknown> | undefined): boolean;
}

/** Throws a clear configuration error for a bad allow list or a publish key shorter than MIN_PUBLISH_KEY_LENGTH. */
export function ingestAccess(c: IngestAccessConfig): IngestAccess {
  const play: net.BlockList = allowList(c.playAllow, "INGEST_PLAY_ALLOW");
  const publish: net.BlockList = allowList(c.publishAllow, "INGEST_PUBLISH_ALLOW");
  const short = publishKeyProblem(c.publishKey);
  if (short) throw new Error(short);
  const failures = new RateLimiter(c.keyFailuresPerMinute ?? 10);
  const publishRefusal = (peer: string | undefined, query: Record<string, unknown> | undefined): string | null => {
    // the allowed networks publish without a key and are never throttled
    if (peerIn(peer, publish)) return null;
    const who = addressGroup(peer ?? "unknown");
    if (failures.exhausted(who)) return `too many refused publishes from this address; retry in ${failures.retryAfterSec(who)} s`;
    const key = query?.key;
    if (c.publishKey !== null && typeof key === "string" && sameSecret(key, c.publishKey)) return null;
    failures.take(who);
    return typeof key === "string" ? "wrong ?key=" : "not in INGEST_PUBLISH_ALLOW and no ?key=";
  };
  return {
    mayPlay: (peer) => peerIn(peer, play),
    publishRefusal,
    mayPublish: (peer, query) => publishRefusal(peer, query) === null,
  };
}

/** Loopback only: the default, and what tests' private ingests use. */
export const loopbackOnly = (): IngestAccess => ingestAccess({ playAllow: LOOPBACK, publishAllow: LOOPBACK, publishKey: null });
