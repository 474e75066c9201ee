import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { startHlsSource, startRtmpSource } from "../support/live-sources";
import { mediaDir, startStaticServer } from "../support/media";
import { liveStreamRequest, startTestService, TEST_KEY } from "../support/app";
import { startReceiver, streamEnds, streamResults, waitFor, type Received } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("live streams", async () => {
  const svc = await startTestService({ env: { MAX_CONCURRENT_STREAMS: "3" } });
  after(() => svc.close());

  test("RTMP video stream: frames and audio segments delivered; duplicate → 1001; Close → stream-end on both callbacks, nothing after", async () => {
    const src = await startRtmpSource({ name: "rtmp-qr", audio: "tone", qr: { text: "https://spam.example/live", fromSec: 0, toSec: 6 } });
    const rx = await startReceiver();
    try {
      const ack = await svc.post("/videostream/v4", liveStreamRequest(src.rtmpUrl, rx.url));
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = ack.requestId as string;
      await rx.until((r) => streamResults(r, 1).length >= 2 && streamResults(r, 2).length >= 1, 90_000);

      const withQr = (x: Received) => ((x.body as Json).frameDetail.riskDetail.objects ?? []).some((o: Json) => o.qrContent === "https://spam.example/live");
      await rx.until((r) => streamResults(r, 1).some(withQr), 60_000);
      const frame = streamResults(rx.received, 1).find(withQr)!.body as Json;
      assert.match(frame.requestId, new RegExp(`^${id}_v\\d+$`));
      assert.equal(frame.code, 1100);
      assert.equal(frame.frameDetail.riskLevel, "REVIEW");
      assert.match(frame.frameDetail.auxInfo.imgTime, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
      assert.ok(frame.frameDetail.auxInfo.finishProcessTime >= frame.frameDetail.auxInfo.beginProcessTime);
      assert.equal((await fetch(frame.frameDetail.imgUrl)).headers.get("content-type"), "image/jpeg");
      assert.ok(streamResults(rx.received, 1).every((x) => x.headers["content-type"] === "application/json" && String(x.headers["webhook-id"]).startsWith("msg_")));

      const seg = streamResults(rx.received, 2)[0].body as Json;
      assert.match(seg.requestId, new RegExp(`^${id}_a1$`));
      assert.equal(seg.audioDetail.vadCode, 0, "a tone is not speech (Silero VAD)");
      assert.equal(seg.audioDetail.riskLevel, "PASS");
      assert.match(seg.audioDetail.auxInfo.audioStartTime, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

      const dup = await svc.post("/videostream/v4", liveStreamRequest(src.rtmpUrl, rx.url));
      assert.deepEqual(dup.detail, { errorCode: 1001, dupRequestId: id });
      assert.equal(dup.requestId, id);

      const close = await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: dup.detail.dupRequestId });
      assert.equal(close.code, 1100);
      const end = await rx.until((r) => streamEnds(r).length >= 2, 30_000);
      const [e1, e2] = streamEnds(end).map((x) => x.body as Json).sort((a, b) => a.contentType - b.contentType);
      assert.equal(e1.contentType, 1);
      assert.equal(e2.contentType, 2);
      for (const e of [e1, e2]) {
        assert.equal(e.requestId, id);
        assert.equal(e.riskLevel, "REVIEW");
        assert.equal(e.pullStreamSuccess, true);
        assert.equal(e.auxInfo.errorCode, undefined, "a Close is not a pull failure");
        assert.ok(e.auxInfo.streamTime >= 1);
      }
      assert.equal(e1.detail.requestParams.url, src.rtmpUrl);
      assert.equal(e2.requestParams.url, src.rtmpUrl);
      // nothing after the stream-end: every delivery of the task is settled and the ends came last
      await waitFor(async () => (await svc.engine!.ctx.dispatcher.deliveriesFor(id)).every((d) => d.status !== "pending"));
      const lastEnd = Math.min(...streamEnds(rx.received).map((x) => rx.received.indexOf(x)));
      assert.equal(rx.received.slice(lastEnd).filter((x) => x.body.statCode === 0).length, 0);
      const again = await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
      assert.equal(again.code, 1100, "closing an ended task is fine");
      assert.equal(streamEnds(rx.received).length, 2, "and sends no second stream-end");
    } finally {
      await rx.close();
      await src.close();
    }
  });

  test("HTTP-FLV source: frames arrive", async () => {
    const src = await startRtmpSource({ name: "flv", audio: "none" });
    const rx = await startReceiver();
    try {
      const ack = await svc.post("/videostream/v4", liveStreamRequest(src.flvUrl, rx.url, {}, { audioType: "NONE", audioCallback: undefined }));
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      await rx.until((r) => streamResults(r, 1).length >= 2, 60_000);
      assert.equal((streamResults(rx.received, 1)[0].body as Json).frameDetail.riskLevel, "PASS");
      await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
      const [end] = streamEnds(await rx.until((r) => streamEnds(r).length >= 1, 30_000));
      assert.equal(end.body.contentType, 1);
    } finally {
      await rx.close();
      await src.close();
    }
  });

  test("HLS audio stream: 10 s segments as <task>_<n> (audioDetectStep 1 → 1, 3, …) with btId and requestParams; Close → stream-end", async () => {
    const src = await startHlsSource({ name: "hls-audio", live: true });
    const rx = await startReceiver();
    try {
      const ack = await svc.post("/audiostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "default", type: "POLITICS_PORN_MOAN", callback: rx.url, btId: "room-9", data: { tokenId: "u1", url: src.url, returnAllText: 1, returnFinishInfo: 1, audioDetectStep: 1 } });
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = ack.requestId as string;
      // audioDetectStep 1: segments 1, 3, 5 … are reviewed, the others skipped
      await rx.until((r) => r.filter((x) => x.body.statCode === 0).length >= 2, 120_000);
      const seg = rx.received.find((x) => x.body.statCode === 0)!.body as Json;
      assert.deepEqual(rx.received.filter((x) => x.body.statCode === 0).slice(0, 2).map((x) => x.body.requestId), [`${id}_1`, `${id}_3`]);
      assert.equal(seg.btId, "room-9");
      assert.equal(seg.requestParams.url, src.url);
      assert.equal(seg.audioDetail.riskLevel, "PASS");
      assert.ok(seg.audioDetail.auxInfo.notAppliedTypes.includes("MOAN"), "types without a real detector are reported");
      assert.equal(seg.audioDetail.vadCode, 0, "the source carries a tone, not speech");
      await svc.post("/finish_audiostream/v4", { accessKey: TEST_KEY, requestId: id });
      const [end] = streamEnds(await rx.until((r) => streamEnds(r).length >= 1, 30_000));
      assert.equal(end.body.requestId, id);
      assert.equal(end.body.btId, "room-9");
      assert.equal((end.body.auxInfo as Json).errorCode, undefined);
    } finally {
      await rx.close();
      await src.close();
    }
  });

  test("publisher killed and restored inside the retry window: the task resumes, frame numbers continue", async () => {
    const src = await startRtmpSource({ name: "flaky", audio: "none" });
    const rx = await startReceiver();
    try {
      const ack = await svc.post("/videostream/v4", liveStreamRequest(src.rtmpUrl, rx.url, {}, { audioType: "NONE", audioCallback: undefined }));
      await rx.until((r) => streamResults(r, 1).length >= 2, 60_000);
      await src.stopPublisher();
      const before = streamResults(rx.received, 1).length;
      await src.restartPublisher();
      await rx.until((r) => streamResults(r, 1).length >= before + 2, 90_000);
      const nums = streamResults(rx.received, 1).map((x) => Number(String(x.body.requestId).split("_v")[1]));
      assert.deepEqual(nums, [...nums].sort((a, b) => a - b), "frame numbers only grow");
      assert.equal(new Set(nums).size, nums.length, "no frame number twice");
      assert.equal(streamEnds(rx.received).length, 0, "no stream-end while it recovered");
      await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
    } finally {
      await rx.close();
      await src.close();
    }
  });

  test("publisher gone for good: stream-end with errorCode after the (scaled) retry schedule", async () => {
    const src = await startRtmpSource({ name: "gone", audio: "none" });
    const rx = await startReceiver();
    try {
      const ack = await svc.post("/videostream/v4", liveStreamRequest(src.rtmpUrl, rx.url, {}, { audioType: "NONE", audioCallback: undefined }));
      await rx.until((r) => streamResults(r, 1).length >= 1, 60_000);
      await src.close();
      const [end] = streamEnds(await rx.until((r) => streamEnds(r).length >= 1, 120_000));
      assert.equal(end.body.requestId, ack.requestId);
      assert.ok([3001, 3002, 3003].includes((end.body.auxInfo as Json).errorCode), JSON.stringify(end.body));
      assert.equal(end.body.pullStreamSuccess, true);
    } finally {
      await rx.close();
    }
  });

  test("a 404 source and a refused port end with errorCode 3001 and pullStreamSuccess false", async () => {
    const rx = await startReceiver();
    const web = await startStaticServer(mediaDir());
    try {
      const a = await svc.post("/videostream/v4", liveStreamRequest(`${web.url}/no-such-stream.flv`, rx.url, {}, { audioType: "NONE", audioCallback: undefined }));
      const b = await svc.post("/videostream/v4", liveStreamRequest("rtmp://127.0.0.1:9/live/none", rx.url, {}, { audioType: "NONE", audioCallback: undefined }));
      assert.equal(a.code, 1100);
      assert.equal(b.code, 1100);
      await rx.until((r) => streamEnds(r).length >= 2, 120_000);
      for (const id of [a.requestId, b.requestId]) {
        const end = streamEnds(rx.received).find((x) => x.body.requestId === id)!.body as Json;
        assert.equal(end.auxInfo.errorCode, 3001, JSON.stringify(end));
        assert.equal(end.pullStreamSuccess, false);
      }
      assert.equal(streamResults(rx.received, 1).length, 0);
    } finally {
      await rx.close();
      await web.close();
    }
  });

  test("RTC stream types are validated and answered with the missing connector; limits and unknown ids", async () => {
    const agora = await svc.post("/videostream/v4", { ...liveStreamRequest("", "http://127.0.0.1:1/cb"), data: { streamType: "AGORA", tokenId: "u", agoraParam: { appId: "a", channel: "c" } } });
    assert.equal(agora.code, 1902);
    assert.match(agora.message as string, /AGORA.*connector/);
    const badParam = await svc.post("/videostream/v4", { ...liveStreamRequest("", "http://127.0.0.1:1/cb"), data: { streamType: "TRTC", tokenId: "u", trtcParam: { sdkAppId: 1 } } });
    assert.equal(badParam.code, 1902);
    assert.match(badParam.message as string, /trtcParam/);
    const unknown = await svc.post("/finish_audiostream/v4", { accessKey: TEST_KEY, requestId: "0".repeat(32) });
    assert.equal(unknown.code, 1902);
    const noKey = await svc.post("/finish_videostream/v4", { accessKey: "nope", requestId: "0".repeat(32) });
    assert.equal(noKey.code, 9101);
  });
});

describe("concurrent-stream limit", async () => {
  const svc = await startTestService({ env: { MAX_CONCURRENT_STREAMS: "1" } });
  after(() => svc.close());

  test("over the limit: 1904 for video streams, 1901 for audio streams", async () => {
    const rx = await startReceiver();
    const src = await startRtmpSource({ name: "limit", audio: "tone" });
    try {
      const a = await svc.post("/videostream/v4", liveStreamRequest(src.rtmpUrl, rx.url));
      assert.equal(a.code, 1100);
      const b = await svc.post("/videostream/v4", liveStreamRequest(src.flvUrl, rx.url));
      assert.equal(b.code, 1904);
      const c = await svc.post("/audiostream/v4", { accessKey: TEST_KEY, appId: "d", eventId: "d", type: "POLITY", callback: rx.url, data: { btId: "b", url: src.flvUrl } });
      assert.equal(c.code, 1901);
      await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: a.requestId });
    } finally {
      await rx.close();
      await src.close();
    }
  });
});

describe("service restart mid-stream", () => {
  test("a running task is resumed by the next process; frame numbers continue", async () => {
    const src = await startRtmpSource({ name: "restart", audio: "none" });
    const rx = await startReceiver();
    const first = await startTestService();
    let second: Awaited<ReturnType<typeof startTestService>> | null = null;
    try {
      const ack = await first.post("/videostream/v4", liveStreamRequest(src.rtmpUrl, rx.url, {}, { audioType: "NONE", audioCallback: undefined }));
      await rx.until((r) => streamResults(r, 1).length >= 2, 60_000);
      await first.close();
      const before = streamResults(rx.received, 1).length;
      second = await startTestService({ dataDir: first.dataDir });
      await rx.until((r) => streamResults(r, 1).length >= before + 2, 90_000);
      const nums = streamResults(rx.received, 1).map((x) => Number(String(x.body.requestId).split("_v")[1]));
      assert.equal(new Set(nums).size, nums.length, "no frame number reused after the restart");
      const close = await second.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
      assert.equal(close.code, 1100);
      await rx.until((r) => streamEnds(r).length >= 1, 30_000);
    } finally {
      await second?.close();
      await rx.close();
      await src.close();
    }
  });
});
