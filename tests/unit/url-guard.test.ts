import { test } from "node:test";
import assert from "node:assert/strict";
import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { UrlRefusedError, checkUrl, isPrivateAddress, setResolver } from "../../server/ingest/url-guard";

const HTTP = { protocols: ["http", "https"], allowPrivate: false };

const PRIVATE = [
  "127.0.0.1", "127.255.255.254", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255", "192.168.0.1", "192.168.255.255",
  "169.254.169.254", "169.254.0.1", "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250",
  "255.255.255.255", "240.0.0.1", "192.0.2.10", "198.18.0.1", "198.51.100.7", "203.0.113.9", "192.0.0.170",
  "::1", "::", "0:0:0:0:0:0:0:1", "fc00::1", "fd12:3456:789a::1", "fe80::1", "fe80::1%eth0", "febf:ffff::1", "fec0::1", "ff02::1",
  "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "::127.0.0.1",
  "64:ff9b::10.0.0.1", "64:ff9b::a00:1", "64:ff9b:1::8.8.8.8", "2002:7f00:1::1", "2002:c0a8:0101::1", "2002:a9fe:a9fe::",
  "2001:0:4136:e378:8000:63bf:3fff:fdd2" /* Teredo, client 192.0.2.45 */, "2001:db8::1", "100::1", "[::1]",
];
const PUBLIC = [
  "8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0", "192.169.0.1", "169.253.255.255",
  "11.0.0.1", "223.255.255.255", "2606:4700:4700::1111", "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::808:808",
  "2002:0808:0808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7" /* Teredo, client 8.8.8.8 */,
];

test("isPrivateAddress: loopback, RFC1918, link-local, CGNAT, multicast, reserved and their IPv6 forms", () => {
  for (const ip of PRIVATE) assert.equal(isPrivateAddress(ip), true, `${ip} should be private`);
});

test("isPrivateAddress: public addresses, including the edges next to private ranges", () => {
  for (const ip of PUBLIC) assert.equal(isPrivateAddress(ip), false, `${ip} should be public`);
});

test("isPrivateAddress: text that is not an address fails closed", () => {
  for (const junk of ["", "localhost", "1.2.3", "1.2.3.256", "::g", "example.com"]) assert.equal(isPrivateAddress(junk), true, junk);
});

async function refusal(raw: string, opts = HTTP): Promise<string> {
  const err = await checkUrl(raw, opts).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof UrlRefusedError, `${raw} should be refused, got ${String(err)}`);
  return err.reason;
}

test("checkUrl refuses private hosts in every spelling", async () => {
  for (const raw of ["http://127.0.0.1/a.mp4", "http://localhost:8080/", "http://LOCALHOST./", "http://foo.localhost/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/", "https://169.254.169.254/latest/meta-data/", "http://10.0.0.8:9000/x", "http://[fe80::1]/"]) {
    assert.equal(await refusal(raw), "private-address", raw);
  }
});

test("checkUrl refuses a name that resolves to a loopback address", async () => {
  const name = hostname();
  const addresses = (await lookup(name, { all: true })).map((a) => a.address);
  assert.ok(addresses.some(isPrivateAddress), `precondition: ${name} resolves to a private address here (${addresses.join(", ")})`);
  assert.equal(await refusal(`http://${name}/v.mp4`), "private-address");
});

test("checkUrl refuses other protocols, malformed input and names that do not resolve", async () => {
  for (const raw of ["file:///etc/passwd", "ftp://example.com/a.mp4", "concat:/etc/passwd|/etc/hosts", "data:video/mp4;base64,AAAA", "gopher://127.0.0.1:70/", "rtmp://example.com/live/x"]) {
    assert.equal(await refusal(raw), "protocol", raw);
  }
  for (const raw of ["not a url", "http://", "//example.com/a.mp4", ""]) assert.equal(await refusal(raw), "malformed", JSON.stringify(raw));
  assert.equal(await refusal("http://does-not-exist.invalid/a.mp4"), "unresolvable");
});

test("checkUrl accepts listed protocols with or without colon, and rtmp when asked", async () => {
  const { url, addresses } = await checkUrl("rtmp://8.8.8.8/live/key", { protocols: ["rtmp:"], allowPrivate: false });
  assert.equal(url.protocol, "rtmp:");
  assert.deepEqual(addresses, ["8.8.8.8"]);
  const v6 = await checkUrl("https://[2606:4700:4700::1111]/x", HTTP);
  assert.deepEqual(v6.addresses, ["2606:4700:4700::1111"]);
});

test("allowPrivate and allowedOrigins lift the private check, and only for the exact origin", async () => {
  const ok = await checkUrl("http://localhost:3000/cb", { ...HTTP, allowPrivate: true });
  assert.ok(ok.addresses.includes("127.0.0.1"));
  const own = { ...HTTP, allowedOrigins: ["http://127.0.0.1:3000"] };
  assert.deepEqual((await checkUrl("http://127.0.0.1:3000/api/receiver/x", own)).addresses, ["127.0.0.1"]);
  assert.equal(await refusal("http://127.0.0.1:3001/", own), "private-address", "another port is another origin");
  assert.equal(await refusal("https://127.0.0.1:3000/", own), "private-address", "another scheme is another origin");
  assert.equal(await refusal("file:///etc/passwd", { ...own, allowPrivate: true }), "protocol", "allowPrivate never widens protocols");
});

test("isPrivateAddress: one case per refused form (issue #5 list), each next to a public twin", () => {
  const cases: Array<[string, string, string]> = [
    ["loopback v4", "127.0.0.1", "128.0.0.1"],
    ["RFC1918 10/8", "10.1.2.3", "11.1.2.3"],
    ["RFC1918 172.16/12", "172.20.0.1", "172.32.0.1"],
    ["RFC1918 192.168/16", "192.168.1.1", "192.169.1.1"],
    ["link-local / cloud metadata", "169.254.169.254", "169.255.169.254"],
    ["CGNAT 100.64/10", "100.64.0.1", "100.128.0.1"],
    ["multicast 224/4", "239.1.1.1", "223.1.1.1"],
    ["broadcast", "255.255.255.255", "223.255.255.255"],
    ["this network 0/8", "0.0.0.1", "1.0.0.1"],
    ["IPv6 loopback", "::1", "2606:4700::1"],
    ["IPv6 unspecified", "::", "2606:4700::"],
    ["IPv6 ULA fc00::/7", "fd00::1", "fe00::1"],
    ["IPv6 link-local fe80::/10", "fe80::abcd", "2600::abcd"],
    ["IPv6 multicast ff00::/8", "ff05::2", "2605::2"],
    ["IPv4-mapped ::ffff:a.b.c.d", "::ffff:10.0.0.1", "::ffff:8.8.8.8"],
    ["IPv4-mapped, hex groups", "::ffff:a9fe:a9fe", "::ffff:808:808"],
    ["IPv4-mapped, expanded", "0:0:0:0:0:ffff:7f00:1", "0:0:0:0:0:ffff:808:808"],
    ["SIIT ::ffff:0:a.b.c.d", "::ffff:0:127.0.0.1", "::ffff:0:8.8.8.8"],
    ["IPv4-compatible ::a.b.c.d", "::192.168.0.1", "2001:4860::192.168.0.1"],
    ["NAT64 64:ff9b::/96", "64:ff9b::169.254.169.254", "64:ff9b::1.1.1.1"],
    ["6to4 2002::/16 embedding private v4", "2002:c0a8:101::1", "2002:101:101::1"],
    ["Teredo embedding private client", "2001:0:4136:e378:8000:63bf:f5ff:fffe" /* client 10.0.0.1 */, "2001:0:4136:e378:8000:63bf:f7f7:f7f7"],
    ["documentation 3fff::/20", "3fff::1", "4000::1"],
  ];
  for (const [name, bad, good] of cases) {
    assert.equal(isPrivateAddress(bad), true, `${name}: ${bad} must be refused`);
    assert.equal(isPrivateAddress(good), false, `${name}: ${good} is public`);
  }
});

test("checkUrl uses an injected resolver and refuses when any resolved address is private", async () => {
  const calls: string[] = [];
  setResolver(async (host) => {
    calls.push(host);
    if (host === "mixed.test") return ["93.184.216.34", "127.0.0.1"];
    if (host === "public.test") return ["93.184.216.34", "2606:2800:220:1::1"];
    if (host === "mapped.test") return ["::ffff:169.254.169.254"];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  });
  try {
    assert.equal(await refusal("http://mixed.test/a.mp4"), "private-address", "a public address first does not hide a private second one");
    assert.equal(await refusal("http://mapped.test/"), "private-address");
    assert.equal(await refusal("http://nowhere.test/"), "unresolvable");
    const ok = await checkUrl("https://public.test/x", HTTP);
    assert.deepEqual(ok.addresses, ["93.184.216.34", "2606:2800:220:1::1"], "every address is returned for pinning");
    assert.deepEqual(calls, ["mixed.test", "mapped.test", "nowhere.test", "public.test"], "one resolution per check");
    const own = await checkUrl("rtmp://mixed.test:1935/live/k", { protocols: ["rtmp"], allowPrivate: false, allowedOrigins: ["rtmp://mixed.test:1935"] });
    assert.deepEqual(own.addresses, ["93.184.216.34", "127.0.0.1"], "rtmp origins (URL.origin is 'null') can be listed too");
  } finally {
    setResolver(null);
  }
});

test("a private-address refusal names the variable that allows it (docs/security.md: local media needs ALLOW_PRIVATE_NETWORKS=1)", async () => {
  const { requireAllowed } = await import("../../server/task/url-policy");
  await assert.rejects(requireAllowed("data.url", () => Promise.reject(new UrlRefusedError("private-address", "127.0.0.1 is a private address"))), /data\.url refused \(private-address\).*ALLOW_PRIVATE_NETWORKS=1/);
  await assert.rejects(requireAllowed("data.url", () => Promise.reject(new UrlRefusedError("protocol", "file: is not allowed"))), (err: Error) => !/ALLOW_PRIVATE_NETWORKS/.test(err.message));
});
