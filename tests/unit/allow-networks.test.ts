import { test } from "node:test";
import assert from "node:assert/strict";
import { loadConfig } from "../../server/config";
import { checkUrl, setResolver, UrlRefusedError } from "../../server/ingest/url-guard";
import { addressKey, NetworkList, parseCidr } from "../../server/net/networks";

test("parseCidr: IPv4, IPv6, a bare host, host bits masked, mapped IPv6 ranges become IPv4 ones", () => {
  assert.deepEqual(NetworkList.parse("10.1.2.3/8, 192.168.1.20 ,fd00:1::/32,::ffff:172.16.0.0/108").list(), ["10.0.0.0/8", "192.168.1.20/32", "fd00:1:0:0:0:0:0:0/32", "172.16.0.0/12"]);
  assert.equal(parseCidr("::1").bits, 128);
  assert.equal(parseCidr("0.0.0.0/0").bits, 0);
  assert.equal(NetworkList.parse("").size, 0);
  assert.equal(NetworkList.parse(undefined).size, 0);
  assert.equal(NetworkList.parse(" , ").size, 0);
});

test("parseCidr refuses what is not an address or CIDR, naming the setting and the entry", () => {
  for (const bad of ["10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/8/8", "10.0.0.0/-1", "10.0.0.0/0x8", "10.0.0", "10.0.0.256", "example.com", "[::1]/128", "fe80::1%eth0/64", "*"]) {
    assert.throws(() => NetworkList.parse(`127.0.0.1/32,${bad}`), (err: Error) => err.message.startsWith("ALLOW_NETWORKS: ") && err.message.includes(`"${bad}"`), bad);
  }
});

test("NetworkList.has: IPv4 and IPv6 ranges, bracketed and mapped addresses, exact bounds", () => {
  const list = NetworkList.parse("10.20.0.0/16,192.168.1.20/32,fd00:1::/32");
  for (const ip of ["10.20.0.0", "10.20.255.255", "192.168.1.20", "::ffff:10.20.3.4", "::ffff:a14:304", "[fd00:1::5]", "fd00:1:ffff:ffff:ffff:ffff:ffff:ffff"]) assert.equal(list.has(ip), true, ip);
  for (const ip of ["10.21.0.0", "10.19.255.255", "192.168.1.21", "::ffff:10.21.0.1", "fd00:2::5", "fd00::1", "::a14:304", "64:ff9b::a14:304", "not-an-ip", ""]) assert.equal(list.has(ip), false, ip);
  const mapped = NetworkList.parse("::ffff:127.0.0.0/104");
  assert.equal(mapped.has("127.9.9.9"), true, "a mapped range matches the plain IPv4 address");
  assert.equal(mapped.has("::ffff:127.0.0.1"), true);
  assert.equal(mapped.has("::1"), false);
  assert.deepEqual(addressKey("::ffff:1.2.3.4"), addressKey("1.2.3.4"));
});

test("checkUrl with allowNetworks: a private address inside is allowed, every other private address stays refused", async () => {
  setResolver(async (host) => {
    if (host === "origin.internal") return ["10.20.0.7"];
    if (host === "mixed.internal") return ["10.20.0.7", "10.99.0.1"];
    if (host === "localhost") return ["127.0.0.1", "::1"];
    throw new Error(`ENOTFOUND ${host}`);
  });
  try {
    const allowNetworks = NetworkList.parse("10.20.0.0/16,127.0.0.1/32");
    const o = { protocols: ["http", "https"], allowPrivate: false, allowNetworks };
    assert.deepEqual((await checkUrl("http://origin.internal/live.m3u8", o)).addresses, ["10.20.0.7"]);
    assert.ok(await checkUrl("http://127.0.0.1:8080/x", o));
    assert.ok(await checkUrl("http://[::ffff:10.20.1.1]/x", o), "a mapped literal counts as its IPv4 address");
    const refusal = async (url: string) => (await checkUrl(url, o).catch((e: unknown) => e)) as UrlRefusedError;
    assert.match((await refusal("http://mixed.internal/x")).message, /private address \(10\.99\.0\.1\)/, "every resolved address must be allowed");
    assert.match((await refusal("http://localhost/x")).message, /private address \(::1\)/, "a local name: each of its addresses decides");
    for (const url of ["http://127.0.0.2/x", "http://169.254.169.254/latest", "http://[::1]/x", "http://192.168.0.1/"]) assert.equal((await refusal(url)).reason, "private-address", url);
    assert.equal((await refusal("file:///etc/passwd")).reason, "protocol", "networks never widen protocols");
    assert.equal((await checkUrl("http://localhost/x", { protocols: ["http"], allowPrivate: false }).catch((e: UrlRefusedError) => e.message)), "localhost is a local name");
  } finally {
    setResolver(null);
  }
});

test("ALLOW_NETWORKS in the configuration: parsed at start, a bad entry stops the start with a clear error", () => {
  assert.deepEqual(loadConfig({ NODE_ENV: "test", ALLOW_NETWORKS: "10.0.0.5/32, fd00::/8" }).allowNetworks.list(), ["10.0.0.5/32", "fd00:0:0:0:0:0:0:0/8"]);
  assert.equal(loadConfig({ NODE_ENV: "test" }).allowNetworks.size, 0);
  assert.throws(() => loadConfig({ NODE_ENV: "test", ALLOW_NETWORKS: "10.0.0.0/8,intranet" }), /ALLOW_NETWORKS: "intranet" is not an IPv4\/IPv6 address or CIDR/);
});
