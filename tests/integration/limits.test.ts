import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startTestService, TEST_KEY } from "../support/app";
import { waitFor } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const RATE_KEY = "rate-key-0002";
const QUEUE_KEY = "queue-key-0003";

/** POST over a fresh connection, optionally from another loopback address (127.0.0.2 is a different client). */
function post(base: string, p: string, body: unknown, localAddress = "127.0.0.1"): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: Json }> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${p}`, { method: "POST", localAddress, agent: false, headers: { "content-length": Buffer.byteLength(text) } }, async (res) => {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
    });
    req.on("error", reject);
    req.end(text);
  });
}

/** Raw exchange: writes `head` then `body` (as fast as the socket takes it); resolves with all that came back before close. */
function raw(base: string, head: string, body: Buffer = Buffer.alloc(0)): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let answer = "";
    socket.on("data", (d) => (answer += d.toString()));
    socket.on("error", () => undefined); // the server closes while we may still be writing: expected
    socket.on("close", () => resolve(answer));
    socket.write(head);
    if (body.length) socket.write(body);
  });
}
const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Json;

describe("limits: request rate, failed accessKeys, body size, file queue, slow clients", async () => {
  const svc = await startTestService({
    env: {
      MODERATION_ACCESS_KEYS: [TEST_KEY, RATE_KEY, QUEUE_KEY].join(","),
      RATE_LIMIT_PER_MINUTE: "6",
      AUTH_FAIL_LIMIT_PER_MINUTE: "3",
      BODY_MAX_BYTES: "4096",
      FILE_QUEUE_MAX: "2",
      FILE_CONCURRENCY: "1",
    },
  });
  let media: { url: string; close(): Promise<void> };
  let hanging: { url: string; close(): Promise<void> };
  let video: string;
  // a slow-loris client: headers never finished; opened first, checked last
  let slowLoris: Promise<string>;
  before(async () => {
    slowLoris = raw(svc.url, "POST /video/v4 HTTP/1.1\r\nhost: x\r\nx-slow: ");
    const file = await makeVideo({ name: "limits-plain", durationSec: 2, width: 320, height: 180, audio: "none" });
    media = await startStaticServer(mediaDir());
    hanging = await startStaticServer(mediaDir());
    video = `${media.url}/${file.split("/").pop()}`;
  });
  after(async () => {
    await Promise.all([media.close(), hanging.close()]);
    await svc.close();
  });

  test("RATE_LIMIT_PER_MINUTE per accessKey: past it 1901 naming the limit; other keys keep their budget", async () => {
    const query = { accessKey: RATE_KEY, btId: "none" };
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await post(svc.url, "/video/query/v4", query)).json.code);
    assert.deepEqual(codes, [1902, 1902, 1902, 1902, 1902, 1902], "within the budget: answered normally");
    const over = await post(svc.url, "/video/query/v4", query);
    assert.equal(over.status, 200);
    assert.equal(over.json.code, 1901);
    assert.match(over.json.message, /^QPS limit exceeded: more than 6 requests a minute for this accessKey; retry in \d+ s$/);
    assert.match(over.json.requestId, /^[0-9a-f]{32}$/);
    assert.ok(Number(over.headers["retry-after"]) >= 1);
    assert.equal((await post(svc.url, "/videostream/v4", { accessKey: RATE_KEY })).json.code, 1901, "every endpoint shares the key's budget");
    assert.equal((await post(svc.url, "/video/query/v4", { accessKey: TEST_KEY, btId: "none" })).json.code, 1902, "another key is not limited");
  });

  test("AUTH_FAIL_LIMIT_PER_MINUTE per client address: unknown keys get 9101, then 1901 for everything from that address", async () => {
    const bad = { accessKey: "not-a-key", btId: "x" };
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await post(svc.url, "/video/query/v4", bad, "127.0.0.2")).json.code);
    assert.deepEqual(codes, [9101, 9101, 9101]);
    const flood = await post(svc.url, "/video/query/v4", bad, "127.0.0.2");
    assert.equal(flood.json.code, 1901);
    assert.match(flood.json.message, /unknown accessKey from this address/);
    assert.equal(flood.headers.connection, "close", "the body of a refused address is not read");
    // the flooding address is refused even with a good key (it may be guessing keys) …
    assert.equal((await post(svc.url, "/video/query/v4", { accessKey: TEST_KEY, btId: "none" }, "127.0.0.2")).json.code, 1901);
    // … while the key itself and other addresses are untouched: bad keys never spend a real key's budget
    assert.equal((await post(svc.url, "/video/query/v4", { accessKey: TEST_KEY, btId: "none" })).json.code, 1902);
  });

  test("keyless, malformed and too-deep bodies spend the address's failed-key budget; nesting is refused before parsing", async () => {
    const from = "127.0.0.3";
    const deep = `{"data":${"[".repeat(1500)}${"]".repeat(1500)}}`; // under BODY_MAX_BYTES, far past 64 levels
    const nested = await post(svc.url, "/video/v4", deep, from);
    assert.equal(nested.status, 200);
    assert.equal(nested.json.code, 1902);
    assert.match(nested.json.message, /body nested deeper than 64 levels/, "refused by the byte scan, before the accessKey is looked for");
    assert.match((await post(svc.url, "/video/v4", "{\"accessKey\":", from)).json.message, /malformed JSON/);
    assert.match((await post(svc.url, "/video/v4", { appId: "default" }, from)).json.message, /accessKey is required/);
    const over = await post(svc.url, "/video/v4", { appId: "default" }, from);
    assert.equal(over.json.code, 1901, "past AUTH_FAIL_LIMIT_PER_MINUTE (3): the documented throttled answer");
    assert.match(over.json.message, /unknown accessKey from this address/);
    assert.match(String(over.headers["retry-after"]), /^\d+$/);
    // a deep body is refused for its nesting whatever key it names (counted once, like any unreadable body)
    const keyed = await post(svc.url, "/video/query/v4", `{"accessKey":"${TEST_KEY}","btId":"none","x":${"[".repeat(100)}${"]".repeat(100)}}`, "127.0.0.4");
    assert.match(keyed.json.message, /nested deeper than 64 levels/);
    assert.equal((await post(svc.url, "/video/query/v4", { accessKey: TEST_KEY, btId: "none" }, "127.0.0.4")).json.code, 1902);
  });

  test("BODY_MAX_BYTES: a large declared Content-Length is refused before reading; a streamed body stops at the limit", async () => {
    const declared = await raw(svc.url, "POST /video/v4 HTTP/1.1\r\nhost: x\r\ncontent-length: 50000000\r\n\r\n", Buffer.from('{"accessKey":'));
    assert.match(declared, /^HTTP\/1\.1 200 /);
    assert.match(declared, /connection: close/i);
    assert.equal(jsonOf(declared).code, 1902);
    assert.match(jsonOf(declared).message, /body larger than 4096 bytes/);

    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const chunked = Buffer.concat(Array.from({ length: 256 }, () => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]))); // 4 MB
    const streamed = await raw(svc.url, "POST /video/v4 HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n", chunked);
    assert.equal(jsonOf(streamed).code, 1902);
    assert.match(jsonOf(streamed).message, /body larger than 4096 bytes/);

    // just under the limit is read and answered on its merits
    const padded = { accessKey: TEST_KEY, btId: "none", pad: "x".repeat(3900) };
    assert.ok(JSON.stringify(padded).length < 4096);
    const ok = await post(svc.url, "/video/query/v4", padded);
    assert.equal(ok.json.code, 1902);
    assert.match(ok.json.message, /not found/);
    assert.equal((await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "none" })).code, 1902, "the server is still answering");
  });

  test("FILE_QUEUE_MAX: files waiting beyond it get 1901; accepted ones still end (1905 here) and the queue admits again", async () => {
    const submit = (btId: string, url: string) => post(svc.url, "/video/v4", { accessKey: QUEUE_KEY, appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId, url } });
    const first = await submit("q-1", `${hanging.url}/__hang`); // never answers: keeps the one worker busy
    assert.equal(first.json.code, 1100);
    await waitFor(async () => svc.engine!.files.waitingCount === 0 && svc.engine!.files.pending === 1);
    assert.equal((await submit("q-2", `${hanging.url}/__hang`)).json.code, 1100);
    assert.equal((await submit("q-3", `${hanging.url}/__hang`)).json.code, 1100);
    assert.equal(svc.engine!.files.waitingCount, 2);
    const refused = await submit("q-4", video);
    assert.equal(refused.json.code, 1901);
    assert.match(refused.json.message, /^QPS limit exceeded: 2 files are already waiting to be processed \(FILE_QUEUE_MAX 2\)$/);
    const tasks = await svc.engine!.ctx.store.db.query.tasks.findMany();
    assert.ok(!tasks.some((t) => t.btId === "q-4"), "no task for a refused file");

    await hanging.close(); // the hung downloads fail now
    await waitFor(async () => svc.engine!.files.pending === 0, 60_000);
    const ended = await svc.engine!.ctx.store.db.query.tasks.findMany();
    assert.deepEqual(ended.filter((t) => t.btId?.startsWith("q-")).map((t) => t.resultCode), [1905, 1905, 1905]);
    assert.equal((await submit("q-4", video)).json.code, 1100, "admitted again once the queue drained");
  });

  test("slow-loris: a client that never finishes its headers is answered 408 and disconnected", async () => {
    const answer = await slowLoris;
    assert.match(answer, /^HTTP\/1\.1 408 /);
  });
});
