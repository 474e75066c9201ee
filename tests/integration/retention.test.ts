import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startTestService, TEST_KEY } from "../support/app";
import { waitFor } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test("after the retention, Query answers 1902 and media links stop working", async () => {
  // 0.003 h ≈ 11 s of retention
  const svc = await startTestService({ env: { RESULT_RETENTION_HOURS: "0.003" } });
  const web = await startStaticServer(mediaDir());
  try {
    const file = await makeVideo({ name: "plain", durationSec: 12, width: 640, height: 360, audio: "tone" });
    const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "v", imgType: "QRCODE", audioType: "NONE", data: { btId: "short-lived", url: `${web.url}/${path.basename(file)}`, returnAllImg: 1 } });
    assert.equal(ack.code, 1100);
    const done = await waitFor(async () => {
      const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "short-lived" });
      return q.code === 1100 ? (q as Json) : null;
    }, 60_000, 200);
    const img = done.frameDetail[0].imgUrl as string;
    assert.equal((await fetch(img)).status, 200);
    const gone = await waitFor(async () => {
      const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "short-lived" });
      return q.code === 1902 ? q : null;
    }, 30_000, 500);
    assert.match(gone.message as string, /retention|not found/);
    assert.equal((await fetch(img)).status, 403);
  } finally {
    await web.close();
    await svc.close();
  }
});
