// Live preview figures (issue #12.1): how stale the newest preview media is when it becomes available, what a
// player one segment behind the edge therefore shows at best, and the extra CPU the preview costs a stream's pull.
// Measured on a real RTMP source (ffmpeg publishing in real time, 2 s GOP) pulled by the real service.
import fs from "node:fs";
import path from "node:path";
import { startRtmpSource } from "../support/live-sources";
import { startTestService, TEST_KEY } from "../support/app";
import { startReceiver } from "../support/net";
import { PreviewRing } from "../../server/preview/playlist";
import { percentile, pullerCpuSec } from "./stats";

const request = (url: string, cb: string) => ({
  accessKey: TEST_KEY,
  appId: "bench",
  eventId: "VIDEOSTREAM",
  imgType: "QRCODE",
  audioType: "NONE",
  imgCallback: cb,
  data: { streamType: "NORMAL", url, tokenId: "bench", detectFrequency: 3, returnAllImg: 1 },
});


/** One stream for `windowSec` with the preview on or off; returns puller CPU % of a core and (preview on) the edge lags. */
async function run(preview: boolean, windowSec: number) {
  const src = await startRtmpSource({ name: `bench-preview-${preview ? "on" : "off"}`, audio: "tone" });
  const rx = await startReceiver();
  const svc = await startTestService({ env: preview ? { PREVIEW_SEGMENT_SEC: "1" } : { PREVIEW_RETENTION_MIN: "0" } });
  try {
    const ack = await svc.post("/videostream/v4", request(src.rtmpUrl, rx.url));
    const playlist = path.join(svc.dataDir, "media", String(ack.requestId), "preview", "index.m3u8");
    // settle: the pull joined and (preview on) the first segments are out
    await rx.until((r) => r.length >= 2, 60_000);
    const lags: number[] = [];
    const durations: number[] = [];
    let lastSeq = -1;
    const cpu0 = pullerCpuSec();
    const t0 = Date.now();
    while (Date.now() - t0 < windowSec * 1000) {
      if (preview) {
        const text = await fs.promises.readFile(playlist, "utf8").catch(() => "");
        const newest = PreviewRing.parse(text).segments.at(-1);
        if (newest && newest.seq !== lastSeq) {
          // the moment a segment is listed, how old its last media is
          if (lastSeq >= 0) {
            lags.push(Date.now() - (newest.startMs + newest.durationSec * 1000));
            durations.push(newest.durationSec * 1000);
          }
          lastSeq = newest.seq;
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const cpuPct = ((pullerCpuSec() - cpu0) / ((Date.now() - t0) / 1000)) * 100;
    await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
    return { cpuPct, lags: lags.sort((a, b) => a - b), durations: durations.sort((a, b) => a - b) };
  } finally {
    await svc.close();
    await rx.close();
    await src.close();
  }
}

export async function benchPreview(windowSec = Number(process.env.BENCH_PREVIEW_SEC ?? 30)) {
  const off = await run(false, windowSec);
  const on = await run(true, windowSec);
  const edgeP50 = percentile(on.lags, 50);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    what: "edge lag = when a preview segment is listed, wall clock minus the end of its media (program date-time from the pull's media clock); the player (hls.js) holds one segment + 0.5 s behind the edge, and copy-remuxed segments are cut at the source's keyframes (PREVIEW_SEGMENT_SEC=1, the test source's GOP is 2 s)",
    segments: on.lags.length,
    segmentP50Ms: percentile(on.durations, 50),
    edgeLagP50Ms: edgeP50,
    edgeLagP95Ms: percentile(on.lags, 95),
    expectedPlayerLatencyP50Ms: Math.round(edgeP50 + percentile(on.durations, 50) + 500),
    pullerCpuPctPreviewOff: round(off.cpuPct),
    pullerCpuPctPreviewOn: round(on.cpuPct),
    previewExtraCpuPctOfCore: round(on.cpuPct - off.cpuPct),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchPreview(), null, 2));
  process.exit(0);
}
