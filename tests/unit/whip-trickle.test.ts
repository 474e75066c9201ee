// RFC 8840 SDP fragments as WHIP PATCH bodies carry them (server/ingest/webrtc/trickle.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSdpFrag } from "../../server/ingest/webrtc/trickle";

test("an SDP fragment: ufrag/pwd, candidates under their m= section's mid, end-of-candidates", () => {
  const frag = parseSdpFrag(
    "a=ice-ufrag:EsAw\r\na=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1\r\na=group:BUNDLE 0 1\r\n" +
      "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:0\r\na=candidate:1387637174 1 udp 2122260223 192.0.2.1 61764 typ host generation 0\r\n" +
      "a=candidate:3471623853 1 udp 2122194687 198.51.100.2 61765 typ host generation 0\r\n" +
      "m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:1\r\na=candidate:1 1 udp 1 203.0.113.3 9 typ host\r\na=end-of-candidates\r\n",
  );
  assert.equal(frag.ufrag, "EsAw");
  assert.equal(frag.pwd, "P2uYro0UCOQ4zxjKXaWCBui1");
  assert.deepEqual(frag.candidates.map((c) => c.mid), ["0", "0", "1"]);
  assert.match(frag.candidates[0].candidate, /^candidate:1387637174 1 udp .* 192\.0\.2\.1 61764 typ host/);
  assert.equal(frag.end, true);
});

test("a bare end-of-candidates, LF line ends, no mid", () => {
  assert.deepEqual(parseSdpFrag("a=end-of-candidates\n"), { candidates: [], end: true });
  assert.deepEqual(parseSdpFrag("a=candidate:1 1 udp 1 192.0.2.9 5000 typ host\n").candidates, [{ candidate: "candidate:1 1 udp 1 192.0.2.9 5000 typ host", mid: undefined }]);
});
