// Issue #11.8: everything the service moderated is visible. Files and streams submitted through the public API
// appear on the dashboard marked with their accessKey's name (never the key), with their results and incidents;
// the dashboard's own tasks stay invisible to the public keys.
import assert from "node:assert/strict";
import path from "node:path";
import { after, describe, test } from "node:test";
import { startTestService } from "../support/app";
import { makeVideo, startStaticServer } from "../support/media";
import { startRtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";
import { getRegistry } from "../../server/registry";
import { accessKeyNames } from "../../server/dashboard/api-tasks";
import { keyId } from "../../server/service/access-keys";

const KEY_A = "api-key-a-7f3c91d2";
const KEY_B = "api-key-b-0e55aa18";
const QR_TEXT = "https://api-visible.example/qr";
const noKeys = (what: string, value: unknown) => {
  const text = JSON.stringify(value);
  for (const key of [KEY_A, KEY_B]) assert.ok(!text.includes(key), `${what} carries an accessKey`);
};

describe("tasks of the public API on the dashboard", async () => {
  const svc = await startTestService({ env: { MODERATION_ACCESS_KEYS: `${KEY_A},${KEY_B}`, ACCESS_KEY_NAMES: "A-name,B-name" } });
  const video = await makeVideo({ name: "api-visible-file", durationSec: 4, audio: "none", background: "gray", qr: { text: QR_TEXT, fromSec: 0, toSec: 4 } });
  const web = await startStaticServer(path.dirname(video));
  const rx = await startReceiver();
  const src = await startRtmpSource({ name: "api-visible-live", audio: "none", qr: { text: QR_TEXT, fromSec: 0, toSec: 6 } });
  after(async () => {
    await src.close();
    await rx.close();
    await web.close();
    await svc.close();
  });

  test("names: ACCESS_KEY_NAMES in key order, a default from the key id, 'generated key'", () => {
    const names = accessKeyNames([KEY_A, KEY_B, "third-key"], ["A-name", "B-name"], false);
    assert.deepEqual([...names.values()], ["A-name", "B-name", `API key ${keyId("third-key").slice(0, 6)}`]);
    assert.deepEqual([...accessKeyNames([KEY_A], [], true).values()], ["generated key"]);
  });

  test("a file: listed with key A's name, its result readable through the dashboard, its incident fed", async () => {
    const { dashboard, incidents } = getRegistry();
    const ack = await svc.post("/video/v4", { accessKey: KEY_A, appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "api-file-1", url: `${web.url}/${path.basename(video)}`, detectFrequency: 1, videoTitle: "API file" } });
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    const requestId = ack.requestId as string;
    const row = await waitFor(async () => (await dashboard.listFiles()).find((f) => f.requestId === requestId && f.status === "done"), 45_000, 250);
    assert.deepEqual([row.origin, row.keyName, row.btId, row.title], ["api", "A-name", "api-file-1", "API file"]);
    assert.ok(row.riskLevel && row.riskLevel !== "PASS", `QR file risk: ${row.riskLevel}`);

    // by requestId (the list's link) and by btId (incident links): the stored result, same-origin media links
    const result = await dashboard.fileResult(requestId);
    assert.equal(result.code, 1100, JSON.stringify(result));
    assert.equal(result.requestId, requestId);
    const frames = result.frameDetail as Array<{ imgUrl: string; riskLevel: string }>;
    assert.ok(frames.length > 0 && frames.every((f) => f.imgUrl.startsWith("/media/")), JSON.stringify(frames.map((f) => f.imgUrl)));
    assert.equal((await dashboard.fileResult("api-file-1")).requestId, requestId);

    await incidents.idle();
    const found = await incidents.list({ requestId }, "tester");
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.deepEqual(found[0].peak.evidence.qr, [QR_TEXT]);
    noKeys("the file's records", [row, result, found]);
  });

  test("a stream: on the wall with key A's name, its frames in its timeline and incidents; key A closes it, the dashboard may not", async () => {
    const { dashboard, incidents } = getRegistry();
    const ack = await svc.post("/videostream/v4", { accessKey: KEY_A, appId: "default", eventId: "live", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "NORMAL", url: src.rtmpUrl, tokenId: "api-user", detectFrequency: 1, returnAllImg: 1, returnFinishInfo: 1, streamName: "API live" } });
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    const requestId = ack.requestId as string;
    const detail = await waitFor(async () => {
      const d = await dashboard.streams.detail(requestId);
      return d && d.events.filter((e) => e.kind === "frame").length >= 2 ? d : null;
    }, 30_000, 250);
    const listed = (await dashboard.streams.list()).find((s) => s.requestId === requestId);
    assert.ok(listed, "on the wall");
    assert.deepEqual([listed.origin, listed.keyName, listed.title, listed.status], ["api", "A-name", "API live", "running"]);
    assert.ok(listed.framesChecked >= 2, `counts follow the frames: ${listed.framesChecked}`);
    const frame = detail.events.find((e) => e.kind === "frame")!.body as { requestId: string; frameDetail: { imgUrl: string } };
    assert.ok(frame.requestId.startsWith(`${requestId}_`));
    assert.match(frame.frameDetail.imgUrl, /^\/media\//);

    const refused = await dashboard.streams.close(requestId);
    assert.ok(!refused.ok && /A-name/.test(refused.error), JSON.stringify(refused));
    assert.equal((await svc.post("/finish_videostream/v4", { accessKey: KEY_A, requestId })).code, 1100);
    const ended = await waitFor(async () => {
      const d = await dashboard.streams.detail(requestId);
      return d?.stream.status === "ended" && d.events.some((e) => e.kind === "end") ? d : null;
    }, 40_000, 250);
    await incidents.idle();
    const found = await incidents.list({ requestId }, "tester");
    assert.ok(found.length >= 1 && found.every((i) => i.source.kind === "stream"), JSON.stringify(found));
    // what key A's own receiver got is what the timeline holds (media links made same-origin)
    await rx.until((r) => r.some((x) => x.body.statCode === 1));
    assert.equal(rx.received.filter((r) => r.body.contentType === 1 && r.body.statCode !== 1).length, ended.events.filter((e) => e.kind === "frame").length);
    noKeys("the stream's records", [ended, await dashboard.streams.list(), found]);
  });

  test("the dashboard's own stream stays invisible to key A's Close and Query", async () => {
    const { dashboard } = getRegistry();
    const own = await dashboard.streams.start({ kind: "video", url: src.rtmpUrl, imgTypes: ["QRCODE"], audioTypes: ["NONE"], detectFrequency: 2, returnAllImg: false, returnAllText: false, returnFinishInfo: true, title: "own stream" });
    assert.ok(own.ok, JSON.stringify(own));
    assert.equal((await svc.post("/finish_videostream/v4", { accessKey: KEY_A, requestId: own.requestId })).code, 1902);
    const mine = (await dashboard.streams.list()).find((s) => s.requestId === own.requestId)!;
    assert.deepEqual([mine.origin, mine.keyName], ["dashboard", null]);
    const file = await dashboard.submitFile({ url: "http://127.0.0.1:9/none.mp4", captureMode: "detectFrequency", captureValue: 1, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllAudio: false });
    assert.ok(file.ok, JSON.stringify(file));
    assert.equal((await svc.post("/video/query/v4", { accessKey: KEY_A, btId: file.btId })).code, 1902);
    assert.deepEqual(await dashboard.streams.close(own.requestId), { ok: true });
  });
});
