// Who may publish to and play from the embedded RTMP / HTTP-FLV ingest. Streams pushed there are content under
// moderation: by default only this machine (the service's own pulls, a publisher on the same host) may do
// either; other networks are let in by INGEST_PLAY_ALLOW / INGEST_PUBLISH_ALLOW, and a publisher anywhere
// that presents INGEST_PUBLISH_KEY (`rtmp://host:1935/live/<name>?key=<INGEST_PUBLISH_KEY>`, OBS: stream key
// `<name>?key=…`). Always the TCP peer's address, never a forwarded header.
import type net from "node:net";
import { sameSecret } from "../net/constant-time";
import { allowList, peerIn } from "../net/peer-allow";

export interface IngestAccessConfig {
  /** networks that may play (RTMP play, HTTP-FLV) */
  playAllow: string[];
  /** networks that may publish without the key */
  publishAllow: string[];
  /** a publisher presenting it in the stream name's query (`?key=`) may publish from anywhere; null = none */
  publishKey: string | null;
}

export const LOOPBACK = ["127.0.0.1/8", "::1"];

export interface IngestAccess {
  mayPlay(peer: string | undefined): boolean;
  mayPublish(peer: string | undefined, query: Record<string, unknown> | undefined): boolean;
}

export function ingestAccess(c: IngestAccessConfig): IngestAccess {
  const play: net.BlockList = allowList(c.playAllow, "INGEST_PLAY_ALLOW");
  const publish: net.BlockList = allowList(c.publishAllow, "INGEST_PUBLISH_ALLOW");
  return {
    mayPlay: (peer) => peerIn(peer, play),
    mayPublish(peer, query) {
      const key = query?.key;
      const keyOk = c.publishKey !== null && typeof key === "string" && sameSecret(key, c.publishKey);
      return keyOk || peerIn(peer, publish);
    },
  };
}

/** Loopback only: the default, and what tests' private ingests use. */
export const loopbackOnly = (): IngestAccess => ingestAccess({ playAllow: LOOPBACK, publishAllow: LOOPBACK, publishKey: null });
