// Unchanged-frame reuse through a real stream (issue #28 item 4): a still grey picture whose QR code appears for 2 s
// of every 9 s loop. The still frames reuse the last detected verdict (auxInfo.unchangedFrom, called back as
// checked); every frame showing the code is detected and flagged, never reused.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { startTestService, TEST_KEY } from "../support/app";
import { startReceiver } from "../support/net";

let src: RtmpSource;
let svc: Awaited<ReturnType<typeof startTestService>>;
let rx: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  [src, svc, rx] = await Promise.all([startRtmpSource({ name: "reuse-still", audio: "none", background: "gray", qr: { text: "https://spam.example/reuse", fromSec: 5, toSec: 7 } }), startTestService(), startReceiver()]);
});
after(async () => {
  await svc?.close();
  await Promise.all([rx?.close(), src?.close()]);
});

interface Detail {
  riskLevel: string;
  riskLabel1: string;
  auxInfo: { unchangedFrom?: string; detectType?: number };
}

test("still frames reuse the last detected verdict; a QR code appearing is detected every time", async () => {
  const ack = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "NORMAL", url: src.rtmpUrl, tokenId: "reuse", detectFrequency: 2, returnAllImg: 1 } });
  assert.equal(ack.code, 1100, JSON.stringify(ack));
  const frames = () => rx.received.filter((r) => r.body.frameDetail);
  const detail = (r: (typeof rx.received)[number]) => r.body.frameDetail as Detail;
  const flagged = () => frames().filter((r) => detail(r).riskLabel1 !== "normal");
  try {
    // two loops: the code shown twice, the still picture around it
    await rx.until(() => flagged().length >= 2 && frames().some((r) => detail(r).auxInfo.unchangedFrom), 120_000);
  } finally {
    await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
  }
  const byId = new Map(frames().map((r) => [String(r.body.requestId), detail(r)]));
  for (const r of flagged()) assert.equal(detail(r).auxInfo.unchangedFrom, undefined, `a frame with the code is detected, not reused: ${String(r.body.requestId)}`);
  const reused = frames().filter((r) => detail(r).auxInfo.unchangedFrom);
  for (const r of reused) {
    const d = detail(r);
    assert.equal(d.auxInfo.detectType, undefined, "a reused frame is called back as checked");
    const from = byId.get(d.auxInfo.unchangedFrom!);
    assert.ok(from, `unchangedFrom names a frame called back before: ${d.auxInfo.unchangedFrom}`);
    assert.equal(from.auxInfo.unchangedFrom, undefined, "it names a detected frame");
    assert.deepEqual([d.riskLevel, d.riskLabel1], [from.riskLevel, from.riskLabel1], "it carries that frame's verdict");
  }
});
