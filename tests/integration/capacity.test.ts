// The service says when it is full instead of accepting streams it would leave unchecked (#14.3) or check late: past
// STREAM_CAPACITY, and while a running stream's detection is behind (frames not checked, or checked more than
// STREAM_ADMISSION_LAG_SEC after capture), a new stream is answered 1904 (video) / 1901 (audio) with the reason. Real RTMP source, real detect pool (made scarce with its test hook).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { WorkerDetectPool } from "../../server/detect/pool";
import { qrStreamRequest, startTestService, TEST_KEY } from "../support/app";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";

type Service = Awaited<ReturnType<typeof startTestService>>;
let src: RtmpSource;
let rx: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  [src, rx] = await Promise.all([startRtmpSource({ name: "capacity", audio: "tone" }), startReceiver()]);
});
after(async () => {
  await src?.close();
  await rx?.close();
});

const video = (tokenId: string) => qrStreamRequest(`${src.flvUrl}?t=${tokenId}`, rx.url, { tokenId, returnAllImg: 1 });
/** Submits a video stream until it is accepted (the service has caught up), then closes it and `running`. */
async function acceptedAgain(svc: Service, tokenId: string, running: string, timeoutMs: number): Promise<void> {
  const accepted = await waitFor(async () => {
    const r = await svc.post("/videostream/v4", video(tokenId));
    return r.code === 1100 ? r : null;
  }, timeoutMs, 500);
  for (const r of [running, String(accepted.requestId)]) await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: r });
}
const audio = (tokenId: string) => ({ accessKey: TEST_KEY, appId: "default", eventId: "default", type: "POLITICS", callback: rx.url, btId: `room-${tokenId}`, data: { tokenId, url: `${src.flvUrl}?a=${tokenId}` } });

describe("STREAM_CAPACITY", () => {
  let svc: Service;
  before(async () => void (svc = await startTestService({ env: { STREAM_CAPACITY: "2", MAX_CONCURRENT_STREAMS: "10" } })));
  after(() => svc?.close());

  test("past the process's capacity a new stream is refused 1904 (video) / 1901 (audio) saying so; after a Close it is accepted", async () => {
    const a = await svc.post("/videostream/v4", video("a"));
    const b = await svc.post("/audiostream/v4", audio("b"));
    assert.equal(a.code, 1100, JSON.stringify(a));
    assert.equal(b.code, 1100, JSON.stringify(b));
    const c = await svc.post("/videostream/v4", video("c"));
    assert.equal(c.code, 1904);
    assert.match(String(c.message), /at capacity: it runs 2 streams, its limit \(STREAM_CAPACITY 2\)/);
    const d = await svc.post("/audiostream/v4", audio("d"));
    assert.equal(d.code, 1901);
    assert.match(String(d.message), /at capacity/);
    assert.equal((await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: a.requestId })).code, 1100);
    const e = await svc.post("/videostream/v4", video("e"));
    assert.equal(e.code, 1100, JSON.stringify(e));
    for (const id of [b.requestId, e.requestId]) await svc.post(id === b.requestId ? "/finish_audiostream/v4" : "/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
  });
});

describe("detection behind", () => {
  let svc: Service;
  before(async () => void (svc = await startTestService({ env: { STREAM_FRAME_BACKLOG: "1", STREAM_ADMISSION_WINDOW_SEC: "4" } })));
  after(() => svc?.close());

  test("while a running stream has frames called back not checked, a new stream is refused 1904 naming it; once detection keeps up again it is accepted", async () => {
    const pool = svc.engine!.ctx.detect as WorkerDetectPool;
    pool.setMinJobMsForTest(2500); // detection slower than capture (1 frame/s): the backlog of 1 overflows
    const first = await svc.post("/videostream/v4", video("slow"));
    assert.equal(first.code, 1100, JSON.stringify(first));
    const id = String(first.requestId);
    await rx.until((r) => r.some((x) => String(x.body.requestId).startsWith(`${id}_v`) && (x.body.frameDetail as { auxInfo: { detectType?: number } }).auxInfo.detectType === 2), 60_000);
    const refused = await svc.post("/videostream/v4", video("next"));
    assert.equal(refused.code, 1904);
    assert.match(String(refused.message), /at capacity: detection is behind on 1 of 1 running streams \(frames called back not checked, or checked more than 20 s after capture, in the last 4 s\)/);

    // detection catches up: past the window with nothing left unchecked, streams are accepted again
    pool.setMinJobMsForTest(0);
    await acceptedAgain(svc, "later", id, 30_000);
  });
});

describe("detection late", () => {
  let svc: Service;
  // a deep backlog: every frame is checked, none dropped, but each one late
  before(async () => void (svc = await startTestService({ env: { STREAM_FRAME_BACKLOG: "50", STREAM_ADMISSION_WINDOW_SEC: "4", STREAM_ADMISSION_LAG_SEC: "2" } })));
  after(() => svc?.close());

  test("while a running stream's frames are checked but more than STREAM_ADMISSION_LAG_SEC after capture, a new stream is refused 1904 saying so; once detection is on time again it is accepted", async () => {
    const pool = svc.engine!.ctx.detect as WorkerDetectPool;
    pool.setMinJobMsForTest(3000); // ≥ 3 s a frame: checked, never dropped (backlog 50), each > 2 s after capture
    const first = await svc.post("/videostream/v4", video("late"));
    assert.equal(first.code, 1100, JSON.stringify(first));
    const id = String(first.requestId);
    const frames = (r: typeof rx.received) => r.filter((x) => String(x.body.requestId).startsWith(`${id}_v`)).map((x) => x.body.frameDetail as { auxInfo: { detectType?: number } });
    await rx.until((r) => frames(r).length >= 1, 60_000);
    const refused = await waitFor(async () => {
      const r = await svc.post("/videostream/v4", video("late-next"));
      return r.code === 1904 ? r : null;
    }, 30_000, 300);
    assert.match(String(refused.message), /detection is behind on 1 of 1 running streams \(frames called back not checked, or checked more than 2 s after capture, in the last 4 s\)/);
    assert.ok(frames(rx.received).every((f) => f.auxInfo.detectType !== 2), "late, but every frame so far was checked");

    pool.setMinJobMsForTest(0);
    await acceptedAgain(svc, "late-later", id, 60_000);
  });
});
