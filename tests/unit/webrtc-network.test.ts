// WEBRTC_* settings (server/ingest/webrtc/network.ts): STUN/TURN, UDP ports, relay-only, and the WHIP Link headers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { iceServerLinks, parseWebrtcNetwork } from "../../server/ingest/webrtc/network";
import { newPeer } from "../../server/ingest/webrtc/peer";

test("unset: no ICE server at all (not werift's default Google STUN), any port, relay allowed but not forced", async () => {
  const n = parseWebrtcNetwork({});
  assert.deepEqual(n, { iceServers: [], udpPorts: null, relayOnly: false });
  const pc = newPeer(n);
  try {
    assert.deepEqual(pc.config.iceServers, []);
    assert.equal(pc.config.iceTransportPolicy, "all");
  } finally {
    await pc.close();
  }
});

test("servers, credentials for turn: only, ports, relay-only; bad values name their variable", () => {
  const n = parseWebrtcNetwork({ WEBRTC_ICE_SERVERS: "stun:stun.example.net:3478, turn:10.0.0.5:3478?transport=udp,turns:turn.example.net", WEBRTC_TURN_USERNAME: "u", WEBRTC_TURN_CREDENTIAL: 'p"w', WEBRTC_UDP_PORTS: "40000-40100", WEBRTC_RELAY_ONLY: "1" });
  assert.deepEqual(n.iceServers, [{ urls: "stun:stun.example.net:3478" }, { urls: "turn:10.0.0.5:3478?transport=udp", username: "u", credential: 'p"w' }, { urls: "turns:turn.example.net", username: "u", credential: 'p"w' }]);
  assert.deepEqual(n.udpPorts, [40000, 40100]);
  assert.equal(n.relayOnly, true);
  assert.deepEqual(iceServerLinks(n), ['<stun:stun.example.net:3478>; rel="ice-server"', '<turn:10.0.0.5:3478?transport=udp>; rel="ice-server"; username="u"; credential="p\\"w"; credential-type="password"', '<turns:turn.example.net>; rel="ice-server"; username="u"; credential="p\\"w"; credential-type="password"']);
  assert.throws(() => parseWebrtcNetwork({ WEBRTC_ICE_SERVERS: "http://stun.example.net" }), /WEBRTC_ICE_SERVERS: must be stun:/);
  assert.throws(() => parseWebrtcNetwork({ WEBRTC_UDP_PORTS: "40000" }), /WEBRTC_UDP_PORTS: must be min-max/);
  assert.throws(() => parseWebrtcNetwork({ WEBRTC_UDP_PORTS: "500-600" }), /WEBRTC_UDP_PORTS: must be 1024/);
  assert.throws(() => parseWebrtcNetwork({ WEBRTC_RELAY_ONLY: "1", WEBRTC_ICE_SERVERS: "stun:s.example.net" }), /needs a turn:/);
});
