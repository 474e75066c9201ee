import { test } from "node:test";
import assert from "node:assert/strict";
import { looksLikePlaylist, rewritePlaylist } from "../../server/net/hls-rewrite";

const base = new URL("https://cdn.example/live/sub/index.m3u8");
const seen: string[] = [];
const map = (uri: string, b: URL) => {
  const abs = new URL(uri, b).href;
  seen.push(abs);
  return `L(${abs})`;
};

test("every URI line is replaced, resolved against the playlist's own URL; tags and blank lines stay", () => {
  seen.length = 0;
  const text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n\n#EXTINF:2,\nseg-1.ts\n#EXTINF:2,\n/root/seg-2.ts\n#EXTINF:2,\n  httpproxy://127.0.0.1:9/x.ts  \n#EXTINF:2,\n//10.0.0.1/y.ts\n#EXT-X-ENDLIST\n";
  assert.equal(
    rewritePlaylist(text, base, map),
    "#EXTM3U\n#EXT-X-TARGETDURATION:2\n\n#EXTINF:2,\nL(https://cdn.example/live/sub/seg-1.ts)\n#EXTINF:2,\nL(https://cdn.example/root/seg-2.ts)\n#EXTINF:2,\nL(httpproxy://127.0.0.1:9/x.ts)\n#EXTINF:2,\nL(https://10.0.0.1/y.ts)\n#EXT-X-ENDLIST\n",
  );
});

test("URI attributes of any tag are replaced, quoted or not; other attributes, even ones holding URI= in quotes, are kept", () => {
  seen.length = 0;
  const out = rewritePlaylist(
    [
      '#EXT-X-KEY:METHOD=AES-128,URI="tcp://10.0.0.2:22/k",IV=0x1',
      "#EXT-X-MAP:URI=init.mp4,BYTERANGE=100@0",
      '#EXT-X-MEDIA:TYPE=AUDIO,NAME="a,URI=\\"http://10.9.9.9/\\"",URI="a/b.m3u8"',
      "#EXT-X-PRELOAD-HINT:TYPE=PART uri=p.ts",
    ].join("\n"),
    base,
    map,
  );
  assert.deepEqual(out.split("\n"), [
    '#EXT-X-KEY:METHOD=AES-128,URI="L(tcp://10.0.0.2:22/k)",IV=0x1',
    '#EXT-X-MAP:URI="L(https://cdn.example/live/sub/init.mp4)",BYTERANGE=100@0',
    '#EXT-X-MEDIA:TYPE=AUDIO,NAME="a,URI=\\"http://10.9.9.9/\\"",URI="L(https://cdn.example/live/sub/a/b.m3u8)"',
    '#EXT-X-PRELOAD-HINT:TYPE=PART uri="L(https://cdn.example/live/sub/p.ts)"',
  ]);
  assert.ok(!seen.includes("http://10.9.9.9/"), "a URI= inside another attribute's quoted value is not a URI (as ffmpeg reads it)");
});

test("lines split as ffmpeg splits them (CR, CR LF, NUL): no URI hides behind a tag on the same physical line", () => {
  seen.length = 0;
  const out = rewritePlaylist("#EXTM3U\r\n#EXTINF:2,\rhttpproxy://10.0.0.3:80/a.ts\r\n#EXT-X-DISCONTINUITY\0tcp://10.0.0.4/b.ts\n", base, map);
  assert.deepEqual(out.split("\n"), ["#EXTM3U", "#EXTINF:2,", "L(httpproxy://10.0.0.3:80/a.ts)", "#EXT-X-DISCONTINUITY", "L(tcp://10.0.0.4/b.ts)", ""]);
  assert.deepEqual(seen, ["httpproxy://10.0.0.3:80/a.ts", "tcp://10.0.0.4/b.ts"]);
});

test("looksLikePlaylist: by its first bytes (BOM and leading space allowed) or an mpegurl type, whatever the name", () => {
  assert.equal(looksLikePlaylist(Buffer.from("#EXTM3U\n#EXTINF"), "video/mp2t"), true);
  assert.equal(looksLikePlaylist(Buffer.from("\ufeff  #extm3u\n"), undefined), true);
  assert.equal(looksLikePlaylist(Buffer.from("FLV\x01\x05"), "application/vnd.apple.mpegurl"), true);
  assert.equal(looksLikePlaylist(Buffer.from("FLV\x01\x05\x00\x00\x00\x09"), "video/x-flv"), false);
  assert.equal(looksLikePlaylist(Buffer.from(""), undefined), false);
});
