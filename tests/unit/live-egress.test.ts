import { test } from "node:test";
import assert from "node:assert/strict";
import { buildLiveArgs } from "../../server/ingest/live-args";
import { GATEWAY_PROTOCOLS, guardLiveInput, LIVE_FORMATS, rtmpTcUrl, withAddress } from "../../server/ingest/live-egress";
import { setResolver, UrlRefusedError } from "../../server/ingest/url-guard";
import { startEgressProxy } from "../../server/net/egress-proxy";
import { NetworkList } from "../../server/net/networks";

test("rtmpTcUrl: the tcUrl ffmpeg would send (app = first segment, or two when a playpath follows)", () => {
  assert.equal(rtmpTcUrl("rtmp://live.example.com/live/stream-key"), "rtmp://live.example.com:1935/live");
  assert.equal(rtmpTcUrl("rtmp://live.example.com:1940/app/instance/key"), "rtmp://live.example.com:1940/app/instance");
  assert.equal(rtmpTcUrl("rtmp://h/vod/mp4:dir/file.mp4"), "rtmp://h:1935/vod");
  assert.equal(rtmpTcUrl("rtmp://h/live/key?token=abc"), "rtmp://h:1935/live");
  assert.equal(rtmpTcUrl("rtmp://h/ondemand/a/b"), "rtmp://h:1935/ondemand");
  assert.equal(rtmpTcUrl("rtmp://h/onlykey"), "rtmp://h:1935/");
});

test("withAddress puts the checked address literal in the URL (IPv6 bracketed), path and query kept", () => {
  assert.equal(withAddress("rtmp://live.example.com:1935/live/key?t=1", "93.184.216.34"), "rtmp://93.184.216.34:1935/live/key?t=1");
  assert.equal(withAddress("rtmp://live.example.com/live/key", "2606:2800:220:1::1"), "rtmp://[2606:2800:220:1::1]/live/key");
});

test("buildLiveArgs puts the guard's input options right before -i", () => {
  const { args } = buildLiveArgs({ url: "http://h/x.m3u8", inputArgs: ["-http_proxy", "http://127.0.0.1:9"], frameIntervalSec: 2, audio: false, maxWidth: 640, ioTimeoutMs: 5000 });
  const i = args.indexOf("-i");
  assert.deepEqual(args.slice(i - 2, i + 2), ["-http_proxy", "http://127.0.0.1:9", "-i", "http://h/x.m3u8"]);
});

test("buildLiveArgs bounds probing and the decoded picture size (hostile sources)", () => {
  const { args } = buildLiveArgs({ url: "rtmp://h/live/x", frameIntervalSec: 1, audio: true, maxWidth: 640, ioTimeoutMs: 5000 });
  const before = args.slice(0, args.indexOf("-i"));
  assert.equal(before[before.indexOf("-probesize") + 1], "10000000");
  assert.equal(before[before.indexOf("-max_pixels") + 1], String(7680 * 4320));
  const small = buildLiveArgs({ url: "rtmp://h/live/x", frameIntervalSec: 1, audio: false, maxWidth: 640, ioTimeoutMs: 5000, maxPixels: 640 * 360 }).args;
  assert.equal(small[small.indexOf("-max_pixels") + 1], String(640 * 360));
});

test("guardLiveInput: rtmp pinned to the checked address with tcUrl naming the host; refused and exempt cases", async () => {
  setResolver(async (host) => {
    if (host === "cdn.test") return ["93.184.216.34"];
    if (host === "dual.test") return ["2606:2800:220:1::1", "93.184.216.34"];
    if (host === "inside.test") return ["10.1.2.3"];
    throw new Error(`ENOTFOUND ${host}`);
  });
  try {
    const pinned = await guardLiveInput("rtmp://cdn.test/live/key", { allowPrivate: false });
    assert.equal(pinned.url, "rtmp://93.184.216.34/live/key");
    assert.deepEqual(pinned.inputArgs, ["-rtmp_tcurl", "rtmp://cdn.test:1935/live"]);
    assert.equal(pinned.proxy, null);
    assert.equal((await guardLiveInput("rtmp://dual.test/live/key", { allowPrivate: false })).url, "rtmp://93.184.216.34/live/key", "IPv4 preferred for the one literal");
    await assert.rejects(guardLiveInput("rtmp://inside.test/live/key", { allowPrivate: false }), UrlRefusedError);
    await assert.rejects(guardLiveInput("http://inside.test/live.flv", { allowPrivate: false }), UrlRefusedError);
    const exempt = await guardLiveInput("rtmp://inside.test/live/key", { allowPrivate: false, allowedOrigins: ["rtmp://inside.test"] });
    assert.equal(exempt.url, "rtmp://10.1.2.3/live/key", "an own origin is still pinned to what was resolved");
    const open = await guardLiveInput("http://inside.test/live.flv", { allowPrivate: true });
    assert.deepEqual([open.url, open.inputArgs, open.env, open.proxy], ["http://inside.test/live.flv", [], undefined, null], "ALLOW_PRIVATE_NETWORKS=1: ffmpeg connects by itself");
    const http = await guardLiveInput("https://cdn.test/live/index.m3u8", { allowPrivate: false });
    try {
      assert.ok(http.proxy);
      assert.deepEqual(http.inputArgs, ["-protocol_whitelist", GATEWAY_PROTOCOLS, "-format_whitelist", LIVE_FORMATS, "-http_proxy", http.proxy.url]);
      assert.ok(http.url.startsWith(`${http.proxy.url}/u/`) && http.url.endsWith("/index.m3u8"), `ffmpeg opens the gateway's URL, named as the input (${http.url})`);
      assert.deepEqual(GATEWAY_PROTOCOLS.split(",").filter((p) => ["https", "tls", "httpproxy", "file", "data", "udp"].includes(p)), [], "no protocol that could connect past the gateway");
      assert.equal(http.env?.http_proxy, http.proxy.url, "ffmpeg's TLS layer reads only the environment variable");
      assert.equal(http.env?.no_proxy, undefined);
    } finally {
      await http.close();
    }
  } finally {
    setResolver(null);
  }
});

test("the egress gateway: a target naming the gateway itself, a non-gateway path or a non-http scheme is refused with 403", async () => {
  const proxy = await startEgressProxy({ allowPrivate: false, allowNetworks: NetworkList.parse("127.0.0.1/32") });
  try {
    const loop = await fetch(proxy.localUrl(proxy.localUrl("http://127.0.0.1:9/x.m3u8")));
    assert.equal(loop.status, 403);
    assert.match(proxy.refused.join("\n"), /names the egress gateway itself/);
    assert.equal((await fetch(`${proxy.url}/refused/1/x.ts`)).status, 403);
    assert.equal((await fetch(`${proxy.url}/u/${Buffer.from("file:///etc/passwd").toString("base64url")}/passwd`)).status, 403);
    assert.match(proxy.refused.join("\n"), /protocol file: is not allowed/);
    assert.equal(proxy.originalsIn(`${proxy.localUrl("https://cdn.example/a/index.m3u8")}: Server returned 404`), "https://cdn.example/a/index.m3u8: Server returned 404");
  } finally {
    await proxy.close();
  }
});

test("the egress gateway's local URLs keep the target's file name (ffmpeg probes by extension), made safe", async () => {
  const proxy = await startEgressProxy({ allowPrivate: false });
  try {
    assert.match(proxy.localUrl("https://cdn.example/live/index.m3u8?token=1"), /\/u\/[A-Za-z0-9_-]+\/index\.m3u8$/);
    assert.match(proxy.localUrl("https://cdn.example/a/%zz%E0%A4%A.ts"), /\/u\/[A-Za-z0-9_-]+\/_zz_E0_A4_A\.ts$/, "a malformed %-sequence does not throw");
    assert.match(proxy.localUrl("https://cdn.example/"), /\/media$/);
  } finally {
    await proxy.close();
  }
});
