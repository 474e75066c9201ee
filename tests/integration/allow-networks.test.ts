import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { makeVideo, startStaticServer } from "../support/media";
import { startReceiver } from "../support/net";
import { startTestService, TEST_KEY } from "../support/app";

// ALLOW_PRIVATE_NETWORKS off, ALLOW_NETWORKS naming exactly 127.0.0.1: that one address serves media and takes callbacks,
// 127.0.0.2 (another private address) stays refused for both.
let svc: Awaited<ReturnType<typeof startTestService>>;
let video: string;
before(async () => {
  video = await makeVideo({ name: "allow-networks", durationSec: 2, width: 160, height: 120, fps: 5, audio: "none" });
  svc = await startTestService({ env: { ALLOW_PRIVATE_NETWORKS: "0", ALLOW_NETWORKS: "127.0.0.1/32" } });
});
after(async () => svc?.close());

test("a file on the allowed network is downloaded and processed, and its callback is delivered there", async () => {
  const files = await startStaticServer(path.dirname(video));
  const receiver = await startReceiver();
  try {
    const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback: receiver.url, data: { btId: "allowed-net", url: `${files.url}/${path.basename(video)}` } });
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    const [got] = await receiver.until((all) => all.length > 0);
    assert.equal(got.body.btId, "allowed-net");
    assert.equal(got.body.code, 1100, JSON.stringify(got.body));
    assert.ok(!(got.body.auxInfo as Record<string, unknown>).errorCode, `downloaded and processed: ${JSON.stringify(got.body)}`);
  } finally {
    await Promise.all([files.close(), receiver.close()]);
  }
});

test("another private address is refused at submission for media and callbacks, and the refusal names ALLOW_NETWORKS", async () => {
  const hits: string[] = [];
  const other = http.createServer((req, res) => void (hits.push(req.url ?? ""), res.writeHead(404).end()));
  await new Promise<void>((r) => other.listen(0, "127.0.0.2", r));
  const origin = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
  try {
    const media = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "other-net", url: `${origin}/v.mp4` } });
    assert.equal(media.code, 1902, JSON.stringify(media));
    assert.match(String(media.message), /data\.url refused \(private-address\).*127\.0\.0\.2.*ALLOW_NETWORKS/);
    const cb = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback: `${origin}/cb`, data: { btId: "other-cb", url: "http://127.0.0.1:9/v.mp4" } });
    assert.equal(cb.code, 1902, JSON.stringify(cb));
    assert.match(String(cb.message), /callback refused \(private-address\).*127\.0\.0\.2/);
    const stream = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "a", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "NONE", data: { btId: "other-stream", url: `${origin}/live.m3u8` } });
    assert.equal(stream.code, 1902, JSON.stringify(stream));
    assert.deepEqual(hits, [], "nothing was ever requested from 127.0.0.2");
  } finally {
    await new Promise<void>((r) => other.close(() => r()));
  }
});
