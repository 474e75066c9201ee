import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { RateLimiter } from "../../server/service/rate-limit";
import { BodyError, readJson } from "../../server/request/body";

test("token bucket: burst, then one token per 60/perMinute s; keys are independent", () => {
  let now = 0;
  const l = new RateLimiter(60, 3, () => now); // 1 token a second, at most 3 saved
  assert.deepEqual([l.take("a"), l.take("a"), l.take("a"), l.take("a")], [true, true, true, false]);
  assert.equal(l.take("b"), true, "another key has its own bucket");
  assert.equal(l.exhausted("a"), true);
  assert.equal(l.retryAfterSec("a"), 1);
  now += 999;
  assert.equal(l.take("a"), false);
  now += 1;
  assert.equal(l.take("a"), true, "one token back after 1 s");
  now += 60_000;
  assert.deepEqual([l.take("a"), l.take("a"), l.take("a"), l.take("a")], [true, true, true, false], "refills up to the burst only");
});

test("burst defaults to the per-minute rate; 0 disables the limiter", () => {
  const l = new RateLimiter(5, 0, () => 0);
  assert.equal(Array.from({ length: 6 }, () => l.take("k")).filter(Boolean).length, 5);
  const off = new RateLimiter(0);
  assert.equal(off.enabled, false);
  assert.ok(Array.from({ length: 10_000 }, () => off.take("k")).every(Boolean));
  assert.equal(off.exhausted("k"), false);
});

test("memory stays bounded: full buckets are forgotten, the oldest keys go past maxKeys", () => {
  let now = 0;
  const l = new RateLimiter(60, 1, () => now, 100);
  for (let i = 0; i < 1000; i++) l.take(`addr-${i}`);
  assert.equal(l.size, 100);
  assert.equal(l.exhausted("addr-999"), true, "the newest keys are kept");
  now += 1000;
  for (let i = 900; i < 1000; i++) l.exhausted(`addr-${i}`);
  assert.equal(l.size, 0, "refilled buckets are dropped");
});

async function withServer(limit: number, fn: (url: URL, results: Array<unknown>) => Promise<void>) {
  const results: unknown[] = [];
  const server = http.createServer(async (req, res) => {
    const r = await readJson(req, limit).catch((e: unknown) => e);
    results.push(r);
    const body = r instanceof BodyError ? { error: r.message, tooLarge: r.tooLarge } : { ok: r };
    res.writeHead(200, { "content-type": "application/json", ...(r instanceof BodyError && r.tooLarge ? { connection: "close" } : {}) }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    await fn(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), results);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

/** Raw HTTP over a socket: what comes back before the server closes, writing `body` as fast as the socket takes it. */
function rawExchange(url: URL, head: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = "";
    socket.on("data", (d) => (answer += d.toString()));
    socket.on("error", () => undefined); // the server may close while we still write: expected
    socket.on("close", () => resolve(answer));
    socket.write(head);
    socket.write(body);
  });
}

test("readJson: parses JSON whatever the content type; empty and malformed bodies are BodyErrors", async () => {
  await withServer(1000, async (url, results) => {
    const ok = await fetch(url, { method: "POST", body: '{"a":1}', headers: { "content-type": "text/plain" } });
    assert.deepEqual(await ok.json(), { ok: { a: 1 } });
    const empty = await (await fetch(url, { method: "POST", body: "  " })).json();
    assert.match(empty.error, /empty body/);
    const bad = await (await fetch(url, { method: "POST", body: "{" })).json();
    assert.equal(bad.error, "malformed JSON");
    assert.equal(results.length, 3);
  });
});

test("readJson: a declared Content-Length over the limit is refused before reading; a streamed body stops at the limit", async () => {
  await withServer(1000, async (url, results) => {
    // 100 MB announced, 10 bytes sent: the answer comes at once, from the headers alone
    const announced = await rawExchange(url, `POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100000000\r\n\r\n`, Buffer.from("0123456789"));
    assert.match(announced, /^HTTP\/1\.1 200/);
    assert.match(announced, /"tooLarge":true/);
    assert.match(announced, /body larger than 1000 bytes/);

    // chunked, no length: 5 MB pushed; reading stops past 1000 bytes and the connection is closed after the answer
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const chunks = Buffer.concat(Array.from({ length: 80 }, () => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")])));
    const streamed = await rawExchange(url, `POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n`, chunks);
    assert.match(streamed, /"tooLarge":true/);
    assert.equal(results.filter((r) => r instanceof BodyError && r.tooLarge).length, 2);
  });
});
