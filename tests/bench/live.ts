// Live figures: capture → callback-received latency for frames, and how many concurrent streams one
// machine holds at the default 3 s cadence without a growing backlog (CPU per stream).
import os from "node:os";
import { startRtmpSource } from "../support/live-sources";
import { startTestService, TEST_KEY } from "../support/app";
import { startReceiver } from "../support/net";
import { percentile, pullerCpuSec } from "./stats";

const stream = (url: string, cb: string, detectFrequency: number) => ({
  accessKey: TEST_KEY,
  appId: "bench",
  eventId: "VIDEOSTREAM",
  imgType: "QRCODE_ADVERT_EROTIC",
  audioType: "NONE",
  imgCallback: cb,
  data: { streamType: "NORMAL", url, tokenId: "bench", detectFrequency, returnAllImg: 1 },
});

/** imgTime is local wall time with ms; parse it back to epoch ms. */
const imgTimeMs = (s: string) => new Date(s.replace(" ", "T")).getTime();

export async function benchLiveLatency(frames = 20): Promise<Record<string, number>> {
  const src = await startRtmpSource({ name: "bench-latency", audio: "none" });
  const rx = await startReceiver();
  const svc = await startTestService();
  try {
    const ack = await svc.post("/videostream/v4", stream(src.rtmpUrl, rx.url, 1));
    await rx.until((r) => r.length >= frames + 2, 120_000);
    // skip the first two frames (join and model warm-up)
    const lat = rx.received.slice(2, frames + 2).map((r) => r.at - imgTimeMs((r.body.frameDetail as { auxInfo: { imgTime: string } }).auxInfo.imgTime)).sort((a, b) => a - b);
    await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
    return { frames: lat.length, captureToCallbackP50Ms: percentile(lat, 50), captureToCallbackP95Ms: percentile(lat, 95) };
  } finally {
    await svc.close();
    await rx.close();
    await src.close();
  }
}

/** CPU seconds used so far by this process (incl. detector threads) and by the service's ffmpeg pullers (not the test publishers). */
function serviceCpuSec(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6 + pullerCpuSec();
}

/** Runs N streams at the default cadence for a window; backlog = frames captured but not yet called back. */
export async function benchLiveCapacity(counts = [1, 2, 4], windowSec = 30): Promise<Record<string, unknown>> {
  const out: Record<string, unknown>[] = [];
  for (const n of counts) {
    const sources = await Promise.all(Array.from({ length: n }, (_, i) => startRtmpSource({ name: `bench-cap-${i}`, audio: "none" })));
    const rx = await startReceiver();
    const svc = await startTestService({ env: { MAX_CONCURRENT_STREAMS: String(n) } });
    try {
      for (const s of sources) await svc.post("/videostream/v4", stream(s.rtmpUrl, rx.url, 3));
      await rx.until((r) => r.length >= n, 60_000);
      const before = serviceCpuSec();
      const startCount = rx.received.length;
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, windowSec * 1000));
      const after = serviceCpuSec();
      const got = rx.received.length - startCount;
      const expected = (n * windowSec) / 3;
      const recent = rx.received.slice(-n * 3).map((r) => r.at - imgTimeMs((r.body.frameDetail as { auxInfo: { imgTime: string } }).auxInfo.imgTime)).sort((a, b) => a - b);
      const serviceCpuPct = ((after - before) / ((Date.now() - t0) / 1000)) * 100;
      out.push({ streams: n, windowSec: Math.round((Date.now() - t0) / 1000), framesCalledBack: got, framesExpected: expected, keptUp: got >= expected * 0.9, latestLatencyP50Ms: percentile(recent, 50), serviceCpuPct: Math.round(serviceCpuPct), cpuPctPerStream: Math.round(serviceCpuPct / n) });
    } finally {
      await svc.close();
      await rx.close();
      await Promise.all(sources.map((s) => s.close()));
    }
  }
  const last = out[out.length - 1] as { cpuPctPerStream: number };
  return { runs: out, estimatedMaxStreams: Math.floor((os.cpus().length * 100 * 0.8) / Math.max(1, last.cpuPctPerStream)), note: "CPU as % of one core used by the service (its process, detector threads and ffmpeg pullers; the test publishers excluded); the estimate keeps 20 % headroom" };
}
