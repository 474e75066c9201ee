// Issue #10.4: the typed client and the receivers' signature verifier, usable outside the dashboard.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { createModerationClient, ServiceUnreachableError, verifyWebhook } from "../../lib/client";
import { webhookHeaders } from "../../server/callback/signature";

test("verifyWebhook accepts what the service signs (plain and whsec_ secrets, Headers or a plain record) and refuses the rest", async () => {
  const body = '\uFEFF{"code":1100,"message":"成功","requestId":"r1"}';
  const now = Math.floor(Date.now() / 1000);
  for (const secret of ["plain secret", `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`]) {
    const h = webhookHeaders(secret, "msg_1", now, body);
    assert.deepEqual(await verifyWebhook(secret, h, body), { ok: true, id: "msg_1", timestampSec: now });
    assert.equal((await verifyWebhook(secret, new Headers(h), Buffer.from(body, "utf8"))).ok, true, "bytes and Headers");
    assert.equal((await verifyWebhook(secret, h, body.replace("1100", "1905"))).ok, false, "tampered body");
    assert.equal((await verifyWebhook("other secret", h, body)).ok, false, "wrong secret");
    assert.equal((await verifyWebhook(secret, webhookHeaders(secret, "msg_1", now - 600, body), body)).ok, false, "stale");
    assert.equal((await verifyWebhook(secret, { ...h, "webhook-signature": `v1,AAAA ${h["webhook-signature"]}` }, body)).ok, true, "one of several signatures");
    assert.equal((await verifyWebhook(secret, { "webhook-id": "msg_1" }, body)).ok, false, "unsigned");
  }
});

test("the client adds the accessKey, types the answers and reports an unreachable service", async () => {
  const seen: unknown[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      seen.push({ path: req.url, body: JSON.parse(raw) });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(req.url === "/video/query/v4" ? { code: 1101, message: "processing", requestId: "q1", btId: "v1" } : { code: 1100, message: "ok", requestId: "r1", btId: "v1" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const svc = createModerationClient({ baseUrl: `${base}/`, accessKey: "k-1" });
    const ack = await svc.video({ appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "v1", url: "https://example.com/a.mp4" } });
    assert.equal(ack.code, 1100);
    assert.equal(ack.btId, "v1");
    const q = await svc.videoQuery("v1");
    assert.equal(q.code, 1101);
    assert.deepEqual(seen.map((s) => (s as { path: string }).path), ["/video/v4", "/video/query/v4"]);
    assert.equal((seen[1] as { body: { accessKey: string; btId: string } }).body.accessKey, "k-1");
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
  await assert.rejects(createModerationClient({ baseUrl: base, accessKey: "k" }).videoQuery("x"), ServiceUnreachableError);
});
