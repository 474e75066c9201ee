// WHIP ingest with a real WebRTC stack on the other side: Debian chromium publishes its fake camera and
// microphone to the ingest's /whip/<name>; the stream appears on the ingest's RTMP side and the service pulls
// and moderates it like any RTMP publish (frame and audio-segment callbacks).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { ingestAccess } from "../../server/demo/ingest-access";
import { startRtmpServer, type RtmpServer } from "../../server/demo/rtmp-server";
import { startTestService, TEST_KEY } from "../support/app";
import { freePort } from "../support/child-server";
import { startReceiver, streamResults, waitFor } from "../support/net";
import { startWebrtcBrowser, type WebrtcBrowser } from "../support/webrtc-browser";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const KEY = "whip-test-key-0123456789";

let ingest: RtmpServer;
let browser: WebrtcBrowser;
let svc: Awaited<ReturnType<typeof startTestService>>;
const logs: string[] = [];
before(async () => {
  // nobody is allowed by address, not even this machine: only the bearer key publishes
  [ingest, browser, svc] = await Promise.all([
    startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1", whip: true, log: (m) => logs.push(m), access: ingestAccess({ playAllow: ["127.0.0.1/8"], publishAllow: [], publishKey: KEY }) }),
    startWebrtcBrowser(),
    startTestService(),
  ]);
});
after(async () => {
  await browser?.close();
  await ingest?.close();
  await svc?.close();
});

const whipUrl = (name: string) => `http://127.0.0.1:${ingest.httpPort}/whip/${name}`;

test("WHIP refusals: no key or a wrong key → 401 (before any peer is made); not SDP → 415; PATCH on an unknown session → 404", async () => {
  assert.equal((await browser.publish(whipUrl("refused"))).status, 401);
  assert.equal((await browser.publish(whipUrl("refused"), "wrong-key-wrong-key-00")).status, 401);
  const notSdp = await fetch(whipUrl("refused"), { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: "{}" });
  assert.equal(notSdp.status, 415);
  const garbage = await fetch(whipUrl("refused"), { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/sdp" }, body: "hello" });
  assert.equal(garbage.status, 400);
  const get = await fetch(whipUrl("refused"));
  assert.equal(get.status, 405);
  const unknown = await fetch(`${whipUrl("refused")}/00000000-0000-0000-0000-000000000000`, { method: "PATCH", headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(unknown.status, 404);
  assert.equal(ingest.whip!.sessions().length, 0);
  assert.ok(!logs.some((l) => l.includes(KEY)), "the key is never logged");
});

test("Chromium publishes its fake camera + microphone over WHIP; the service pulls rtmp://…/live/<name> and delivers frame and audio callbacks; DELETE ends the publish", async () => {
  const name = `whip-${randomBytes(3).toString("hex")}`;
  const res = await browser.publish(whipUrl(name), KEY);
  assert.equal(res.status, 201, JSON.stringify(res));
  assert.match(res.location!, new RegExp(`^/whip/${name}/[0-9a-f-]{36}$`));
  assert.match(res.answer!, /a=candidate:/, "the answer carries our candidates (no trickle needed)");
  await browser.waitForState("connected");
  const [session] = ingest.whip!.sessions();
  assert.deepEqual(session.media.map((m) => m.kind).sort(), ["audio", "video"]);
  // the relay ffmpeg publishes once it has probed the first keyframe (slow on a loaded machine)
  await waitFor(async () => ingest.isPublishing(name), 90_000, 100);

  // a second publisher on the same name is refused while the first holds it
  assert.equal((await browser.page.evaluate(([u, k]) => fetch(u, { method: "POST", headers: { "content-type": "application/sdp", authorization: `Bearer ${k}` }, body: "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n" }).then((r) => r.status), [whipUrl(name), KEY] as const)), 409);
  // PATCH refusals (RFC 9725 §4.3–4.4): not a fragment 415, stale If-Match 412, new credentials without If-Match: * 422,
  // an ICE restart without a password or with the current ufrag 400, empty 400
  const patch = (headers: Record<string, string>, body: string) => fetch(`http://127.0.0.1:${ingest.httpPort}${res.location}`, { method: "PATCH", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/trickle-ice-sdpfrag", ...headers }, body }).then((r) => r.status);
  assert.equal(await patch({ "content-type": "application/sdp" }, "a=end-of-candidates"), 415);
  assert.equal(await patch({ "if-match": '"not-this-session"' }, "a=end-of-candidates"), 412);
  assert.equal(await patch({ "if-match": "*" }, "a=ice-ufrag:new1\r\n"), 400);
  const current = /a=ice-ufrag:(\S+)/.exec(await browser.page.evaluate(() => (window as unknown as { pc: RTCPeerConnection }).pc.localDescription!.sdp))![1];
  assert.equal(await patch({ "if-match": "*" }, `a=ice-ufrag:${current}\r\na=ice-pwd:newpasswordnewpassword12\r\n`), 400);
  assert.equal(await patch({}, "a=ice-ufrag:other\r\na=ice-pwd:x\r\na=candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host\r\n"), 422);
  assert.equal(await patch({}, "a=mid:0\r\n"), 400);

  const rx = await startReceiver();
  try {
    const ack = await svc.post("/videostream/v4", {
      accessKey: TEST_KEY,
      appId: "default",
      eventId: "VIDEOSTREAM",
      imgType: "QRCODE",
      audioType: "POLITY",
      imgCallback: `${rx.url}?lane=img`,
      audioCallback: `${rx.url}?lane=audio`,
      data: { streamType: "NORMAL", url: ingest.rtmpUrl(name), tokenId: "whip-user", detectFrequency: 1, returnAllImg: 1, returnAllText: 1 },
    });
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    await rx.until((r) => streamResults(r, 1).length >= 2 && streamResults(r, 2).length >= 1, 120_000);
    const frame = streamResults(rx.received, 1)[0].body as Json;
    assert.equal(frame.frameDetail.riskLevel, "PASS");
    assert.equal((await fetch(frame.frameDetail.imgUrl)).headers.get("content-type"), "image/jpeg");
    const seg = streamResults(rx.received, 2)[0].body as Json;
    assert.match(seg.requestId, new RegExp(`^${ack.requestId}_a1$`));
    assert.ok(session.packets.video > 0 && session.packets.audio > 0, JSON.stringify(session.packets));
    await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
  } finally {
    await rx.close();
  }

  const del = await fetch(`http://127.0.0.1:${ingest.httpPort}${res.location}`, { method: "DELETE", headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(del.status, 200);
  await waitFor(async () => !ingest.isPublishing(name) && ingest.whip!.sessions().length === 0, 15_000, 100);
});

test("a WHIP publish is played back over WHEP by the ingest (POST /whep/<name>): the service pulls it as a WEBRTC stream, packet for packet (frames and audio), and the publish ending ends the viewer", async () => {
  const name = `whip-whep-${randomBytes(3).toString("hex")}`;
  const whepUrl = `http://127.0.0.1:${ingest.httpPort}/whep/${name}`;
  const offer = { method: "POST", headers: { "content-type": "application/sdp" }, body: "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n" };
  assert.equal((await fetch(whepUrl, offer)).status, 404, "nothing published under the name yet");
  assert.equal((await fetch(whepUrl, { ...offer, headers: { "content-type": "text/plain" } })).status, 415);
  assert.equal((await fetch(whepUrl)).status, 405);
  const res = await browser.publish(whipUrl(name), KEY);
  assert.equal(res.status, 201, JSON.stringify(res));
  await waitFor(async () => ingest.isPublishing(name), 90_000, 100);
  const rx = await startReceiver();
  try {
    const ack = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "POLITY", imgCallback: `${rx.url}?lane=img`, audioCallback: `${rx.url}?lane=audio`, data: { streamType: "WEBRTC", url: whepUrl, tokenId: "whep-of-whip", detectFrequency: 1, returnAllImg: 1, returnAllText: 1 } });
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    await rx.until((r) => streamResults(r, 1).length >= 2 && streamResults(r, 2).length >= 1, 120_000);
    assert.equal(ingest.whep!.viewers().length, 1);
    // the pull's keyframe requests (PLI as its ffmpeg starts) reached the publisher through the ingest: without them a
    // browser publisher sends its next keyframe only when the WHIP relay's own keep-alive asks (up to 10 s)
    assert.ok(ingest.whep!.viewers()[0].keyframeRequests >= 1, JSON.stringify(ingest.whep!.viewers()));
    assert.ok(logs.some((l) => l.includes(`[whep] ${name} viewer`)), "the ingest served the viewer");
    // the publisher leaves: its viewer is closed with it
    const del = await fetch(`http://127.0.0.1:${ingest.httpPort}${res.location}`, { method: "DELETE", headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(del.status, 200);
    await waitFor(async () => ingest.whep!.viewers().length === 0, 15_000, 100);
    assert.ok(logs.some((l) => new RegExp(`\\[whep\\] ${name} viewer \\(\\w+\\) ended: the publish ended`).test(l)), logs.filter((l) => l.includes("[whep]")).join("\n"));
    await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
  } finally {
    await rx.close();
  }
});

test("the service's own ingest, with only loopback allowed (ALLOW_NETWORKS 127.0.0.1/32): a WHIP publish to it is pulled over its WHEP playback (its ICE candidates, this machine's own private addresses, are not refused); another private WHEP host still is", async () => {
  const ports = { rtmp: await freePort(), http: await freePort() };
  const own = await startTestService({ env: { ALLOW_PRIVATE_NETWORKS: "0", ALLOW_NETWORKS: "127.0.0.1/32", RTMP_PORT: String(ports.rtmp), RTMP_HTTP_PORT: String(ports.http), INGEST_PUBLISH_KEY: KEY } });
  const rx = await startReceiver();
  const name = `own-whep-${randomBytes(3).toString("hex")}`;
  try {
    const res = await browser.publish(`http://127.0.0.1:${ports.http}/whip/${name}`, KEY);
    assert.equal(res.status, 201, JSON.stringify(res));
    const ack = await own.post("/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "WEBRTC", url: `http://localhost:${ports.http}/whep/${name}`, tokenId: "own-whep", detectFrequency: 1, returnAllImg: 1 } });
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    await rx.until((r) => streamResults(r, 1).length >= 2, 120_000);
    await own.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
    // and a WHEP URL on another private address is still refused (not this server's ingest)
    const other = await own.post("/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "WEBRTC", url: `http://10.255.255.1:${ports.http}/whep/${name}`, tokenId: "own-whep", detectFrequency: 1 } });
    if (other.code === 1100) {
      const end = await rx.until((r) => r.some((x) => x.body.statCode === 1 && x.body.requestId === other.requestId), 120_000);
      const body = end.find((x) => x.body.requestId === other.requestId)!.body as Json;
      assert.equal(body.auxInfo.errorCode, 3001, JSON.stringify(body));
    } else assert.notEqual(other.code, 1100, JSON.stringify(other));
  } finally {
    await rx.close();
    await own.close(); // its ingest closing ends the publish
  }
});

test("trickle ICE (RFC 9725 §4.3): chromium offers with no candidate and PATCHes each one as it gathers; every PATCH is 204, the session takes them, and the publish reaches the ingest", async () => {
  const name = `whip-trickle-${randomBytes(3).toString("hex")}`;
  const res = await browser.publishTrickle(whipUrl(name), KEY);
  assert.equal(res.status, 201, JSON.stringify(res));
  assert.equal(res.offerHadCandidates, false);
  assert.ok(res.patchStatuses!.length >= 2 && res.patchStatuses!.every((s) => s === 204), JSON.stringify(res.patchStatuses));
  await browser.waitForState("connected");
  const session = ingest.whip!.sessions().find((s) => s.name === name)!;
  assert.ok(session.trickled >= 1, JSON.stringify(session));
  await waitFor(async () => ingest.isPublishing(name), 90_000, 100);
  const del = await fetch(`http://127.0.0.1:${ingest.httpPort}${res.location}`, { method: "DELETE", headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(del.status, 200);
  await waitFor(async () => !ingest.isPublishing(name) && ingest.whip!.sessions().length === 0, 15_000, 100);
});

test("ICE restart (RFC 9725 §4.4): chromium restarts ICE mid-publish with If-Match: *; 200 with the ingest's new credentials, candidates and a new ETag; media keeps flowing on the new ICE session; the old ETag is stale", async () => {
  const name = `whip-restart-${randomBytes(3).toString("hex")}`;
  const res = await browser.publish(whipUrl(name), KEY);
  assert.equal(res.status, 201, JSON.stringify(res));
  await browser.waitForState("connected");
  await waitFor(async () => ingest.isPublishing(name), 90_000, 100);
  const before = (await browser.transportStats())!;
  const oldAnswerUfrag = /a=ice-ufrag:(\S+)/.exec(res.answer!)![1];

  const r = await browser.restartIce();
  assert.equal(r.status, 200, JSON.stringify(r));
  assert.equal(r.contentType, "application/trickle-ice-sdpfrag");
  assert.ok(r.etag && r.etag !== res.etag, `a new ETag: ${r.etag} after ${res.etag}`);
  assert.notEqual(r.remoteUfrag, oldAnswerUfrag, "the ingest answers with new credentials");
  assert.ok(r.remoteCandidates! >= 1, r.body);
  assert.match(r.body!, /a=end-of-candidates/);
  const session = ingest.whip!.sessions().find((s) => s.name === name)!;
  assert.equal(session.iceRestarts, 1);

  // chromium's transport runs on the new ICE session (its new local ufrag, a new selected pair) and keeps sending
  await waitFor(async () => {
    const now = await browser.transportStats();
    return now?.iceLocalUsernameFragment === r.localUfrag && now?.iceState === "connected" && (now.selectedCandidatePairChanges ?? 0) > (before.selectedCandidatePairChanges ?? 0);
  }, 30_000, 200);
  const packets = () => ingest.whip!.sessions().find((s) => s.name === name)!.packets.video;
  const at = packets();
  await waitFor(async () => packets() > at + 30, 30_000, 100);
  assert.ok(ingest.isPublishing(name), "the publish went on through the restart");

  // the old ETag names an ICE session that is gone; the new one is taken
  const patch = (etag: string) => fetch(`http://127.0.0.1:${ingest.httpPort}${res.location}`, { method: "PATCH", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/trickle-ice-sdpfrag", "if-match": etag }, body: `a=ice-ufrag:${r.localUfrag}\r\na=end-of-candidates\r\n` }).then((x) => x.status);
  assert.equal(await patch(res.etag!), 412);
  assert.equal(await patch(r.etag!), 204);
  const del = await fetch(`http://127.0.0.1:${ingest.httpPort}${res.location}`, { method: "DELETE", headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(del.status, 200);
});
