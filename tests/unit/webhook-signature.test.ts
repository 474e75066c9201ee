import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { parseSigningSecrets, secretKey, signWebhook, verifyWebhook, webhookHeaders } from "../../server/callback/signature";

const headers = (h: Record<string, string>) => new Headers(h);

test("Standard Webhooks reference vector (whsec_ secret, libraries/javascript sign test)", () => {
  const sig = signWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
  assert.equal(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  const ok = verifyWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", headers({ "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "webhook-timestamp": "1614265330", "webhook-signature": sig }), '{"test": 2432232314}', { nowSec: 1614265330 });
  assert.deepEqual(ok, { ok: true, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestampSec: 1614265330 });
});

test("a secret without whsec_ is the HMAC key as given; with it, the base64-decoded rest", () => {
  const body = '{"code":1100}';
  const expected = crypto.createHmac("sha256", Buffer.from("plain secret", "utf8")).update(`msg_1.100.${body}`).digest("base64");
  assert.equal(signWebhook("plain secret", "msg_1", 100, body), `v1,${expected}`);
  const raw = crypto.randomBytes(24);
  assert.deepEqual(secretKey(`whsec_${raw.toString("base64")}`), raw);
  assert.equal(signWebhook(`whsec_${raw.toString("base64")}`, "msg_1", 100, body), `v1,${crypto.createHmac("sha256", raw).update(`msg_1.100.${body}`).digest("base64")}`);
  assert.throws(() => secretKey("whsec_"), /base64/);
  assert.throws(() => secretKey("whsec_not base64!"), /base64/);
  assert.throws(() => secretKey(""), /empty/);
});

test("signature over bytes equals signature over the same text sent as UTF-8", () => {
  const text = '{"ocr":"加 微 信 — ✓"}';
  assert.equal(signWebhook("k", "msg_x", 5, text), signWebhook("k", "msg_x", 5, Buffer.from(text, "utf8")));
});

test("verify: 5-minute window both ways, tampered body, id and timestamp bound into the signature", () => {
  const now = 1_700_000_000;
  const body = '{"requestId":"r1","code":1100}';
  const h = webhookHeaders("s3cret", "msg_a", now, body);
  assert.equal(verifyWebhook("s3cret", headers(h), body, { nowSec: now + 300 }).ok, true, "at the edge of the window");
  assert.match(String((verifyWebhook("s3cret", headers(h), body, { nowSec: now + 301 }) as { error: string }).error), /window/);
  assert.match(String((verifyWebhook("s3cret", headers(h), body, { nowSec: now - 301 }) as { error: string }).error), /window/);
  assert.equal(verifyWebhook("s3cret", headers(h), body.replace("1100", "1905"), { nowSec: now }).ok, false, "tampered body");
  assert.equal(verifyWebhook("s3cret", headers({ ...h, "webhook-id": "msg_b" }), body, { nowSec: now }).ok, false, "replayed under another id");
  assert.equal(verifyWebhook("s3cret", headers({ ...h, "webhook-timestamp": String(now + 1) }), body, { nowSec: now }).ok, false, "timestamp changed");
  assert.equal(verifyWebhook("other", headers(h), body, { nowSec: now }).ok, false, "wrong secret");
});

test("verify: any one of several space-separated v1 signatures; other versions and junk ignored", () => {
  const now = 1_700_000_000;
  const body = "{}";
  const good = signWebhook("k", "msg_m", now, body);
  const forged = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=";
  const many = [forged, good.replace("v1,", "v2,"), "junk", good, forged].join(" ");
  assert.equal(verifyWebhook("k", headers({ "webhook-id": "msg_m", "webhook-timestamp": String(now), "webhook-signature": many }), body, { nowSec: now }).ok, true);
  const onlyOther = [forged, good.replace("v1,", "v2,"), "v1,", "v1"].join(" ");
  assert.equal(verifyWebhook("k", headers({ "webhook-id": "msg_m", "webhook-timestamp": String(now), "webhook-signature": onlyOther }), body, { nowSec: now }).ok, false);
  assert.equal(verifyWebhook("k", headers({ "webhook-id": "msg_m", "webhook-timestamp": String(now), "webhook-signature": good.slice(0, 10) }), body, { nowSec: now }).ok, false, "truncated");
});

test("verify: missing headers and a non-numeric timestamp are refused", () => {
  const now = 1_700_000_000;
  const h = webhookHeaders("k", "msg_z", now, "{}");
  for (const drop of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    const partial = Object.fromEntries(Object.entries(h).filter(([k]) => k !== drop));
    assert.match(String((verifyWebhook("k", headers(partial), "{}", { nowSec: now }) as { error: string }).error), /unsigned/);
  }
  assert.match(String((verifyWebhook("k", headers({ ...h, "webhook-timestamp": "hello" }), "{}", { nowSec: now }) as { error: string }).error), /Unix time/);
});

test("CALLBACK_SIGNING_SECRETS: accessKey=secret pairs, secret may hold '=', malformed entries throw", () => {
  assert.deepEqual(parseSigningSecrets("key1=secret1, key2=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw,key3=a=b"), { key1: "secret1", key2: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", key3: "a=b" });
  assert.deepEqual(parseSigningSecrets(undefined), {});
  assert.deepEqual(parseSigningSecrets(""), {});
  for (const bad of ["key1", "=secret", "key1=", "key1=whsec_!!"]) assert.throws(() => parseSigningSecrets(bad), Error, bad);
});
