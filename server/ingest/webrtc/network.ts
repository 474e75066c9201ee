// How this service's WebRTC peers (WHIP ingest, WHEP pulls) reach the other side across NAT: STUN/TURN servers,
// a fixed UDP port range for firewalls, relay-only. Read once from the environment (docs/configuration.md). With
// nothing set a peer offers its host candidates only: werift's own default (Google's public STUN server) is never
// used, so no WebRTC peer sends anything to a server nobody configured.
import { z } from "zod";

export interface WebrtcNetwork {
  /** WEBRTC_ICE_SERVERS (+ WEBRTC_TURN_USERNAME / WEBRTC_TURN_CREDENTIAL for the turn: ones) */
  iceServers: Array<{ urls: string; username?: string; credential?: string }>;
  /** WEBRTC_UDP_PORTS: the local UDP ports ICE binds (a firewall opens just these) */
  udpPorts: [number, number] | null;
  /** WEBRTC_RELAY_ONLY=1: media only through the TURN server (no host or server-reflexive pairs) */
  relayOnly: boolean;
}

export const NO_WEBRTC_NETWORK: WebrtcNetwork = { iceServers: [], udpPorts: null, relayOnly: false };

const IceUrl = z.string().regex(/^(stun|turns?):(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?(\?transport=(udp|tcp))?$/, "must be stun:host[:port], turn:host[:port][?transport=udp|tcp] or turns:host[:port]");
const Ports = z
  .string()
  .regex(/^\d{1,5}-\d{1,5}$/, "must be min-max, e.g. 40000-40100")
  .transform((s) => s.split("-").map(Number) as [number, number])
  .refine(([a, b]) => a >= 1024 && b <= 65535 && b > a, "must be 1024 ≤ min < max ≤ 65535");

/** Parses the WEBRTC_* variables; throws naming the variable on a bad value (the server does not start). */
export function parseWebrtcNetwork(env: Readonly<Record<string, string | undefined>>): WebrtcNetwork {
  const field = <T>(name: string, schema: z.ZodType<T>, raw: string): T => {
    const r = schema.safeParse(raw);
    if (!r.success) throw new Error(`${name}: ${r.error.issues[0]?.message ?? "invalid"} (got "${raw}")`);
    return r.data;
  };
  const urls = (env.WEBRTC_ICE_SERVERS ?? "").split(",").map((u) => u.trim()).filter(Boolean).map((u) => field("WEBRTC_ICE_SERVERS", IceUrl, u));
  const username = env.WEBRTC_TURN_USERNAME || undefined;
  const credential = env.WEBRTC_TURN_CREDENTIAL || undefined;
  const relayOnly = env.WEBRTC_RELAY_ONLY === "1";
  if (relayOnly && !urls.some((u) => u.startsWith("turn"))) throw new Error("WEBRTC_RELAY_ONLY=1 needs a turn: or turns: server in WEBRTC_ICE_SERVERS");
  return {
    iceServers: urls.map((u) => (u.startsWith("turn") ? { urls: u, username, credential } : { urls: u })),
    udpPorts: env.WEBRTC_UDP_PORTS ? field("WEBRTC_UDP_PORTS", Ports, env.WEBRTC_UDP_PORTS) : null,
    relayOnly,
  };
}

/** werift options for a peer on this network. */
export function peerNetworkConfig(n: WebrtcNetwork): { iceServers: WebrtcNetwork["iceServers"]; icePortRange: [number, number] | undefined; iceTransportPolicy: "all" | "relay" } {
  return { iceServers: n.iceServers, icePortRange: n.udpPorts ?? undefined, iceTransportPolicy: n.relayOnly ? "relay" : "all" };
}

const quoted = (s: string) => `"${s.replace(/["\\]/g, "\\$&")}"`;

/**
 * RFC 9725 §4.6: the ICE servers a WHIP client should use, as `Link: <url>; rel="ice-server"` values (TURN with
 * its username and credential). Sent only in the answer to an authorised publish.
 */
export function iceServerLinks(n: WebrtcNetwork): string[] {
  return n.iceServers.map((s) => [`<${s.urls}>`, 'rel="ice-server"', ...(s.username ? [`username=${quoted(s.username)}`] : []), ...(s.credential ? [`credential=${quoted(s.credential)}`, 'credential-type="password"'] : [])].join("; "));
}
