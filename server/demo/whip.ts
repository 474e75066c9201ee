// WHIP (RFC 9725) on the ingest's HTTP port: `POST /whip/<name>` with an SDP offer publishes a WebRTC stream
// (OBS 30+, browsers, GStreamer) under <name>. Its RTP is relayed into ffmpeg, which transcodes it to H.264/AAC
// and publishes it to this same ingest as rtmp://127.0.0.1:<port>/live/<name>: from there it is pulled, moderated,
// previewed and clipped exactly like an RTMP publish. Same access rules as RTMP: a publisher in
// INGEST_PUBLISH_ALLOW, or `Authorization: Bearer <INGEST_PUBLISH_KEY>` from anywhere. A publisher may send its offer
// before gathering finishes and PATCH its candidates after (trickle ICE, ../ingest/webrtc/trickle.ts).
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { RTCPeerConnection } from "werift";
import type { IngestAccess } from "./ingest-access";
import { contentType, readBody, routeSessions, sendText } from "./session-http";
import { answerOffer, newPeer, onPeerEnd } from "../ingest/webrtc/peer";
import { startRtpRelay, type RtpRelay } from "../ingest/webrtc/rtp-relay";
import type { RtpMedia } from "../ingest/webrtc/codecs";
import { applyTrickle, parseSdpFrag, TRICKLE_TYPE } from "../ingest/webrtc/trickle";
import { restartIce } from "../ingest/webrtc/ice-restart";
import { iceServerLinks, type WebrtcNetwork } from "../ingest/webrtc/network";

const MAX_OFFER_BYTES = 64 * 1024;
const MAX_FRAG_BYTES = 16 * 1024;
/** WHIP publishes at once (each holds a peer and an ffmpeg transcoder). */
export const MAX_WHIP_SESSIONS = 16;

export interface WhipOptions {
  access: IngestAccess;
  /** Where the relay publishes the stream (the ingest's own RTMP URL for <name>, with its internal key). */
  publishUrl(name: string): string;
  /** An RTMP publisher (or a WHIP one) holds <name> already. */
  isPublishing(name: string): boolean;
  /** STUN/TURN and UDP ports of the publish peers; handed to the publisher as `Link: rel="ice-server"` (RFC 9725 §4.6) */
  network?: WebrtcNetwork;
  /** A publish under <name> ended (its WHEP viewers end with it, whep-play.ts). */
  onEnded?(name: string): void;
  log(m: string): void;
}

interface WhipSession {
  id: string;
  name: string;
  pc: RTCPeerConnection;
  relay: RtpRelay | null;
  /** remote candidates added by PATCH (trickle ICE) */
  trickled: number;
  /** ICE restarts done (RFC 9725 §4.4); the ETag names the ICE session: `"<id>"`, then `"<id>.<restarts>"` */
  restarts: number;
  etag: string;
  /** an ICE restart is being answered */
  restarting: boolean;
  stop(reason: string): Promise<void>;
}

export interface Whip {
  /** Serves a /whip/ request; false when the path is not WHIP's. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  sessions(): Array<{ id: string; name: string; media: RtpMedia[]; packets: { video: number; audio: number }; trickled: number; iceRestarts: number }>;
  /** The peer publishing <name> once its media flows to the ingest, else null (whep-play.ts plays it back). */
  source(name: string): RTCPeerConnection | null;
  close(): Promise<void>;
}

/** ffmpeg output: H.264 (1 s keyframes, so a pull joins within a second) + AAC in FLV to the ingest. */
export function whipOutputArgs(media: RtpMedia[], url: string): string[] {
  const v = media.some((m) => m.kind === "video");
  const a = media.some((m) => m.kind === "audio");
  return [
    ...(v ? ["-map", "0:v:0", "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-force_key_frames", "expr:gte(t,n_forced*1)", "-vf", "scale='min(1920,iw)':-2"] : []),
    ...(a ? ["-map", "0:a:0", "-c:a", "aac", "-b:a", "96k", "-ar", "48000"] : []),
    "-f", "flv", url,
  ];
}

const bearer = (req: http.IncomingMessage): string | undefined => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];

// Browser publishers post cross-origin; the key travels in a header (never a cookie), so any origin may try.
const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "location, link, etag, accept-patch", "access-control-allow-headers": "authorization, content-type, if-match", "access-control-allow-methods": "POST, DELETE, PATCH, OPTIONS" };

export function createWhip(o: WhipOptions): Whip {
  const sessions = new Map<string, WhipSession>();

  const start = async (req: http.IncomingMessage, res: http.ServerResponse, name: string) => {
    const type = contentType(req);
    if (type !== "application/sdp") return sendText(res, 415, "WHIP offers are Content-Type: application/sdp", CORS);
    const offer = await readBody(req, MAX_OFFER_BYTES);
    if (offer === null) return sendText(res, 413, `offer larger than ${MAX_OFFER_BYTES} bytes`, CORS);
    if (!offer.startsWith("v=0") || !/^m=(video|audio) /m.test(offer)) return sendText(res, 400, "not an SDP offer with an audio or video line", CORS);
    if (o.isPublishing(name) || [...sessions.values()].some((s) => s.name === name)) return sendText(res, 409, `${name} is being published already`, CORS);
    if (sessions.size >= MAX_WHIP_SESSIONS) return sendText(res, 503, `at most ${MAX_WHIP_SESSIONS} WHIP publishes at once`, { ...CORS, "retry-after": "30" });

    const id = randomUUID();
    const pc = newPeer(o.network);
    let stopped = false;
    const session: WhipSession = {
      id,
      name,
      pc,
      relay: null,
      trickled: 0,
      restarts: 0,
      etag: `"${id}"`,
      restarting: false,
      stop: async (reason) => {
        if (stopped) return;
        stopped = true;
        sessions.delete(id);
        cancelEnd();
        o.log(`[whip] ${name} (${id.slice(0, 8)}) ended: ${reason}`);
        o.onEnded?.(name);
        await Promise.allSettled([session.relay?.close(), pc.close()]);
      },
    };
    const cancelEnd = onPeerEnd(pc, (s) => void session.stop(`peer ${s}`));
    sessions.set(id, session);
    let answer: string;
    try {
      answer = await answerOffer(pc, offer);
      session.relay = await startRtpRelay(pc, { output: (media) => whipOutputArgs(media, o.publishUrl(name)), log: o.log });
    } catch (err) {
      await session.stop(`negotiation failed: ${(err as Error).message}`);
      return sendText(res, 400, `cannot answer this offer: ${(err as Error).message}`, CORS);
    }
    // ffmpeg gone (publish refused, bad media) = the publish is over
    void session.relay.done.then(() => session.stop("relay ended"));
    o.log(`[whip] ${name} (${id.slice(0, 8)}) publishing ${session.relay.media.map((m) => m.rtpmap).join(" + ")} from ${req.socket.remoteAddress}`);
    const links = o.network ? iceServerLinks(o.network) : [];
    res.writeHead(201, { ...CORS, "content-type": "application/sdp", location: `/whip/${name}/${id}`, etag: session.etag, ...(links.length ? { link: links } : {}) }).end(answer);
  };

  const handleAsync = async (req: http.IncomingMessage, res: http.ServerResponse, name: string, id: string | undefined) => {
    const method = req.method ?? "GET";
    if (method === "OPTIONS") return void res.writeHead(204, { ...CORS, ...(id ? { "accept-patch": TRICKLE_TYPE } : { "accept-post": "application/sdp" }) }).end();
    const allowed = id ? ["DELETE", "PATCH"] : ["POST"];
    if (!allowed.includes(method)) return sendText(res, 405, "method not allowed", { ...CORS, allow: `${allowed.join(", ")}, OPTIONS` });
    const refused = o.access.publishRefusal(req.socket.remoteAddress, { key: bearer(req) });
    if (refused !== null) {
      o.log(`[whip] ${method} /whip/${name} refused to ${req.socket.remoteAddress}: ${refused.replace("?key=", "bearer key")}`);
      return sendText(res, 401, "publishing needs Authorization: Bearer <INGEST_PUBLISH_KEY> or an address in INGEST_PUBLISH_ALLOW", { ...CORS, "www-authenticate": 'Bearer realm="whip"' });
    }
    if (!id) return start(req, res, name);
    const session = sessions.get(id);
    if (!session || session.name !== name) return sendText(res, 404, "no such WHIP session", CORS);
    if (method === "PATCH") return trickle(req, res, session);
    await session.stop("DELETE by the publisher");
    sendText(res, 200, "stopped", CORS);
  };

  // RFC 9725 §4.3–4.4: trickle ICE → 204; an ICE restart (If-Match: *) → 200 with our new credentials and candidates
  // and a new ETag; new credentials without If-Match: * → 422; a stale If-Match → 412
  const trickle = async (req: http.IncomingMessage, res: http.ServerResponse, session: WhipSession) => {
    const type = contentType(req);
    if (type !== TRICKLE_TYPE) return sendText(res, 415, `PATCH bodies are Content-Type: ${TRICKLE_TYPE}`, { ...CORS, "accept-patch": TRICKLE_TYPE });
    const ifMatch = req.headers["if-match"]?.trim();
    if (ifMatch && ifMatch !== "*" && ifMatch !== session.etag) return sendText(res, 412, "If-Match does not name this session's ETag (an ICE restart gave it a new one)", CORS);
    const body = await readBody(req, MAX_FRAG_BYTES);
    if (body === null) return sendText(res, 413, `fragment larger than ${MAX_FRAG_BYTES} bytes`, CORS);
    if (ifMatch === "*") return restart(res, session, body);
    const r = await applyTrickle(session.pc, parseSdpFrag(body), session.trickled);
    if (!r.ok) return sendText(res, r.status, r.message, CORS);
    session.trickled += r.added;
    res.writeHead(204, CORS).end();
  };

  const restart = async (res: http.ServerResponse, session: WhipSession, body: string) => {
    if (session.restarting) return sendText(res, 409, "an ICE restart of this session is being answered", CORS);
    session.restarting = true;
    try {
      const r = await restartIce(session.pc, parseSdpFrag(body), session.restarts);
      if (!r.ok) return sendText(res, r.status, r.message, CORS);
      session.restarts++;
      session.trickled = 0;
      session.etag = `"${session.id}.${session.restarts}"`;
      o.log(`[whip] ${session.name} (${session.id.slice(0, 8)}) ICE restart ${session.restarts}: ${r.candidates} candidates offered`);
      res.writeHead(200, { ...CORS, "content-type": TRICKLE_TYPE, etag: session.etag }).end(r.frag);
    } finally {
      session.restarting = false;
    }
  };

  return {
    handle: (req, res) => routeSessions(req, res, "whip", { headers: CORS, log: o.log }, (name, id) => handleAsync(req, res, name, id)),
    source: (name) => [...sessions.values()].find((s) => s.name === name && s.relay !== null)?.pc ?? null,
    sessions: () => [...sessions.values()].map((s) => ({ id: s.id, name: s.name, media: s.relay?.media ?? [], packets: s.relay?.packets ?? { video: 0, audio: 0 }, trickled: s.trickled, iceRestarts: s.restarts })),
    async close() {
      await Promise.allSettled([...sessions.values()].map((s) => s.stop("ingest closing")));
    },
  };
}
