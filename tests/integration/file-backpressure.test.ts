// A file whose frames are extracted far faster than they are detected: more frames than the detector pool queues
// (its queueLimit, 64) would once fail the whole file with QueueFullError. The pipeline hands them over a few at
// a time, so every frame is detected and the file succeeds. Detection is made slow with the pool's own test hook
// (real workers, real queue), extraction is fast (a small, 2 fps grey clip).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { WorkerDetectPool } from "../../server/detect/pool";
import { startTestService, TEST_KEY } from "../support/app";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { waitFor } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let svc: Awaited<ReturnType<typeof startTestService>>;
let media: Awaited<ReturnType<typeof startStaticServer>>;
const FRAMES = 150;

before(async () => {
  svc = await startTestService();
  media = await startStaticServer(mediaDir());
});
after(async () => {
  await svc.close();
  await media.close();
});

test(`${FRAMES} frames captured faster than detected: every one is detected, the file succeeds`, async () => {
  const file = await makeVideo({ name: "backpressure", durationSec: FRAMES, width: 320, height: 180, fps: 2, audio: "none", background: "gray" });
  const pool = svc.engine!.ctx.detect as WorkerDetectPool;
  pool.setMinJobMsForTest(40);
  try {
    const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "backpressure-1", url: `${media.url}/${file.split("/").pop()}`, detectFrequency: 1, returnAllImg: 1 } });
    assert.equal(ack.code, 1100);
    let result: Json = {};
    await waitFor(async () => {
      result = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "backpressure-1" });
      return result.code !== 1101;
    }, 120_000, 250);
    assert.equal(result.code, 1100, `file result: ${result.code} ${result.message}`);
    assert.equal(result.frameDetail.length, FRAMES);
    assert.equal(pool.stats().pending, 0);
  } finally {
    pool.setMinJobMsForTest(0);
  }
});
