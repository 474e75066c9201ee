// werift peers as both WebRTC sides of this service use them: receive-only, our codecs, answers and offers sent
// whole (non-trickle: every candidate is in the SDP once gathering completes, as WHIP/WHEP clients expect).
import { RTCPeerConnection, type PeerConfig } from "werift";
import { peerCodecs } from "./codecs";
import { NO_WEBRTC_NETWORK, peerNetworkConfig, type WebrtcNetwork } from "./network";

/** Longest wait for our own candidates before an SDP goes out with what has been gathered. */
const GATHER_TIMEOUT_MS = 5000;

/** `network`: STUN/TURN, UDP ports, relay-only (network.ts); none given = host candidates only, no STUN at all. */
export function newPeer(network: WebrtcNetwork = NO_WEBRTC_NETWORK, extra: Partial<PeerConfig> = {}): RTCPeerConnection {
  return new RTCPeerConnection({ codecs: peerCodecs(), iceUseIpv6: false, ...peerNetworkConfig(network), ...extra });
}

/** Resolves once ICE gathering is complete (or after GATHER_TIMEOUT_MS: whatever was gathered goes out). */
export function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, GATHER_TIMEOUT_MS);
    const sub = pc.iceGatheringStateChange.subscribe((s) => s === "complete" && done());
    function done() {
      clearTimeout(timer);
      sub.unSubscribe();
      resolve();
    }
  });
}

/** Answers a remote offer as a receive-only peer; returns the full answer SDP (all candidates in it). */
export async function answerOffer(pc: RTCPeerConnection, offer: string): Promise<string> {
  await pc.setRemoteDescription({ type: "offer", sdp: offer });
  for (const t of pc.getTransceivers()) t.setDirection("recvonly");
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return pc.localDescription!.sdp;
}

/** Calls `onEnd` once when the peer fails, closes, or stays disconnected for `graceMs` (a brief network blip survives). */
export function onPeerEnd(pc: RTCPeerConnection, onEnd: (state: string) => void, graceMs = 5000): () => void {
  let timer: NodeJS.Timeout | null = null;
  let ended = false;
  const end = (s: string) => {
    if (ended) return;
    ended = true;
    if (timer) clearTimeout(timer);
    sub.unSubscribe();
    onEnd(s);
  };
  const sub = pc.connectionStateChange.subscribe((s) => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (s === "failed" || s === "closed") end(s);
    else if (s === "disconnected") timer = setTimeout(() => end("disconnected"), graceMs);
  });
  return () => {
    ended = true;
    if (timer) clearTimeout(timer);
    sub.unSubscribe();
  };
}
