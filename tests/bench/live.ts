// Live figures: capture → callback-received latency for frames, and how many concurrent streams one
// machine holds at the default 3 s cadence without a growing backlog (CPU per stream).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { selectExpr } from "../../server/ingest/live-args";
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

/** CPU seconds of one process so far (/proc). */
function procCpuSec(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** A bare ffmpeg pull of `url` with the service's capture settings (one frame every `cadence` s to JPEG, discarded): CPU % of a core over `sec`. */
async function barePullCpuPct(url: string, cadence: number, sec: number): Promise<number> {
  const args = ["-v", "error", "-rw_timeout", "10000000", "-i", url, "-map", "0:v:0", "-vf", `${selectExpr(cadence)},scale='min(iw,1280)':-2`, "-vsync", "vfr", "-c:v", "mjpeg", "-q:v", "4", "-f", "mjpeg", "-y", "/dev/null"];
  const child = spawn("ffmpeg", args, { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 3000)); // past the connection and the first keyframe
  const c0 = procCpuSec(child.pid!);
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, sec * 1000));
  const pct = ((procCpuSec(child.pid!) - c0) / ((Date.now() - t0) / 1000)) * 100;
  child.kill("SIGKILL");
  return Math.round(pct * 10) / 10;
}

/** issue #13: frame grabbed → callback received p95 ≤ 1 s at the load held */
const LATENCY_TARGET_P95_MS = 1000;

interface CapacityRun {
  streams: number;
  windowSec: number;
  framesExpectedPerStream: number;
  framesChecked: number;
  framesNotChecked: number;
  minCheckedPerStream: number;
  maxCheckedPerStream: number;
  keptUp: boolean;
  /** frame grabbed → callback received p95 ≤ LATENCY_TARGET_P95_MS */
  latencyWithinTarget: boolean;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  serviceCpuPct: number | null;
  cpuPctPerStream: number | null;
  note?: string;
}

/**
 * Honest capacity: real 720p streams (1, 5, 10, 20 … or BENCH_CAPACITY_COUNTS) at the default 3 s cadence with
 * QR + ADVERT/IMGTEXTRISK (OCR) + EROTIC, each run for BENCH_CAPACITY_WINDOW_SEC (60). A run keeps up when every
 * stream had every frame of the window *checked* (detectType 2 count zero) and none got fewer than 90 % of its
 * cadence; the bench stops at the first count that falls behind. CPU per stream is set beside a bare ffmpeg pull
 * of the same stream with the same capture settings.
 */
export async function benchLiveCapacity(): Promise<Record<string, unknown>> {
  const counts = (process.env.BENCH_CAPACITY_COUNTS ?? "1,5,10,20").split(",").map(Number).filter((n) => n > 0);
  const windowSec = Number(process.env.BENCH_CAPACITY_WINDOW_SEC ?? 60);
  const cadence = 3;
  const overlays = { qr: { text: "https://spam.example/capacity", fromSec: 0, toSec: 3 }, text: { content: "Add WeChat: maifen888 cheap followers", fromSec: 6, toSec: 9 } };
  const spec = { name: "bench-cap-720p", audio: "none" as const, width: 1280, height: 720, fps: 25, ...overlays };

  const probe = await startRtmpSource(spec);
  const bare = await barePullCpuPct(probe.rtmpUrl, cadence, 20).finally(() => probe.close());

  const runs: CapacityRun[] = [];
  let firstBehind: number | null = null;
  for (const n of counts) {
    const sources = await Promise.all(Array.from({ length: n }, () => startRtmpSource(spec)));
    const rx = await startReceiver();
    const svc = await startTestService({ env: { MAX_CONCURRENT_STREAMS: String(n), DETECT_WORKERS: String(os.availableParallelism()), PREVIEW_RETENTION_MIN: "0" } });
    try {
      const ids: string[] = [];
      for (const s of sources) ids.push(String((await svc.post("/videostream/v4", { ...stream(s.rtmpUrl, rx.url, cadence), imgType: "QRCODE_ADVERT_IMGTEXTRISK_EROTIC" })).requestId));
      // every stream has called back once (join + model warm-up), then the window starts
      const taskOf = (x: { body: Record<string, unknown> }) => String(x.body.requestId).replace(/_[va]\d+$/, "");
      const joined = await rx.until((r) => ids.every((id) => r.some((x) => taskOf(x) === id)), 120_000).then(() => true, () => false);
      if (!joined) {
        // some stream never got a first frame called back in two minutes: this count is past what the machine holds
        const started = ids.filter((id) => rx.received.some((x) => taskOf(x) === id)).length;
        runs.push({ streams: n, windowSec: 0, framesExpectedPerStream: windowSec / cadence, framesChecked: 0, framesNotChecked: 0, minCheckedPerStream: 0, maxCheckedPerStream: 0, keptUp: false, latencyWithinTarget: false, latencyP50Ms: null, latencyP95Ms: null, serviceCpuPct: null, cpuPctPerStream: null, note: `only ${started} of ${n} streams had a first frame called back within 120 s` });
        firstBehind = n;
        for (const id of ids) await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
        break;
      }
      await new Promise((r) => setTimeout(r, cadence * 1000));
      const from = rx.received.length;
      const c0 = serviceCpuSec();
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, windowSec * 1000));
      const cpuPct = ((serviceCpuSec() - c0) / ((Date.now() - t0) / 1000)) * 100;
      const window = rx.received.slice(from).filter((r) => r.body.frameDetail);
      const detail = (r: (typeof window)[number]) => r.body.frameDetail as { auxInfo: { imgTime: string; detectType?: number } };
      const checked = window.filter((r) => detail(r).auxInfo.detectType !== 2);
      const perStream = ids.map((id) => checked.filter((r) => taskOf(r) === id).length);
      const expected = windowSec / cadence;
      const lat = checked.map((r) => r.at - imgTimeMs(detail(r).auxInfo.imgTime)).sort((a, b) => a - b);
      const notChecked = window.length - checked.length;
      const keptUp = notChecked === 0 && Math.min(...perStream) >= expected * 0.9;
      runs.push({ streams: n, windowSec: Math.round((Date.now() - t0) / 1000), framesExpectedPerStream: expected, framesChecked: checked.length, framesNotChecked: notChecked, minCheckedPerStream: Math.min(...perStream), maxCheckedPerStream: Math.max(...perStream), keptUp, latencyWithinTarget: percentile(lat, 95) <= LATENCY_TARGET_P95_MS, latencyP50Ms: percentile(lat, 50), latencyP95Ms: percentile(lat, 95), serviceCpuPct: Math.round(cpuPct), cpuPctPerStream: Math.round(cpuPct / n) });
      for (const id of ids) await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
      if (!keptUp) {
        firstBehind = n;
        break;
      }
    } finally {
      await svc.close();
      await rx.close();
      await Promise.all(sources.map((s) => s.close()));
    }
  }
  const held = runs.filter((r) => r.keptUp).at(-1)?.streams ?? 0;
  const heldInTime = runs.filter((r) => r.keptUp && r.latencyWithinTarget).at(-1)?.streams ?? 0;
  const perStream = runs.filter((r) => r.keptUp).at(-1)?.cpuPctPerStream ?? runs[0]?.cpuPctPerStream ?? 0;
  return {
    streamsHeld: held,
    streamsHeldWithinLatencyTarget: heldInTime,
    latencyTargetP95Ms: LATENCY_TARGET_P95_MS,
    firstCountBehind: firstBehind,
    barePullCpuPct: bare,
    cpuPerStreamOverBarePull: bare > 0 ? Math.round((perStream / bare) * 10) / 10 : null,
    runs,
    note: `720p 25 fps sources, one frame every ${cadence} s, QR + OCR + NSFW, ${os.availableParallelism()} detect workers; kept up = every frame of the window checked (detectType 2 count zero) and every stream ≥ 90 % of its cadence; CPU as % of one core used by the service (its process, detector threads and ffmpeg pullers; the publishers excluded)`,
  };
}
