import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { after, describe, test } from "node:test";
import { startRtmpServer } from "../../server/demo/rtmp-server";
import { startFfmpeg } from "../../server/ingest/ffmpeg";
import { speechWav } from "../support/speech";
import { mediaDir } from "../support/media";
import { startRtmpSource } from "../support/live-sources";
import { startTestService, TEST_KEY } from "../support/app";
import { startReceiver, type Received } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const run = promisify(execFile);
const frames = (r: Received[]) => r.filter((x) => x.body.contentType === 1 && x.body.statCode === 0);
const audio = (r: Received[]) => r.filter((x) => x.body.contentType === 2 && x.body.statCode === 0);

describe("live stream options", async () => {
  const svc = await startTestService();
  after(() => svc.close());

  test("detectStep 2: every other frame is detected (auxInfo.detectType 1/2); returnAllImg 0 delivers only risky frames", async () => {
    const src = await startRtmpSource({ name: "steps", audio: "none", qr: { text: "https://spam.example/step", fromSec: 0, toSec: 6 } });
    const rxAll = await startReceiver();
    const rxRisky = await startReceiver();
    try {
      const base = { accessKey: TEST_KEY, appId: "a", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "NONE" };
      const a = await svc.post("/videostream/v4", { ...base, imgCallback: rxAll.url, data: { streamType: "NORMAL", url: src.rtmpUrl, detectFrequency: 1, detectStep: 2, returnAllImg: 1 } });
      const b = await svc.post("/videostream/v4", { ...base, imgCallback: rxRisky.url, data: { streamType: "NORMAL", url: src.flvUrl, detectFrequency: 1 } });
      assert.equal(a.code, 1100);
      assert.equal(b.code, 1100);
      await rxAll.until((r) => frames(r).length >= 4, 60_000);
      await rxRisky.until((r) => frames(r).length >= 2, 60_000);
      for (const f of frames(rxAll.received)) {
        const n = Number(String(f.body.requestId).split("_v")[1]);
        const d = f.body.frameDetail as Json;
        assert.equal(d.auxInfo.detectType, n % 2 === 1 ? 1 : 2, `frame ${n}`);
        if (d.auxInfo.detectType === 2) assert.equal(d.riskLevel, "PASS");
      }
      assert.ok(frames(rxRisky.received).every((f) => (f.body.frameDetail as Json).riskLevel !== "PASS"), "only non-PASS frames without returnAllImg");
      for (const id of [a.requestId, b.requestId]) await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
    } finally {
      await rxAll.close();
      await rxRisky.close();
      await src.close();
    }
  });

  test("spoken contact handle: REJECT segment with the transcript in content, previous text (returnPreText) and a 20 s preAudioUrl (returnPreAudio)", async () => {
    const speech = await speechWav("add me on wechat for a special discount", { leadSec: 1, totalSec: 5 });
    const file = path.join(mediaDir(), "live-speech.mp4");
    await run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=gray:s=320x240:r=10:d=5", "-i", speech, "-c:v", "libx264", "-preset", "veryfast", "-g", "10", "-c:a", "aac", "-ar", "44100", "-shortest", file]);
    const rtmp = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1" });
    const url = rtmp.rtmpUrl(`speech-${Date.now()}`);
    const pub = startFfmpeg(["-re", "-stream_loop", "-1", "-i", file, "-c", "copy", "-f", "flv", url]);
    const rx = await startReceiver();
    try {
      const deadline = Date.now() + 15_000;
      while (!rtmp.isPublishing(url.split("/").pop()!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const ack = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "a", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "ADVERT", imgCallback: rx.url, audioCallback: rx.url, data: { streamType: "NORMAL", url, detectFrequency: 5, returnPreText: 1, returnPreAudio: 1 } });
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const got = await rx.until((r) => audio(r).filter((x) => Number(String(x.body.requestId).split("_a")[1]) >= 2).length >= 1, 90_000);
      const seg = audio(got).find((x) => Number(String(x.body.requestId).split("_a")[1]) >= 2)!.body.audioDetail as Json;
      assert.equal(seg.riskLevel, "REJECT", JSON.stringify(seg));
      assert.equal(seg.riskLabel1, "ad");
      assert.equal(seg.vadCode, 1);
      assert.match(seg.content, /wechat/i);
      assert.equal(seg.content, seg.riskDetail.audioText);
      assert.ok(seg.preAudioUrl, "returnPreAudio gives the previous + current clip");
      const clip = await fetch(seg.preAudioUrl);
      assert.equal(clip.status, 200);
      // 20 s of 16 kHz mono s16 ≈ 640 kB
      assert.ok(Number(clip.headers.get("content-length")) > 600_000, clip.headers.get("content-length") ?? "");
      await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
    } finally {
      await rx.close();
      await pub.stop("aborted");
      await rtmp.close();
    }
  });
});
