// WebRTC across NAT (WEBRTC_* settings, server/ingest/webrtc/network.ts) against a real TURN/STUN server (Debian
// coturn on loopback): a relay-only WHEP pull reaches chromium through the TURN relay (and gets nowhere with a wrong
// credential); the WHIP ingest binds its ICE ports in WEBRTC_UDP_PORTS and hands its ICE servers to the publisher.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startRtmpServer } from "../../server/demo/rtmp-server";
import type { WebrtcNetwork } from "../../server/ingest/webrtc/network";
import { openWhepPull } from "../../server/ingest/webrtc/whep-source";
import { waitFor } from "../support/net";
import { startWebrtcBrowser, type WebrtcBrowser } from "../support/webrtc-browser";

const freePort = async () => {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};

let browser: WebrtcBrowser;
let turn: ChildProcess;
let turnPort: number;
const turnLog: string[] = [];
before(async () => {
  turnPort = await freePort();
  turn = spawn("turnserver", ["-n", "-v", "--listening-ip=127.0.0.1", "--relay-ip=127.0.0.1", `--listening-port=${turnPort}`, "--lt-cred-mech", "--user=mod:turn-secret", "--realm=test", "--allow-loopback-peers", "--no-tls", "--no-dtls", "--no-cli", "--simple-log", "--log-file=stdout", "--min-port=49200", "--max-port=49400"], { stdio: ["ignore", "pipe", "pipe"] });
  turn.stdout!.on("data", (c: Buffer) => turnLog.push(...c.toString().split("\n")));
  turn.stderr!.on("data", (c: Buffer) => turnLog.push(...c.toString().split("\n")));
  browser = await startWebrtcBrowser();
  await waitFor(async () => turnLog.some((l) => /listener opened on|Total General servers/i.test(l)), 15_000);
});
after(async () => {
  await browser?.close();
  turn?.kill("SIGKILL");
});

const relay = (credential: string): WebrtcNetwork => ({ iceServers: [{ urls: `turn:127.0.0.1:${turnPort}?transport=udp`, username: "mod", credential }], udpPorts: null, relayOnly: true });

test("WEBRTC_RELAY_ONLY: a WHEP pull through coturn's relay delivers frames; with a wrong TURN credential it never connects (3001)", async () => {
  const whep = await browser.serveWhep();
  const dir = await mkdtemp(path.join(os.tmpdir(), "whep-turn-"));
  try {
    let frames = 0;
    const pull = openWhepPull(whep.url, { allowPrivate: true }, { frameIntervalSec: 1, audio: false, outDir: dir, ioTimeoutMs: 15_000, onFrame: () => void frames++, onSegment: () => undefined }, { network: relay("turn-secret") });
    await waitFor(async () => frames >= 2, 90_000, 200);
    await pull.stop();
    assert.ok(turnLog.some((l) => /ALLOCATE/.test(l) && /success/i.test(l)), turnLog.filter((l) => /session|ALLOC|PERM|CHANNEL/i.test(l)).slice(0, 30).join("\n"));
    assert.ok(turnLog.some((l) => /(CREATE_PERMISSION|CHANNEL_BIND)/.test(l) && /success/i.test(l)), "and the media went through it");

    const bad = await openWhepPull(whep.url, { allowPrivate: true }, { frameIntervalSec: 1, audio: false, outDir: dir, ioTimeoutMs: 8000, onFrame: () => undefined, onSegment: () => undefined }, { network: relay("wrong-secret") }).done;
    assert.ok(bad.reason === "failed" && bad.errorCode === 3001, JSON.stringify(bad));
  } finally {
    await whep.stopAll();
    await whep.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("WHIP with WEBRTC_UDP_PORTS and WEBRTC_ICE_SERVERS: the answer's candidates use ports in the range, and the publisher is handed the servers as Link: rel=ice-server", async () => {
  const ingest = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1", whip: true, webrtc: { iceServers: [{ urls: `stun:127.0.0.1:${turnPort}` }, { urls: `turn:127.0.0.1:${turnPort}`, username: "mod", credential: "turn-secret" }], udpPorts: [47100, 47199], relayOnly: false } });
  try {
    const res = await browser.publish(`http://127.0.0.1:${ingest.httpPort}/whip/ported`);
    assert.equal(res.status, 201, JSON.stringify(res));
    const ports = [...res.answer!.matchAll(/^a=candidate:\S+ \d+ udp \d+ \S+ (\d+) typ host/gm)].map((m) => Number(m[1]));
    assert.ok(ports.length > 0 && ports.every((p) => p >= 47100 && p <= 47199), JSON.stringify(ports));
    assert.match(res.link ?? "", new RegExp(`<stun:127\\.0\\.0\\.1:${turnPort}>; rel="ice-server"`));
    assert.match(res.link ?? "", /<turn:127\.0\.0\.1:\d+>; rel="ice-server"; username="mod"; credential="turn-secret"; credential-type="password"/);
    await browser.waitForState("connected");
    await waitFor(async () => ingest.isPublishing("ported"), 90_000, 100);
  } finally {
    await browser.page.evaluate(() => (window as unknown as { pc?: RTCPeerConnection }).pc?.close());
    await ingest.close();
  }
});
