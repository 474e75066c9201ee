import assert from "node:assert/strict";
import crypto from "node:crypto";
import { after, describe, test } from "node:test";
import { verifyWebhook, webhookHeaders } from "../../server/callback/signature";
import { receiveFileCallback } from "../../server/dashboard/receiver";
import { hashToken } from "../../server/dashboard/tokens";
import { setResolver } from "../../server/ingest/url-guard";
import { getRegistry } from "../../server/registry";
import { keyId } from "../../server/service/access-keys";
import { dashboardFiles } from "../../server/store/schema";
import { startTestService, TEST_KEY } from "../support/app";
import { startStaticServer } from "../support/media";
import { startReceiver, waitFor, type Received } from "../support/net";

const GLOBAL_SECRET = `whsec_${crypto.randomBytes(24).toString("base64")}`;
const SECOND_KEY = "second-key-02";
const SECOND_SECRET = "a plain per-key secret";

const headersOf = (r: Received) => new Headers(Object.entries(r.headers).map(([k, v]): [string, string] => [k, String(v)]));
const verifies = (secret: string, r: Received) => verifyWebhook(secret, headersOf(r), r.raw).ok;

// .test names resolve only through this resolver (the guard's hook): evil.test is a public-looking name for a loopback host
setResolver(async (host) => {
  if (host === "evil.test") return ["127.0.0.1"];
  if (host === "mixed.test") return ["93.184.216.34", "10.0.0.1"];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
});

describe("signed callbacks, outbound guard and bounded outbox (ALLOW_PRIVATE_NETWORKS off)", async () => {
  const svc = await startTestService({
    env: { ALLOW_PRIVATE_NETWORKS: "0", MODERATION_ACCESS_KEYS: `${TEST_KEY},${SECOND_KEY}`, CALLBACK_SIGNING_SECRET: GLOBAL_SECRET, CALLBACK_SIGNING_SECRETS: `${SECOND_KEY}=${SECOND_SECRET}`, CALLBACK_QUEUE_MAX: "2" },
  });
  // local test servers are private addresses: register them the way the app registers its own origins
  const media = await startStaticServer(svc.dataDir);
  svc.engine!.addOwnMediaOrigin(media.url);
  const gone = `${media.url}/__status/404`; // a file whose download fails fast: the task ends with 1905 and calls back
  const receivers: Array<Awaited<ReturnType<typeof startReceiver>>> = [];
  const receiver = async (statuses: number[] = []) => {
    const rx = await startReceiver(statuses);
    receivers.push(rx);
    svc.engine!.addOwnOrigin(new URL(rx.url).origin);
    return { ...rx, url: rx.url.replace(/\/cb$/, "/api/receiver/file/t") };
  };
  after(async () => {
    setResolver(null);
    await Promise.all(receivers.map((r) => r.close()));
    await media.close();
    await svc.close();
  });
  let n = 0;
  const file = (callback: string, accessKey = TEST_KEY, url = gone) => ({ accessKey, appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback, data: { btId: `signed-${++n}`, url } });

  test("every attempt carries a Standard Webhooks signature over the exact bytes; the per-key secret wins", async () => {
    const rx = await receiver([500]);
    const ack = await svc.post("/video/v4", file(rx.url));
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    const ack2 = await svc.post("/video/v4", file(rx.url, SECOND_KEY));
    assert.equal(ack2.code, 1100, JSON.stringify(ack2));
    const got = await rx.until((r) => r.filter((x) => x.status === 200).length >= 2);
    const first = got.filter((r) => r.body.requestId === ack.requestId);
    assert.ok(first.length >= 2, "the first delivery was retried");
    assert.equal(new Set(first.map((r) => r.headers["webhook-id"])).size, 1, "one webhook-id across retries");
    for (const r of first) {
      assert.match(String(r.headers["webhook-signature"]), /^v1,[A-Za-z0-9+/]+=*$/);
      assert.ok(verifies(GLOBAL_SECRET, r), "signed with CALLBACK_SIGNING_SECRET");
      assert.ok(!verifies(SECOND_SECRET, r));
    }
    const second = got.filter((r) => r.body.requestId === ack2.requestId);
    assert.ok(second.length >= 1);
    for (const r of second) {
      assert.ok(verifies(SECOND_SECRET, r), "signed with this accessKey's own secret");
      assert.ok(!verifies(GLOBAL_SECRET, r));
    }
  });

  test("the dashboard's receivers refuse unsigned, forged and stale callbacks with 401 and accept a genuine one", async () => {
    const { dashboard } = getRegistry();
    const db = svc.engine!.ctx.store.db;
    const body = JSON.stringify({ code: 1905, message: "Unrecognized content: test", requestId: "sig-req-1", btId: "sig-bt-1" });
    await db.insert(dashboardFiles).values({ requestId: "sig-req-1", btId: "sig-bt-1", url: gone, serviceBaseUrl: svc.url, receiverToken: hashToken("sig-token"), status: "queued", createdAt: new Date() });
    const now = Math.floor(Date.now() / 1000);
    const dashSecret = svc.engine!.dashboardSigningSecret;
    assert.notEqual(dashSecret, GLOBAL_SECRET);
    const cases: Array<[string, Record<string, string>, number, RegExp?]> = [
      ["unsigned", { "webhook-id": "msg_u" }, 401, /unsigned/],
      ["forged", webhookHeaders("not the secret", "msg_f", now, body), 401, /does not match/],
      // the embedded dashboard is its own principal with its own secret: the public keys' secret cannot forge its callbacks
      ["public key's secret", webhookHeaders(GLOBAL_SECRET, "msg_p", now, body), 401, /does not match/],
      ["stale", webhookHeaders(dashSecret, "msg_s", now - 600, body), 401, /window/],
      ["genuine", webhookHeaders(dashSecret, "msg_g", now, body), 200],
    ];
    for (const [name, h, status, error] of cases) {
      const answer = await dashboard.receiveFileCallback("sig-token", body, new Headers(h));
      assert.equal(answer.status, status, `${name}: ${JSON.stringify(answer)}`);
      if (error) assert.match(String(answer.body.error), error, name);
    }
    const tampered = await dashboard.receiveFileCallback("sig-token", body.replace("1905", "1100"), new Headers(webhookHeaders(dashSecret, "msg_t", now, body)));
    assert.equal(tampered.status, 401);
    const stream = await dashboard.streams.receive("any-token", body, new Headers(webhookHeaders("not the secret", "msg_x", now, body)));
    assert.equal(stream.status, 401, "stream receiver checks the signature before anything else");
    // a dashboard with no secret configured keeps relying on the per-task URL token
    const open = await receiveFileCallback({ db, publish: () => undefined, signingSecret: null }, hashToken("sig-token"), body, new Headers({ "webhook-id": "msg_open" }));
    assert.equal(open.status, 200);
  });

  test("names resolving to private addresses are refused for file URL, stream URL and callback URLs (1902)", async () => {
    const rx = await receiver();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ["/video/v4", file(rx.url, TEST_KEY, "http://evil.test/a.mp4"), /data\.url refused \(private-address\).*127\.0\.0\.1/],
      ["/video/v4", file(rx.url, TEST_KEY, "http://mixed.test/a.mp4"), /data\.url refused \(private-address\).*10\.0\.0\.1/],
      ["/video/v4", file("http://evil.test/cb"), /callback refused \(private-address\)/],
      ["/video/v4", file(`${rx.url.replace("/api/receiver/file/t", "/other")}`), /callback refused/],
      ["/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VS", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "NORMAL", url: "rtmp://evil.test/live/x", tokenId: "u" } }, /data\.url refused \(private-address\)/],
      ["/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VS", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "NORMAL", url: "http://evil.test/live.m3u8", tokenId: "u" } }, /data\.url refused/],
      ["/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VS", imgType: "QRCODE", audioType: "NONE", imgCallback: "http://evil.test/cb", data: { streamType: "NORMAL", url: `${media.url}/live.flv`, tokenId: "u" } }, /imgCallback refused/],
      ["/audiostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "AS", type: "POLITY", callback: "http://mixed.test/cb", data: { streamType: "NORMAL", url: `${media.url}/live.flv`, tokenId: "u", btId: "as-1" } }, /callback refused/],
    ];
    for (const [p, body, message] of cases) {
      const ack = await svc.post(p, body);
      assert.equal(ack.code, 1902, `${p} ${JSON.stringify(body)} → ${JSON.stringify(ack)}`);
      assert.match(String(ack.message), message);
    }
  });

  test("undelivered callbacks over CALLBACK_QUEUE_MAX: new submissions of that accessKey get 1901, accepted callbacks are still delivered", async () => {
    const statuses = Array.from({ length: 10_000 }, () => 503);
    const rx = await receiver(statuses);
    const key = keyId(TEST_KEY);
    const dispatcher = svc.engine!.ctx.dispatcher;
    const accepted = [await svc.post("/video/v4", file(rx.url)), await svc.post("/video/v4", file(rx.url))];
    assert.deepEqual(accepted.map((a) => a.code), [1100, 1100]);
    await waitFor(async () => (await dispatcher.backlog(key)).key >= 2, 60_000);

    const refused = await svc.post("/video/v4", file(rx.url));
    assert.equal(refused.code, 1901, JSON.stringify(refused));
    assert.match(String(refused.message), /2 callbacks of this accessKey are waiting/);
    const stream = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VS", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "NORMAL", url: `${media.url}/live.flv`, tokenId: "u" } });
    assert.equal(stream.code, 1901, JSON.stringify(stream));
    const other = await svc.post("/video/v4", file(rx.url, SECOND_KEY));
    assert.equal(other.code, 1100, "another accessKey is not held back by this one's backlog");

    statuses.splice(0); // the receiver recovers: every pending callback goes out
    await rx.until((r) => accepted.every((a) => r.some((x) => x.status === 200 && x.body.requestId === a.requestId)));
    await waitFor(async () => (await dispatcher.backlog(key)).key === 0, 60_000);
    const again = await svc.post("/video/v4", file(rx.url));
    assert.equal(again.code, 1100, JSON.stringify(again));
  });
});
