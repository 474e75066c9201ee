// streamType WEBRTC: `data.url` is a WHEP endpoint. Each pull run is one WHEP session: offer (recv-only) POSTed
// to the checked, pinned address; the answer's media (ICE held to the same egress rules, ice-guard.ts) forwarded as
// RTP to loopback ports that the ordinary live pull's own ffmpeg reads (an SDP file: no transcode, no relay hop), so
// frames, audio segments, preview, health, retries and stream-end codes are exactly those of a NORMAL stream.
import { networkInterfaces } from "node:os";
import type { RTCPeerConnection } from "werift";
import type { EgressPolicy } from "../../net/egress-proxy";
import { pinnedRequest, type CheckedTarget } from "../../net/pinned";
import { startLivePull, type LivePull, type LivePullEnd, type LivePullOptions } from "../live";
import { checkUrl, UrlRefusedError } from "../url-guard";
import { iceGuard } from "./ice-guard";
import type { WebrtcNetwork } from "./network";
import { gathered, newPeer, onPeerEnd } from "./peer";
import { rtpInputArgs, startRtpForward, type RtpForward } from "./rtp-relay";

const MAX_ANSWER_BYTES = 64 * 1024;

/** Every address of this machine's network interfaces. */
const ownInterfaceAddresses = () => Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));

type Failed = Extract<LivePullEnd, { reason: "failed" }>;
const failed = (errorCode: Failed["errorCode"], message: string): Failed => ({ reason: "failed", errorCode, message, gotData: false });

async function readLimited(res: import("node:http").IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res) {
    size += (c as Buffer).length;
    if (size > max) throw new Error(`answer larger than ${max} bytes`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Resolves true once the peer is connected, false when it fails or `ms` pass first. */
function connected(pc: RTCPeerConnection, ms: number): Promise<boolean> {
  if (pc.connectionState === "connected") return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(false), ms);
    const sub = pc.connectionStateChange.subscribe((s) => (s === "connected" ? finish(true) : s === "failed" || s === "closed" ? finish(false) : undefined));
    function finish(ok: boolean) {
      clearTimeout(timer);
      sub.unSubscribe();
      resolve(ok);
    }
  });
}

const waitUntil = async (cond: () => boolean, ms: number, stopped: () => boolean) => {
  const deadline = Date.now() + ms;
  while (!cond() && !stopped() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return cond();
};

/**
 * `headers`: sent on the WHEP POST and DELETE (the endpoint's `Authorization: Bearer …`); never logged.
 * `network`: the service's STUN/TURN settings (network.ts).
 */
export function openWhepPull(url: string, egress: EgressPolicy, o: Omit<LivePullOptions, "url" | "egress">, { headers = {}, network }: { headers?: Record<string, string>; network?: WebrtcNetwork } = {}): LivePull {
  const auth = headers.Authorization ? { authorization: headers.Authorization } : {};
  const ioTimeoutMs = o.ioTimeoutMs && o.ioTimeoutMs > 0 ? o.ioTimeoutMs : 10_000;
  let stopped = false;
  let inner: LivePull | null = null;
  let pc: RTCPeerConnection | null = null;
  let rtp: RtpForward | null = null;
  let resource: CheckedTarget | null = null;
  const abort = new AbortController();

  const teardown = async () => {
    await rtp?.close().catch(() => undefined);
    await pc?.close().catch(() => undefined);
    // RFC 9725-style resource: DELETE it (same origin only: a Location elsewhere is not followed)
    const r = resource;
    resource = null;
    if (r) await pinnedRequest(r, { method: "DELETE", headers: auth, signal: AbortSignal.timeout(3000) }).then((res) => res.resume(), () => undefined);
  };

  const run = async (): Promise<LivePullEnd> => {
    let target: CheckedTarget;
    try {
      target = await checkUrl(url, { protocols: ["http", "https"], ...egress });
    } catch (err) {
      if (err instanceof UrlRefusedError) return failed(3001, `refused by the egress guard: ${err.message}`);
      throw err;
    }
    const refusedIce = new Set<string>();
    // max-bundle: one ICE transport for audio and video (a second one, dropped once bundled, would leak its socket)
    // this server's own ingest (an exempt origin: WHIP publishes played back over WHEP) answers with candidates on
    // this machine's own interfaces: media to and from them reaches no other host
    const own = (egress.allowedOrigins ?? []).includes(`${target.url.protocol}//${target.url.host}`);
    pc = newPeer(network, { bundlePolicy: "max-bundle", ...iceGuard(egress, own ? [...target.addresses, ...ownInterfaceAddresses()] : target.addresses, refusedIce) });
    if (o.frameIntervalSec !== null) pc.addTransceiver("video", { direction: "recvonly" });
    if (o.audio) pc.addTransceiver("audio", { direction: "recvonly" });
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    if (stopped) return { reason: "stopped" };

    let answer: string;
    try {
      const res = await pinnedRequest(target, { method: "POST", headers: { ...auth, "content-type": "application/sdp", accept: "application/sdp" }, body: pc.localDescription!.sdp, signal: AbortSignal.any([abort.signal, AbortSignal.timeout(ioTimeoutMs)]) });
      const status = res.statusCode ?? 0;
      if (status !== 201 && status !== 200) {
        res.resume();
        const hint = status === 401 || status === 403 ? (auth.authorization ? ": the bearer in data.headers.Authorization was refused" : ": it wants a bearer in data.headers.Authorization") : "";
        return failed(3001, `WHEP endpoint answered HTTP ${status}${hint}`); // as NORMAL http sources: an HTTP error is 3001
      }
      const location = res.headers.location;
      if (location) {
        const loc = new URL(location, target.url);
        if (loc.origin === target.url.origin) resource = { url: loc, addresses: target.addresses };
      }
      answer = await readLimited(res, MAX_ANSWER_BYTES);
    } catch (err) {
      if (stopped) return { reason: "stopped" };
      return failed(3001, `WHEP endpoint unreachable: ${(err as Error).message}`);
    }
    try {
      await pc.setRemoteDescription({ type: "answer", sdp: answer });
    } catch (err) {
      return failed(3002, `WHEP answer refused: ${(err as Error).message}`);
    }
    if (!(await connected(pc, ioTimeoutMs))) {
      if (stopped) return { reason: "stopped" };
      const why = refusedIce.size ? ` (ICE candidates refused by the egress guard: ${[...refusedIce].join(", ")})` : "";
      return failed(3001, `WebRTC media did not connect within ${ioTimeoutMs} ms${why}`);
    }
    rtp = await startRtpForward(pc);
    const fwd = rtp;
    let peerEnded = () => {};
    const ended = new Promise<void>((resolve) => (peerEnded = resolve));
    const peerGone = onPeerEnd(pc, () => peerEnded());
    try {
      // the forward's RTP goes straight into the capture ffmpeg (no transcode, no relay hop): wait for the first
      // packet only, so a peer that connects but sends nothing ends as a media failure, not as a stall
      if (!(await waitUntil(() => fwd.packets.video + fwd.packets.audio > 0, ioTimeoutMs, () => stopped))) {
        if (stopped) return { reason: "stopped" };
        return failed(3002, `no media arrived over WebRTC (${fwd.media.map((m) => m.rtpmap).join(" + ")})`);
      }
      if (stopped) return { reason: "stopped" };
      // every frame decoded: a WebRTC sender sends keyframes only when asked (PLI), never on a GOP a cadence could use
      inner = startLivePull({ ...o, url, keyframes: false, localInput: { path: fwd.sdpPath, inputArgs: rtpInputArgs(), readerStarted: () => fwd.readerStarted(), ended } });
      return await inner.done;
    } finally {
      peerGone();
    }
  };

  const done = run().finally(teardown);
  return {
    done,
    stats: () => inner?.stats() ?? { frames: 0, segments: 0, bytesIn: 0 },
    meter: () => inner?.meter?.() ?? { lastMediaAt: null, inputFps: null, inputKbps: null, audioDb: null, silentSince: null, audioSec: 0 },
    async stop(opts) {
      stopped = true;
      abort.abort();
      await inner?.stop(opts);
      await done.catch(() => undefined);
    },
  };
}
