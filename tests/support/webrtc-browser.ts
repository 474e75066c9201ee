// Debian chromium as the far WebRTC side in tests: a fake camera + microphone (Chromium's own test pattern and
// beep) published over WHIP from a page served on 127.0.0.1 (a secure context, so getUserMedia works).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "@playwright/test";

const PAGE = `<!doctype html><meta charset="utf-8"><title>whip publisher</title><script>
window.publish = async (whipUrl, key) => {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 360, frameRate: 15 }, audio: true });
  const pc = new RTCPeerConnection();
  for (const t of stream.getTracks()) pc.addTransceiver(t, { direction: "sendonly" });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((r) => { if (pc.iceGatheringState === "complete") r(); pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && r()); setTimeout(r, 3000); });
  const headers = { "content-type": "application/sdp" };
  if (key) headers.authorization = "Bearer " + key;
  const res = await fetch(whipUrl, { method: "POST", headers, body: pc.localDescription.sdp });
  const body = await res.text();
  if (res.status !== 201) { pc.close(); return { status: res.status, body }; }
  await pc.setRemoteDescription({ type: "answer", sdp: body });
  window.pc = pc;
  window.whip = { url: new URL(res.headers.get("location"), whipUrl).href, auth: headers.authorization ? { authorization: headers.authorization } : {}, etag: res.headers.get("etag") };
  return { status: res.status, location: res.headers.get("location"), link: res.headers.get("link"), answer: body, etag: res.headers.get("etag") };
};
// an ICE restart as WHIP clients do it (RFC 9725 §4.4): new local credentials and candidates PATCHed with
// If-Match: *; the 200's fragment (the server's new credentials and candidates) replaces them in the remote answer
window.restartWhipIce = async () => {
  const pc = window.pc;
  pc.restartIce();
  await pc.setLocalDescription(await pc.createOffer({ iceRestart: true }));
  await new Promise((r) => { if (pc.iceGatheringState === "complete") r(); pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && r()); setTimeout(r, 3000); });
  const sdp = pc.localDescription.sdp;
  const ufrag = /a=ice-ufrag:(\\S+)/.exec(sdp)[1], pwd = /a=ice-pwd:(\\S+)/.exec(sdp)[1];
  const mid = pc.getTransceivers()[0].mid;
  const cands = [...new Set(sdp.split("\\r\\n").filter((l) => l.startsWith("a=candidate:")))];
  const frag = "a=ice-ufrag:" + ufrag + "\\r\\na=ice-pwd:" + pwd + "\\r\\nm=audio 9 UDP/TLS/RTP/SAVPF 0\\r\\na=mid:" + mid + "\\r\\n" + cands.join("\\r\\n") + "\\r\\na=end-of-candidates\\r\\n";
  const res = await fetch(window.whip.url, { method: "PATCH", headers: { ...window.whip.auth, "content-type": "application/trickle-ice-sdpfrag", "if-match": "*" }, body: frag });
  const body = await res.text();
  if (res.status !== 200) return { status: res.status, body };
  const remoteUfrag = /a=ice-ufrag:(\\S+)/.exec(body)[1], remotePwd = /a=ice-pwd:(\\S+)/.exec(body)[1];
  const remoteCands = body.split("\\r\\n").filter((l) => l.startsWith("a=candidate:"));
  const answer = pc.remoteDescription.sdp
    .replace(/a=ice-ufrag:.*\\r\\n/g, "a=ice-ufrag:" + remoteUfrag + "\\r\\n")
    .replace(/a=ice-pwd:.*\\r\\n/g, "a=ice-pwd:" + remotePwd + "\\r\\n")
    .replace(/a=candidate:.*\\r\\n/g, "")
    .replace(/(m=.*\\r\\n)/g, "$1" + remoteCands.map((c) => c + "\\r\\n").join(""));
  await pc.setRemoteDescription({ type: "answer", sdp: answer });
  window.whip.etag = res.headers.get("etag");
  return { status: res.status, etag: res.headers.get("etag"), contentType: res.headers.get("content-type"), localUfrag: ufrag, remoteUfrag, remoteCandidates: remoteCands.length, body };
};
// what chromium's transport says of the ICE session in use: its local ufrag, the selected pair's changes, bytes sent
window.transportStats = async () => {
  const stats = await window.pc.getStats();
  for (const s of stats.values()) if (s.type === "transport") return { iceLocalUsernameFragment: s.iceLocalUsernameFragment, selectedCandidatePairChanges: s.selectedCandidatePairChanges, bytesSent: s.bytesSent, iceState: s.iceState };
  return null;
};
// trickle ICE (RFC 9725 §4.3): the offer goes out with no candidate; each one is PATCHed as an SDP fragment once
// the session's Location is known, then a=end-of-candidates
window.publishTrickle = async (whipUrl, key) => {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 360, frameRate: 15 }, audio: true });
  const pc = new RTCPeerConnection();
  for (const t of stream.getTracks()) pc.addTransceiver(t, { direction: "sendonly" });
  const pending = [];
  const patches = [];
  let session = null;
  const send = (frag) => patches.push(fetch(session.url, { method: "PATCH", headers: { ...session.auth, "content-type": "application/trickle-ice-sdpfrag", "if-match": session.etag }, body: frag }).then((r) => r.status));
  const fragOf = (c) => {
    const sdp = pc.localDescription.sdp;
    const ufrag = /a=ice-ufrag:(\\S+)/.exec(sdp)[1], pwd = /a=ice-pwd:(\\S+)/.exec(sdp)[1];
    const head = "a=ice-ufrag:" + ufrag + "\\r\\na=ice-pwd:" + pwd + "\\r\\n";
    return c ? head + "m=audio 9 UDP/TLS/RTP/SAVPF 0\\r\\na=mid:" + c.sdpMid + "\\r\\na=" + c.candidate + "\\r\\n" : head + "a=end-of-candidates\\r\\n";
  };
  pc.addEventListener("icecandidate", (e) => { const f = fragOf(e.candidate); if (session) send(f); else pending.push(f); });
  await pc.setLocalDescription(await pc.createOffer());
  const offer = pc.localDescription.sdp.split("\\r\\n").filter((l) => !l.startsWith("a=candidate:") && l !== "a=end-of-candidates").join("\\r\\n");
  const auth = key ? { authorization: "Bearer " + key } : {};
  const res = await fetch(whipUrl, { method: "POST", headers: { ...auth, "content-type": "application/sdp" }, body: offer });
  const body = await res.text();
  if (res.status !== 201) { pc.close(); return { status: res.status, body }; }
  await pc.setRemoteDescription({ type: "answer", sdp: body });
  session = { url: new URL(res.headers.get("location"), whipUrl).href, etag: res.headers.get("etag"), auth };
  for (const f of pending.splice(0)) send(f);
  window.pc = pc;
  await new Promise((r) => { if (pc.iceGatheringState === "complete") r(); pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && r()); });
  return { status: res.status, location: res.headers.get("location"), offerHadCandidates: offer.includes("a=candidate:"), patchStatuses: await Promise.all(patches) };
};
// the far side of a WHEP pull: answers a recv-only offer with the fake camera + microphone
window.answerWhep = async (offer) => {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 360, frameRate: 15 }, audio: true });
  const pc = new RTCPeerConnection();
  await pc.setRemoteDescription({ type: "offer", sdp: offer });
  for (const t of stream.getTracks()) {
    const tr = pc.getTransceivers().find((x) => x.receiver.track.kind === t.kind && !x.sender.track);
    if (tr) { tr.direction = "sendonly"; await tr.sender.replaceTrack(t); }
  }
  await pc.setLocalDescription(await pc.createAnswer());
  await new Promise((r) => { if (pc.iceGatheringState === "complete") r(); pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && r()); setTimeout(r, 3000); });
  (window.served ??= []).push(pc);
  return pc.localDescription.sdp;
};
window.stopWhep = () => { for (const pc of window.served ?? []) pc.close(); window.served = []; };
</script>`;

export interface WebrtcBrowser {
  page: Page;
  /** WHIP-publishes the fake camera and microphone; status 201 with the session's Location, or the refusal. */
  publish(whipUrl: string, key?: string): Promise<{ status: number; location?: string; link?: string | null; answer?: string; etag?: string | null; body?: string }>;
  /** An ICE restart of the last publish (RFC 9725 §4.4): status 200 with the server's new credentials, or the refusal. */
  restartIce(): Promise<{ status: number; etag?: string | null; contentType?: string | null; localUfrag?: string; remoteUfrag?: string; remoteCandidates?: number; body?: string }>;
  /** Chromium's own view of the publish's transport (RTCTransportStats). */
  transportStats(): Promise<{ iceLocalUsernameFragment?: string; selectedCandidatePairChanges?: number; bytesSent?: number; iceState?: string } | null>;
  /** The same with trickle ICE: an offer without candidates, then one PATCH per candidate and one for the end. */
  publishTrickle(whipUrl: string, key?: string): Promise<{ status: number; location?: string; offerHadCandidates?: boolean; patchStatuses?: number[]; body?: string }>;
  /**
   * A WHEP endpoint served by this browser (a tiny signalling shim on 127.0.0.1: POST offer → the page answers with
   * its fake camera + microphone; DELETE ends it). `posts` counts the offers received. With `bearer`, a request
   * without `Authorization: Bearer <bearer>` is answered 401; `refused` counts those, `deletes` the authorised DELETEs.
   */
  serveWhep(o?: { bearer?: string }): Promise<{ url: string; posts: () => number; refused: () => number; deletes: () => number; stopAll(): Promise<void>; close(): Promise<void> }>;
  /** Waits until the page's peer connection reports `state`. */
  waitForState(state: RTCPeerConnectionState): Promise<void>;
  close(): Promise<void>;
}

export async function startWebrtcBrowser(): Promise<WebrtcBrowser> {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  server.unref();
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", "--disable-features=WebRtcHideLocalIpsWithMdns", "--autoplay-policy=no-user-gesture-required"],
    });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const b = browser;
    const serveWhep = async (o: { bearer?: string } = {}) => {
      let posts = 0;
      let refused = 0;
      let deletes = 0;
      const shim = http.createServer(async (req, res) => {
        if (o.bearer && req.headers.authorization !== `Bearer ${o.bearer}`) return void (refused++, req.resume(), res.writeHead(401, { "www-authenticate": 'Bearer realm="whep"' }).end());
        if (req.method === "DELETE") deletes++;
        if (req.method === "DELETE") return void (await page.evaluate(() => (window as unknown as { stopWhep(): void }).stopWhep()), res.writeHead(200).end());
        if (req.method !== "POST") return void res.writeHead(405).end();
        posts++;
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        try {
          const answer = await page.evaluate((offer) => (window as unknown as { answerWhep(o: string): Promise<string> }).answerWhep(offer), Buffer.concat(chunks).toString("utf8"));
          res.writeHead(201, { "content-type": "application/sdp", location: `${req.url}/session-${posts}` }).end(answer);
        } catch (err) {
          res.writeHead(400).end(String(err));
        }
      });
      await new Promise<void>((r) => shim.listen(0, "127.0.0.1", r));
      shim.unref();
      return {
        url: `http://127.0.0.1:${(shim.address() as AddressInfo).port}/whep/cam`,
        posts: () => posts,
        refused: () => refused,
        deletes: () => deletes,
        stopAll: () => page.evaluate(() => (window as unknown as { stopWhep(): void }).stopWhep()),
        close: () => new Promise<void>((r) => (shim.closeAllConnections(), shim.close(() => r()))),
      };
    };
    return {
      page,
      serveWhep,
      publishTrickle: (whipUrl, key) => page.evaluate(([u, k]) => (window as unknown as { publishTrickle(u: string, k?: string): Promise<{ status: number }> }).publishTrickle(u, k), [whipUrl, key] as const),
      publish: (whipUrl, key) => page.evaluate(([u, k]) => (window as unknown as { publish(u: string, k?: string): Promise<{ status: number }> }).publish(u, k), [whipUrl, key] as const),
      restartIce: () => page.evaluate(() => (window as unknown as { restartWhipIce(): Promise<{ status: number }> }).restartWhipIce()),
      transportStats: () => page.evaluate(() => (window as unknown as { transportStats(): Promise<null> }).transportStats()),
      waitForState: async (state) => void (await page.waitForFunction((s) => (window as unknown as { pc?: RTCPeerConnection }).pc?.connectionState === s, state, { timeout: 30_000 })),
      async close() {
        await b.close();
        server.close();
      },
    };
  } catch (err) {
    await browser?.close();
    server.close();
    throw err;
  }
}
