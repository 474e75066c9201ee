// WHEP playback of WHIP publishes on the ingest's HTTP port: `POST /whep/<name>` with a receive-only SDP offer is
// answered with the publish's own tracks, forwarded packet for packet (no transcode, no RTMP hop), so the service
// pulls a WHIP publish as a WEBRTC stream (`data.url` http://<ingest>:<http port>/whep/<name>) at the latency of the
// publisher's own encoder. A viewer's keyframe requests (PLI/FIR) go on to the publisher. Who may play: the
// networks in INGEST_PLAY_ALLOW, as for RTMP play and HTTP-FLV. `DELETE /whep/<name>/<id>` ends a viewer; the
// publish ending ends its viewers.
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { MediaStreamTrack, type RTCPeerConnection, type RtcpPacket, type RtpPacket } from "werift";
import type { IngestAccess } from "./ingest-access";
import { contentType, readBody, routeSessions, sendText } from "./session-http";
import { peerCodecs } from "../ingest/webrtc/codecs";
import type { WebrtcNetwork } from "../ingest/webrtc/network";
import { gathered, newPeer, onPeerEnd } from "../ingest/webrtc/peer";
import { negotiatedMedia } from "../ingest/webrtc/rtp-relay";

const MAX_OFFER_BYTES = 64 * 1024;
/** Viewers at once, all names together (each holds a peer). */
export const MAX_WHEP_VIEWERS = 32;
/** RTCP payload-specific feedback formats a viewer may send for a keyframe: PLI (1) and FIR (4). */
const KEYFRAME_REQUESTS = new Set([1, 4]);

export interface WhepPlayOptions {
  access: IngestAccess;
  /** The peer of the WHIP publish under <name>, while it publishes. */
  source(name: string): RTCPeerConnection | null;
  network?: WebrtcNetwork;
  log(m: string): void;
}

export interface WhepPlay {
  /** Serves a /whep/ request; false when the path is not WHEP's. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** The publish under <name> ended: its viewers are closed. */
  publishEnded(name: string): void;
  /** `keyframeRequests`: the viewer's PLI/FIR passed on to the publisher */
  viewers(): Array<{ id: string; name: string; keyframeRequests: number }>;
  close(): Promise<void>;
}

interface Viewer {
  id: string;
  name: string;
  keyframeRequests: number;
  stop(reason: string): Promise<void>;
}

const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "location", "access-control-allow-headers": "content-type", "access-control-allow-methods": "POST, DELETE, OPTIONS" };

const text = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => sendText(res, status, body, { ...CORS, ...headers });

/** Our codecs narrowed to the ones the publish negotiated, so a viewer gets exactly what the publisher sends. */
function codecsOf(sources: ReturnType<typeof negotiatedMedia>) {
  const all = peerCodecs();
  const sent = sources.map((t) => t.media.rtpmap.split("/")[0].toUpperCase());
  const keep = (list: NonNullable<typeof all.video>) => list.filter((c) => sent.includes(c.mimeType.split("/")[1].toUpperCase()));
  return { video: keep(all.video ?? []), audio: keep(all.audio ?? []) };
}

export function createWhepPlay(o: WhepPlayOptions): WhepPlay {
  const viewers = new Map<string, Viewer>();

  const start = async (req: http.IncomingMessage, res: http.ServerResponse, name: string) => {
    if (contentType(req) !== "application/sdp") return text(res, 415, "WHEP offers are Content-Type: application/sdp");
    const offer = await readBody(req, MAX_OFFER_BYTES);
    if (offer === null) return text(res, 413, `offer larger than ${MAX_OFFER_BYTES} bytes`);
    if (!offer.startsWith("v=0") || !/^m=(video|audio) /m.test(offer)) return text(res, 400, "not an SDP offer with an audio or video line");
    const source = o.source(name);
    if (!source) return text(res, 404, `${name} is not being published over WHIP`);
    if (viewers.size >= MAX_WHEP_VIEWERS) return text(res, 503, `at most ${MAX_WHEP_VIEWERS} WHEP viewers at once`, { "retry-after": "30" });

    const id = randomUUID();
    const sources = negotiatedMedia(source);
    const pc = newPeer(o.network, { codecs: codecsOf(sources) });
    const subs: Array<{ unSubscribe(): void }> = [];
    let stopped = false;
    const viewer: Viewer = {
      id,
      name,
      keyframeRequests: 0,
      stop: async (reason) => {
        if (stopped) return;
        stopped = true;
        viewers.delete(id);
        cancelEnd();
        for (const s of subs) s.unSubscribe();
        o.log(`[whep] ${name} viewer (${id.slice(0, 8)}) ended: ${reason}`);
        await pc.close().catch(() => undefined);
      },
    };
    const cancelEnd = onPeerEnd(pc, (s) => void viewer.stop(`peer ${s}`));
    viewers.set(id, viewer);
    try {
      await pc.setRemoteDescription({ type: "offer", sdp: offer });
      for (const t of pc.getTransceivers()) {
        const from = sources.find((s) => s.media.kind === t.kind);
        if (!from) {
          t.setDirection("inactive");
          continue;
        }
        const track = new MediaStreamTrack({ kind: from.media.kind });
        await t.sender.replaceTrack(track);
        t.setDirection("sendonly");
        // no copy here: werift's sender clones each packet before rewriting its header (ssrc, payload type, sequence)
        const forward = (p: RtpPacket) => p.header.payloadType === from.media.payloadType && !stopped && track.writeRtp(p);
        const ssrcs = new Set<number>();
        const attach = (rt: { onReceiveRtp: { subscribe(f: (p: RtpPacket) => void): { unSubscribe(): void } }; ssrc?: number }) => {
          if (rt.ssrc !== undefined) ssrcs.add(rt.ssrc);
          subs.push(rt.onReceiveRtp.subscribe((p) => (ssrcs.add(p.header.ssrc), forward(p))));
        };
        for (const rt of from.transceiver.receiver.tracks) attach(rt);
        subs.push(from.transceiver.onTrack.subscribe((rt) => attach(rt)));
        if (from.media.kind === "video") {
          const pli = () => ssrcs.forEach((ssrc) => void from.transceiver.receiver.sendRtcpPLI(ssrc).catch(() => undefined));
          const onRtcp = (r: RtcpPacket) => {
            if (r.type !== 206 || !KEYFRAME_REQUESTS.has(r.feedback.count)) return;
            viewer.keyframeRequests++;
            pli();
          };
          // werift routes an RTCP feedback by its sender SSRC first: a werift viewer announces one in its recv-only
          // offer, so its PLIs land on this transceiver's receiver, not its sender (a browser's reach the sender)
          subs.push(t.sender.onRtcp.subscribe(onRtcp), t.receiver.onRtcp.subscribe(onRtcp));
          pli(); // the viewer starts at the next keyframe: ask for one now
        }
      }
      await pc.setLocalDescription(await pc.createAnswer());
      await gathered(pc);
    } catch (err) {
      await viewer.stop(`negotiation failed: ${(err as Error).message}`);
      return text(res, 400, `cannot answer this offer: ${(err as Error).message}`);
    }
    o.log(`[whep] ${name} viewer (${id.slice(0, 8)}) from ${req.socket.remoteAddress}`);
    res.writeHead(201, { ...CORS, "content-type": "application/sdp", location: `/whep/${name}/${id}` }).end(pc.localDescription!.sdp);
  };

  const handleAsync = async (req: http.IncomingMessage, res: http.ServerResponse, name: string, id: string | undefined) => {
    const method = req.method ?? "GET";
    if (method === "OPTIONS") return void res.writeHead(204, { ...CORS, ...(id ? {} : { "accept-post": "application/sdp" }) }).end();
    const allowed = id ? ["DELETE"] : ["POST"];
    if (!allowed.includes(method)) return text(res, 405, "method not allowed", { allow: `${allowed.join(", ")}, OPTIONS` });
    if (!o.access.mayPlay(req.socket.remoteAddress)) {
      o.log(`[whep] ${method} /whep/${name} refused to ${req.socket.remoteAddress}: not in INGEST_PLAY_ALLOW`);
      return text(res, 403, "forbidden: this network may not play from the ingest (INGEST_PLAY_ALLOW)");
    }
    if (!id) return start(req, res, name);
    const viewer = viewers.get(id);
    if (!viewer || viewer.name !== name) return text(res, 404, "no such WHEP session");
    await viewer.stop("DELETE by the viewer");
    text(res, 200, "stopped");
  };

  return {
    handle: (req, res) => routeSessions(req, res, "whep", { headers: CORS, log: o.log }, (name, id) => handleAsync(req, res, name, id)),
    publishEnded(name) {
      for (const v of [...viewers.values()]) if (v.name === name) void v.stop("the publish ended");
    },
    viewers: () => [...viewers.values()].map((v) => ({ id: v.id, name: v.name, keyframeRequests: v.keyframeRequests })),
    async close() {
      await Promise.allSettled([...viewers.values()].map((v) => v.stop("ingest closing")));
    },
  };
}
