// Issue 25.5 and 25.10 on a real service: a Host header that is not exactly host[:port] is refused before it can
// become the media base URL of a public API task (with `evil.example\x` the dashboard's text rewrite missed and the
// task's frames pointed off-origin); an API task's frames reach the dashboard as same-origin links whatever name
// the client used; /media answers carry nosniff and a restrictive CSP; GET /capabilities/v4 tells a stranger
// whether the face gallery and hash bank are empty, never how many entries they hold (the dashboard still does).
import assert from "node:assert/strict";
import net from "node:net";
import path from "node:path";
import { after, before, test } from "node:test";
import sharp from "sharp";
import { getRegistry } from "../../server/registry";
import { startTestService, TEST_KEY } from "../support/app";
import { makeVideo, startStaticServer } from "../support/media";
import { waitFor } from "../support/net";

let svc: Awaited<ReturnType<typeof startTestService>>;
let web: { url: string; close(): Promise<void> };
let video: string;

before(async () => {
  svc = await startTestService();
  video = await makeVideo({ name: "host-header-qr", durationSec: 3, audio: "none", background: "gray", qr: { text: "https://host-header.example/qr", fromSec: 0, toSec: 3 } });
  web = await startStaticServer(path.dirname(video));
});
after(async () => {
  await web?.close();
  await svc?.close();
});

/** One raw HTTP/1.1 exchange with exactly this Host header (clients would refuse or rewrite some of them). */
function raw(host: string, method: string, target: string, body?: string): Promise<{ status: number; text: string }> {
  const port = Number(new URL(svc.url).port);
  const head = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, "Connection: close", ...(body === undefined ? [] : ["Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`])];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // written, not half-closed: Node's server answers a client that already sent FIN only if it answers at once
    // (it ends the socket on FIN); real clients keep their side open and "Connection: close" ends the exchange
    const s = net.connect(port, "127.0.0.1", () => s.write(`${head.join("\r\n")}\r\n\r\n${body ?? ""}`));
    s.on("data", (c: Buffer) => chunks.push(c));
    s.on("error", reject);
    s.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
  });
}

const fileRequest = (btId: string) => JSON.stringify({ accessKey: TEST_KEY, appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId, url: `${web.url}/${path.basename(video)}`, detectFrequency: 1 } });
const streamRequest = () => JSON.stringify({ accessKey: TEST_KEY, appId: "default", eventId: "live", imgType: "QRCODE", audioType: "NONE", imgCallback: "http://127.0.0.1:9/cb", data: { streamType: "NORMAL", url: "rtmp://127.0.0.1:9/live/x", tokenId: "u", detectFrequency: 1 } });

test("a malformed Host is refused (400) before any task is made from it, on every path", async () => {
  const hosts = ["evil.example\\x", "evil.example/x", "evil.example\\", "user@evil.example", "evil.example:99999", "evil.example:80:81", "1.2.3", "[::1", "evil example", "evil.example#x"];
  for (const host of hosts) {
    for (const [method, target, body] of [["POST", "/video/v4", fileRequest(`bad-host-${hosts.indexOf(host)}`)], ["POST", "/videostream/v4", streamRequest()], ["GET", "/openapi.json"], ["GET", "/media/x/v1.jpg?exp=1&sig=x"], ["GET", "/capabilities/v4"]] as const) {
      const res = await raw(host, method, target, body);
      assert.equal(res.status, 400, `${JSON.stringify(host)} ${method} ${target}: ${res.status} ${res.text.slice(0, 200)}`);
      assert.match(res.text, /malformed Host header/);
    }
  }
  assert.equal((await raw(`127.0.0.1:${new URL(svc.url).port}`, "GET", "/capabilities/v4")).status, 200, "a plain host:port is served");
  assert.equal((await raw("[::1]:8080", "GET", "/capabilities/v4")).status, 200, "a bracketed IPv6 host is served");
});

test("an API file submitted under another host name: its frames reach the dashboard same-origin, and /media answers nosniff with a restrictive CSP", async () => {
  const ack = JSON.parse((await raw("Other-Name.example:8080", "POST", "/video/v4", fileRequest("host-file-1"))).text) as { code: number; requestId: string };
  assert.equal(ack.code, 1100, JSON.stringify(ack));
  const { dashboard } = getRegistry();
  await waitFor(async () => (await dashboard.listFiles()).find((f) => f.requestId === ack.requestId && f.status === "done"), 60_000, 250);
  const result = await dashboard.fileResult(ack.requestId);
  const frames = result.frameDetail as Array<{ imgUrl: string }>;
  assert.ok(frames.length > 0, JSON.stringify(result).slice(0, 400));
  for (const f of frames) assert.match(f.imgUrl, /^\/media\/[0-9a-f]{32}\/[^?]+\?exp=\d+&sig=/, f.imgUrl);
  const res = await fetch(`${svc.url}${frames[0].imgUrl}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/jpeg");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.match(res.headers.get("content-security-policy") ?? "", /^default-src 'none';.*\bsandbox\b/);
  assert.equal((await res.arrayBuffer()).byteLength > 0, true);
  // refusals too
  const refused = await fetch(`${svc.url}${frames[0].imgUrl.replace(/sig=[^&]+/, "sig=wrong")}`);
  assert.equal(refused.status, 403);
  assert.equal(refused.headers.get("x-content-type-options"), "nosniff");
  assert.match(refused.headers.get("content-security-policy") ?? "", /default-src 'none'/);
});

test("GET /capabilities/v4 says whether the bank and gallery hold entries, never how many; the dashboard's view keeps the figures", async () => {
  const img = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#7a2" } }).composite([{ input: Buffer.from(`<svg width="400" height="300"><circle cx="120" cy="150" r="90" fill="#225"/><rect x="240" y="60" width="110" height="180" fill="#fe4"/></svg>`) }]).jpeg().toBuffer();
  await svc.engine!.lists.add("images", "prohibited", "banked", { name: "banked.jpg", bytes: new Uint8Array(img) });
  const text = await (await fetch(`${svc.url}/capabilities/v4`)).text();
  const body = JSON.parse(text) as { code: number; capabilities: Array<{ type: string; group: string; supported: boolean; note: string }> };
  assert.equal(body.code, 1100);
  const violent = body.capabilities.find((c) => c.group === "imgType" && c.type === "VIOLENT")!;
  assert.equal(violent.supported, true, violent.note);
  assert.match(violent.note, /images in the bank: some/);
  const polity = body.capabilities.find((c) => c.group === "imgType" && c.type === "POLITY")!;
  assert.match(polity.note, /politicians in the gallery: none/);
  assert.doesNotMatch(text, /\d+ (images in the bank|politicians in the gallery|entries in )/, "no entry count for a stranger");
  const own = getRegistry().dashboard.capabilities().find((c) => c.group === "imgType" && c.type === "VIOLENT")!;
  assert.match(own.note ?? "", /\b1 images in the bank/, "the signed-in dashboard still sees the figure");
});
