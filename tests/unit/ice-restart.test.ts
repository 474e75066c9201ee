// ICE restart of a WHIP session (RFC 9725 §4.4): the session's offer replayed with the publisher's new credentials
// and candidates, and our answer's new credentials and candidates as the 200's fragment.
import assert from "node:assert/strict";
import { test } from "node:test";
import { answerFrag, restartOffer } from "../../server/ingest/webrtc/ice-restart";
import { parseSdpFrag } from "../../server/ingest/webrtc/trickle";

const OFFER = [
  "v=0",
  "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
  "s=-",
  "t=0 0",
  "a=group:BUNDLE 0 1",
  "m=video 9 UDP/TLS/RTP/SAVPF 96",
  "c=IN IP4 0.0.0.0",
  "a=ice-ufrag:oldU",
  "a=ice-pwd:oldpasswordoldpassword1",
  "a=mid:0",
  "a=candidate:1 1 udp 2122260223 192.0.2.1 50000 typ host",
  "a=end-of-candidates",
  "a=rtpmap:96 VP8/90000",
  "m=audio 9 UDP/TLS/RTP/SAVPF 111",
  "a=ice-ufrag:oldU",
  "a=ice-pwd:oldpasswordoldpassword1",
  "a=mid:1",
  "a=candidate:1 1 udp 2122260223 192.0.2.1 50000 typ host",
  "a=rtpmap:111 opus/48000/2",
  "",
].join("\r\n");

test("restartOffer: new credentials in every section, old candidates gone, the fragment's under their mid (else the first), version raised", () => {
  const frag = parseSdpFrag("a=ice-ufrag:newU\r\na=ice-pwd:newpasswordnewpassword2\r\nm=audio 9 UDP/TLS/RTP/SAVPF 0\r\na=mid:1\r\na=candidate:2 1 udp 2122260223 198.51.100.7 40000 typ host\r\na=end-of-candidates\r\n");
  const out = restartOffer(OFFER, { ...frag, ufrag: frag.ufrag!, pwd: frag.pwd! });
  assert.doesNotMatch(out, /oldU|oldpassword|192\.0\.2\.1/);
  assert.equal(out.match(/a=ice-ufrag:newU/g)?.length, 2);
  assert.equal(out.match(/a=ice-pwd:newpasswordnewpassword2/g)?.length, 2);
  assert.match(out, /^o=- 4611731400430051336 3 IN IP4/m);
  const audio = out.slice(out.indexOf("m=audio"));
  assert.match(audio, /a=candidate:2 1 udp 2122260223 198\.51\.100\.7 40000 typ host\r\na=end-of-candidates/);
  assert.doesNotMatch(out.slice(0, out.indexOf("m=audio")), /a=candidate:/, "a candidate naming mid 1 is not put under mid 0");

  const noMid = parseSdpFrag("a=ice-ufrag:newU\r\na=ice-pwd:newpasswordnewpassword2\r\na=candidate:3 1 udp 1 198.51.100.8 40001 typ host\r\n");
  const out2 = restartOffer(OFFER, { ...noMid, ufrag: "newU", pwd: "newpasswordnewpassword2" });
  const video = out2.slice(out2.indexOf("m=video"), out2.indexOf("m=audio"));
  assert.match(video, /a=candidate:3 1 udp 1 198\.51\.100\.8 40001 typ host/, "no mid: the first (bundled) section");
  assert.equal(out2.match(/a=candidate:/g)?.length, 1);
});

test("answerFrag: the answer's credentials, first m= section and its candidates, then end-of-candidates", () => {
  const answer = OFFER.replace(/oldU/g, "ansU").replace(/oldpasswordoldpassword1/g, "answerpasswordanswerpw1");
  const { frag, candidates } = answerFrag(answer);
  assert.equal(candidates, 1);
  assert.equal(frag, "a=ice-ufrag:ansU\r\na=ice-pwd:answerpasswordanswerpw1\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:0\r\na=candidate:1 1 udp 2122260223 192.0.2.1 50000 typ host\r\na=end-of-candidates\r\n");
  const parsed = parseSdpFrag(frag);
  assert.deepEqual([parsed.ufrag, parsed.pwd, parsed.candidates.length, parsed.end], ["ansU", "answerpasswordanswerpw1", 1, true]);
});
