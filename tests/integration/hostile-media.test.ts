import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { liveChildCount } from "../../server/ingest/process";
import { startTestService, TEST_KEY } from "../support/app";
import { makeHostileCorpus, startHostileOrigin, type HostileCorpus } from "../support/hostile-media";
import { startStaticServer } from "../support/media";
import { startReceiver, waitFor } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FILE_MAX_BYTES = 8 * 1024 * 1024;

describe("hostile media through /video/v4: each ends with a documented code, nothing hangs or leaks", async () => {
  const svc = await startTestService({
    env: {
      FILE_MAX_BYTES: String(FILE_MAX_BYTES),
      DOWNLOAD_STALL_TIMEOUT_SEC: "2",
      MEDIA_MAX_WIDTH: "1920",
      MEDIA_MAX_HEIGHT: "1080",
      RATE_LIMIT_PER_MINUTE: "0",
    },
  });
  let corpus: HostileCorpus;
  let files: { url: string; close(): Promise<void> };
  let origin: { url: string; close(): Promise<void> };
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    corpus = await makeHostileCorpus();
    files = await startStaticServer(path.dirname(corpus.normal));
    origin = await startHostileOrigin();
    rx = await startReceiver();
  });
  after(async () => {
    await Promise.all([files.close(), origin.close(), rx.close()]);
    await svc.close();
  });

  const fileUrl = (file: string) => `${files.url}/${path.basename(file)}`;
  const submit = (btId: string, url: string) => svc.post("/video/v4", { accessKey: TEST_KEY, appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback: rx.url, data: { btId, url, detectFrequency: 1 } });
  const callbackOf = async (btId: string, timeoutMs = 120_000): Promise<Json> => (await rx.until((r) => r.some((x) => x.body.btId === btId), timeoutMs)).find((x) => x.body.btId === btId)!.body;
  const queryOf = (btId: string) => svc.post("/video/query/v4", { accessKey: TEST_KEY, btId });

  test("every hostile file → 1905 with its reason, by callback and Query; audio-only is processed (1100)", async () => {
    const cases: Array<{ btId: string; url: string; code: number; reason?: RegExp }> = [
      { btId: "truncated", url: fileUrl(corpus.truncatedMp4), code: 1905, reason: /invalid-data|Invalid data/ },
      { btId: "garbage", url: fileUrl(corpus.garbageMp4), code: 1905, reason: /invalid-data|Invalid data/ },
      { btId: "empty", url: fileUrl(corpus.emptyMp4), code: 1905 },
      { btId: "huge-png", url: fileUrl(corpus.hugePng), code: 1905 },
      { btId: "big-video", url: fileUrl(corpus.bigVideo), code: 1905, reason: /resolution 2560×1440 is over the 1920×1080 limit/ },
      { btId: "header-only", url: fileUrl(corpus.headerOnlyMp4), code: 1905 },
      { btId: "lying-duration", url: fileUrl(corpus.lyingDurationMkv), code: 1905, reason: /duration 360000\.0 s is over the 7200 s limit/ },
      { btId: "endless", url: `${origin.url}/endless`, code: 1905, reason: new RegExp(`exceeds ${FILE_MAX_BYTES} bytes`) },
      { btId: "stall", url: `${origin.url}/stall?file=${encodeURIComponent(corpus.normal)}`, code: 1905, reason: /download stalled: no data for 2 s/ },
      { btId: "audio-only", url: fileUrl(corpus.audioOnly), code: 1100 },
    ];
    for (const c of cases) {
      const ack = await submit(c.btId, c.url);
      assert.equal(ack.code, 1100, `${c.btId} accepted: ${JSON.stringify(ack)}`);
    }
    for (const c of cases) {
      const cb = await callbackOf(c.btId);
      assert.equal(cb.code, c.code, `${c.btId}: ${cb.message}`);
      if (c.code === 1905) assert.match(cb.message, /^Unrecognized content: /, c.btId);
      if (c.reason) assert.match(cb.message, c.reason, c.btId);
      const q = await queryOf(c.btId);
      assert.equal(q.code, c.code, `${c.btId} by Query`);
      assert.equal(q.requestId, cb.requestId);
    }
    const audio = await callbackOf("audio-only");
    assert.deepEqual(audio.frameDetail ?? [], [], "no video: no frames");
    assert.equal(audio.auxInfo.billingImgNum, 0);
  });

  test("the worker is not hung: a normal file completes afterwards, and no ffmpeg child is left running", async () => {
    assert.equal((await submit("normal-after", fileUrl(corpus.normal))).code, 1100);
    const cb = await callbackOf("normal-after");
    assert.equal(cb.code, 1100, cb.message);
    assert.ok(cb.auxInfo.billingImgNum >= 1, "frames were captured and moderated");
    await waitFor(async () => liveChildCount() === 0, 30_000);
  });

  test("wall-clock cap: processing past FILE_PROCESS_MIN_SEC + FILE_PROCESS_TIME_FACTOR × duration → 1905, its ffmpeg runs killed", async () => {
    const limits = svc.engine!.ctx.config.limits;
    const saved = { ...limits };
    // the service reads these per file: a cap of 0.01 × 2 s cannot be met
    Object.assign(limits, { fileProcessMinSec: 0, fileProcessTimeFactor: 0.01 });
    try {
      assert.equal((await submit("over-time", fileUrl(corpus.normal))).code, 1100);
      const cb = await callbackOf("over-time");
      assert.equal(cb.code, 1905);
      assert.match(cb.message, /processing took longer than 0 s/);
    } finally {
      Object.assign(limits, saved);
    }
    await waitFor(async () => liveChildCount() === 0, 30_000);
    assert.equal((await submit("normal-last", fileUrl(corpus.normal))).code, 1100);
    assert.equal((await callbackOf("normal-last")).code, 1100);
  });
});
