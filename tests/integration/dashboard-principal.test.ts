// Security review #9.3 and #9.5 (first bullet): the embedded dashboard is its own principal. Its tasks are
// invisible to public accessKeys (Query, Close, duplicate detection answer as for an unknown id), it has its
// own stream limit, and its in-process calls are never charged to a public client's budget.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { startRtmpSource } from "../support/live-sources";
import { startTestService, TEST_KEY } from "../support/app";
import { waitFor } from "../support/net";
import { getRegistry } from "../../server/registry";
import type { StreamStartInput } from "../../lib/dashboard-api";

describe("the dashboard's own principal", async () => {
  // one stream per principal: the dashboard's and a public key's limits are separate
  const svc = await startTestService({ env: { MAX_CONCURRENT_STREAMS: "1", DASHBOARD_MAX_STREAMS: "1", AUTH_FAIL_LIMIT_PER_MINUTE: "5" } });
  const src = await startRtmpSource({ name: "principal", audio: "none" });
  after(async () => {
    await src.close();
    await svc.close();
  });
  const input: StreamStartInput = { kind: "video", url: src.rtmpUrl, imgTypes: ["QRCODE"], audioTypes: ["NONE"], detectFrequency: 2, returnAllImg: true, returnAllText: false, returnFinishInfo: false };
  const publicStream = (tokenId: string, url = src.rtmpUrl) => ({ accessKey: TEST_KEY, appId: "default", eventId: "VS", imgType: "QRCODE", audioType: "NONE", imgCallback: "http://127.0.0.1:9/cb", data: { streamType: "NORMAL", url, tokenId } });

  test("a dashboard stream: hidden from the public key, its own limit, shown ended when it ends", async () => {
    const { dashboard } = getRegistry();
    const started = await dashboard.streams.start(input);
    assert.ok(started.ok, JSON.stringify(started));
    const id = started.requestId;
    // the public key cannot close it, nor see it as its duplicate; it answers as for an unknown id
    const close = await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
    assert.equal(close.code, 1902, JSON.stringify(close));
    const same = await svc.post("/videostream/v4", publicStream("dashboard"));
    assert.equal(same.code, 1100, JSON.stringify(same));
    assert.notEqual(same.requestId, id, "no dupRequestId pointing at the dashboard's stream");
    assert.equal((same.detail as { dupRequestId?: string } | undefined)?.dupRequestId, undefined);
    // limits: the public key is full (1), the dashboard is full (1) — neither counts the other
    assert.equal((await svc.post("/videostream/v4", publicStream("other-user", `${src.rtmpUrl}?other=1`))).code, 1904);
    const second = await dashboard.streams.start({ ...input, title: "second", url: `${src.rtmpUrl}?second=1` });
    assert.ok(!second.ok && second.code === 1904, JSON.stringify(second));
    assert.match(second.ok ? "" : second.error, /DASHBOARD_MAX_STREAMS/);
    // the engine holds it under the dashboard principal
    assert.ok(svc.engine!.streams.countFor("dashboard") === 1);

    // a supervisor's Close works through the dashboard, and the wall shows it ended at once
    assert.deepEqual(await dashboard.streams.close(id), { ok: true });
    const row = await waitFor(async () => (await dashboard.streams.list()).find((s) => s.requestId === id && s.status === "ended"));
    assert.equal(row.status, "ended");
    await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: same.requestId });
  });

  test("a dashboard file is invisible to the public key's Query", async () => {
    const { dashboard } = getRegistry();
    const answer = await dashboard.submitFile({ url: "http://127.0.0.1:9/none.mp4", captureMode: "detectFrequency", captureValue: 1, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllAudio: false });
    assert.ok(answer.ok, JSON.stringify(answer));
    const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: answer.btId });
    assert.equal(q.code, 1902, JSON.stringify(q));
    const own = await waitFor(async () => {
      const r = await dashboard.fileResult(answer.btId);
      return r.code === 1101 ? null : r;
    });
    assert.notEqual(own.code, 1902, "the dashboard itself reads its file's result");
  });

  test("a flood of unknown accessKeys from this address never answers the dashboard's own calls 1901", async () => {
    const { dashboard } = getRegistry();
    for (let i = 0; i < 12; i++) await svc.post("/video/query/v4", { accessKey: `wrong-${i}`, btId: "x" });
    assert.equal((await svc.post("/video/query/v4", { accessKey: "wrong-again", btId: "x" })).code, 1901, "the flood is throttled");
    const started = await dashboard.streams.start({ ...input, title: "during the flood", url: `${src.rtmpUrl}?flood=1` });
    assert.ok(started.ok, JSON.stringify(started));
    assert.deepEqual(await dashboard.streams.close(started.requestId), { ok: true });
  });
});
