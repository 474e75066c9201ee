import { isIPv4 } from "node:net";
import { startEgressProxy, type EgressPolicy, type EgressProxy } from "../net/egress-proxy";
import { liveInputKind } from "./live-args";
import { checkUrl } from "./url-guard";

/** How one ffmpeg run reaches its live input under the egress guard. */
export interface GuardedLiveInput {
  /** The URL to give ffmpeg (plain rtmp: the host replaced by the checked address). */
  url: string;
  /** Input options to put before `-i` (-http_proxy, -rtmp_tcurl). */
  inputArgs: string[];
  /** Environment for ffmpeg, or undefined for this process's own. */
  env: Record<string, string | undefined> | undefined;
  proxy: EgressProxy | null;
  close(): Promise<void>;
}

const RTMP_DEFAULT_PORT = "1935";

/**
 * The tcUrl ffmpeg would send for `u` (rtmpproto.c: the app is the first path segment, or the first two when
 * a playpath follows them, unless the second holds a `mp4:`-style prefix). Sent explicitly when the
 * connection goes to an IP literal, so servers that route by the host name in tcUrl still see it.
 */
export function rtmpTcUrl(raw: string): string {
  const u = new URL(raw);
  const path = `${u.pathname}${u.search}`;
  let app = "";
  if (path.startsWith("/ondemand/")) app = "ondemand";
  else {
    const next = path.slice(1);
    const slash = next.indexOf("/");
    if (slash >= 0) {
      const rest = next.slice(slash + 1);
      const second = rest.indexOf("/");
      const colon = rest.indexOf(":");
      app = second < 0 || (colon >= 0 && colon < second) ? next.slice(0, slash) : next.slice(0, slash + 1 + second);
    }
  }
  return `${u.protocol}//${u.hostname}:${u.port || RTMP_DEFAULT_PORT}/${app}`;
}

/** `raw` with its host replaced by the address literal (bracketed for IPv6). */
export function withAddress(raw: string, address: string): string {
  const u = new URL(raw);
  u.hostname = address.includes(":") ? `[${address}]` : address;
  return u.href;
}

const noop = async () => undefined;

/**
 * What ffmpeg may open for an http(s) input behind the gateway: plain http (to the gateway only: every URL it gets is
 * local, and -http_proxy / http_proxy send any other http URL there too), tcp under it, and crypto for AES-128 HLS
 * segments (crypto+http). No https, tls or httpproxy: the gateway speaks TLS upstream, so a playlist naming
 * httpproxy://, https://, tcp://, file: or data: gets a URL ffmpeg refuses (the HLS demuxer itself opens only
 * http*, file and data URLs).
 */
export const GATEWAY_PROTOCOLS = "http,tcp,crypto";

/**
 * Demuxers an http(s) live input may be read with: HLS and the containers live media and HLS segments come in.
 * Left out: every demuxer that opens URLs named in its input without the HLS demuxer's scheme check (dash, concat,
 * imf, sdp/rtp, image sequences…), so no other demuxer can be made to open a tcp: URL directly.
 */
export const LIVE_FORMATS = "hls,applehttp,flv,live_flv,mpegts,mov,matroska,aac,mp3,ac3,eac3,webvtt,ogg,wav,flac,mpeg,asf,avi";

/**
 * Makes ffmpeg connect only where `egress` allows, to addresses resolved and checked here:
 * - http(s) (HTTP-FLV, HLS): ffmpeg opens a local URL of the per-run egress gateway (server/net/egress-proxy.ts),
 *   which fetches the input itself (each redirect checked) and rewrites every playlist it passes on, so every
 *   playlist reload, nested playlist, key and segment goes through it too; ffmpeg gets only the protocols above
 *   and the formats above, and -http_proxy / http_proxy name the gateway for any http URL it was not given;
 * - rtmps: TLS, tunnelled through the same proxy with CONNECT;
 * - rtmp: resolved and checked here, then ffmpeg connects to the checked address literal (tcUrl keeps the name).
 *   ffmpeg's RTMP client follows no redirect to another host, so nothing else is reached.
 * With egress absent or allowPrivate (ALLOW_PRIVATE_NETWORKS=1) ffmpeg connects by itself.
 * Throws UrlRefusedError when the input itself is refused.
 */
export async function guardLiveInput(url: string, egress: EgressPolicy | undefined): Promise<GuardedLiveInput> {
  if (!egress || egress.allowPrivate) return { url, inputArgs: [], env: undefined, proxy: null, close: noop };
  const scheme = new URL(url).protocol;
  if (scheme === "rtmp:") {
    const target = await checkUrl(url, { protocols: ["rtmp"], ...egress });
    // one literal for ffmpeg: IPv4 first (an ingest on 0.0.0.0, like "localhost" → ::1 would miss it)
    const address = target.addresses.find((a) => isIPv4(a)) ?? target.addresses[0];
    return { url: withAddress(url, address), inputArgs: ["-rtmp_tcurl", rtmpTcUrl(url)], env: undefined, proxy: null, close: noop };
  }
  await checkUrl(url, { protocols: ["http", "https", "rtmps"], ...egress });
  const proxy = await startEgressProxy(egress);
  // no_proxy would let ffmpeg bypass the proxy for matching hosts
  const env = { ...process.env, http_proxy: proxy.url, no_proxy: undefined, NO_PROXY: undefined };
  if (liveInputKind(url) === "rtmp") return { url, inputArgs: [], env, proxy, close: () => proxy.close() };
  const inputArgs = ["-protocol_whitelist", GATEWAY_PROTOCOLS, "-format_whitelist", LIVE_FORMATS, "-http_proxy", proxy.url];
  return { url: proxy.localUrl(url), inputArgs, env, proxy, close: () => proxy.close() };
}
