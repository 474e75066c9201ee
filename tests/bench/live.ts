// Live figures: capture → callback-received latency for frames, and how many concurrent streams one
// machine holds at the default 3 s cadence without a growing backlog (CPU per stream).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { keyframeSelectExpr, selectExpr } from "../../server/ingest/live-args";
import { startHlsSource, startRtmpSource } from "../support/live-sources";
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

/**
 * A bare ffmpeg pull of `url` doing the service's capture alone (one frame every `cadence` s to JPEG, discarded):
 * decoding keyframes only (the service's way at a cadence ≥ 2 s over a shorter GOP) or every frame. CPU % of a core over `sec`.
 */
async function barePullCpuPct(url: string, cadence: number, sec: number, keyframes: boolean): Promise<number> {
  const decode = keyframes ? ["-skip_frame:v", "nokey"] : [];
  const select = (keyframes ? keyframeSelectExpr : selectExpr)(cadence);
  const args = ["-v", "error", "-rw_timeout", "10000000", ...decode, "-i", url, "-map", "0:v:0", "-vf", `${select},scale='min(iw,1280)':-2`, "-vsync", "vfr", "-c:v", "mjpeg", "-q:v", "4", "-f", "mjpeg", "-y", "/dev/null"];
  const child = spawn("ffmpeg", args, { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 3000)); // past the connection and the first keyframe
  const c0 = procCpuSec(child.pid!);
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, sec * 1000));
  const pct = ((procCpuSec(child.pid!) - c0) / ((Date.now() - t0) / 1000)) * 100;
  child.kill("SIGKILL");
  return Math.round(pct * 10) / 10;
}

interface CapacityRun {
  streams: number;
  windowSec: number;
  framesExpectedPerStream: number;
  framesChecked: number;
  framesNotChecked: number;
  /** checked by reusing an unchanged frame's verdict (auxInfo.unchangedFrom) */
  framesReused: number;
  minCheckedPerStream: number;
  maxCheckedPerStream: number;
  keptUp: boolean;
  /** p95 at most LATENCY_ABOVE_ONE_MS above the one-stream run's */
  latencyWithinTarget: boolean;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  /** p50 / p95 of each part of capture → callback */
  latencyPartsMs?: Record<string, { p50: number; p95: number }>;
  latencyP95AboveOneStreamMs: number | null;
  serviceCpuPct: number | null;
  cpuPctPerStream: number | null;
  note?: string;
}

/** issue #28: capture → callback p95 at most 1 s above one stream alone on the same source, in the same run */
const LATENCY_ABOVE_ONE_MS = 1000;

/**
 * Capacity with sources that cost almost nothing (issue #28): one 720p 25 fps file (2 s GOP, a QR window and an
 * ad-text window) looped by stream copy into one live HLS playlist, pulled N times as `live.m3u8?s=i`; one frame
 * every 3 s, QR + OCR + NSFW, returnAllImg 1. Counts from BENCH_CAPACITY_COUNTS (default 1,10,20,40; the first is
 * the latency baseline), each run after a warm-up of BENCH_CAPACITY_WARMUP_SEC (30) for BENCH_CAPACITY_WINDOW_SEC
 * (60); every count is tried. BENCH_CAPACITY_SERVICE_ENV ("LIVE_KEYFRAMES=0 FRAME_REUSE=0") measures the service
 * with steps turned off. A run keeps up when no frame of the window was called back unchecked and every stream got
 * ≥ 90 % of its slots.
 */
export async function benchLiveCapacity(): Promise<Record<string, unknown>> {
  const counts = (process.env.BENCH_CAPACITY_COUNTS ?? "1,10,20,40").split(",").map(Number).filter((n) => n > 0);
  const windowSec = Number(process.env.BENCH_CAPACITY_WINDOW_SEC ?? 60);
  const warmupSec = Number(process.env.BENCH_CAPACITY_WARMUP_SEC ?? 30);
  const serviceEnv = Object.fromEntries((process.env.BENCH_CAPACITY_SERVICE_ENV ?? "").split(/\s+/).filter(Boolean).map((kv) => kv.split("=", 2) as [string, string]));
  const cadence = 3;
  const overlays = { qr: { text: "https://spam.example/capacity", fromSec: 0, toSec: 3 }, text: { content: "Add WeChat: maifen888 cheap followers", fromSec: 6, toSec: 9 } };
  const src = await startHlsSource({ name: "bench-cap-720p", spec: { audio: "none", width: 1280, height: 720, fps: 25, bFrames: 0, ...overlays } });
  try {
    const bareKeyframes = await barePullCpuPct(`${src.url}?s=bare`, cadence, 20, true);
    const bareEveryFrame = await barePullCpuPct(`${src.url}?s=bare`, cadence, 20, false);
    const runs: CapacityRun[] = [];
    for (const n of counts) runs.push(await capacityRun(n, `${src.url}`, { windowSec, warmupSec, cadence, serviceEnv }));
    const one = runs.find((r) => r.streams === 1)?.latencyP95Ms ?? null;
    for (const r of runs) {
      r.latencyP95AboveOneStreamMs = one !== null && r.latencyP95Ms !== null ? r.latencyP95Ms - one : null;
      r.latencyWithinTarget = r.latencyP95AboveOneStreamMs !== null && r.latencyP95AboveOneStreamMs <= LATENCY_ABOVE_ONE_MS;
    }
    const held = runs.filter((r) => r.keptUp).at(-1)?.streams ?? 0;
    const heldInTime = runs.filter((r) => r.keptUp && r.latencyWithinTarget).at(-1)?.streams ?? 0;
    const perStream = runs.filter((r) => r.keptUp).at(-1)?.cpuPctPerStream ?? runs[0]?.cpuPctPerStream ?? 0;
    return {
      streamsHeld: held,
      streamsHeldWithinLatencyTarget: heldInTime,
      latencyTarget: `p95 ≤ ${LATENCY_ABOVE_ONE_MS} ms above one stream alone`,
      firstCountBehind: runs.find((r) => !r.keptUp)?.streams ?? null,
      barePullCpuPct: bareKeyframes,
      barePullEveryFrameCpuPct: bareEveryFrame,
      cpuPerStreamOverBarePull: bareKeyframes > 0 ? Math.round((perStream / bareKeyframes) * 10) / 10 : null,
      serviceEnv,
      runs,
      note: `one 720p 25 fps HLS source (2 s GOP, no B-frames) pulled N times, one frame every ${cadence} s, QR + OCR + NSFW, ${os.availableParallelism()} detect workers; kept up = no frame of the window called back unchecked (detectType 2) and every stream ≥ 90 % of its slots; CPU as % of one core used by the service (its process, detector threads and ffmpeg pullers; the HLS writer excluded); the bare pulls decode keyframes only / every frame`,
    };
  } finally {
    await src.close();
  }
}

async function capacityRun(n: number, url: string, o: { windowSec: number; warmupSec: number; cadence: number; serviceEnv: Record<string, string> }): Promise<CapacityRun> {
  const { windowSec, cadence } = o;
  const rx = await startReceiver();
  const svc = await startTestService({ env: { MAX_CONCURRENT_STREAMS: String(n), STREAM_CAPACITY: String(n), DETECT_WORKERS: String(os.availableParallelism()), PREVIEW_RETENTION_MIN: "0", ...o.serviceEnv } });
  const expected = windowSec / cadence;
  const empty = { windowSec: 0, framesExpectedPerStream: expected, framesChecked: 0, framesNotChecked: 0, framesReused: 0, minCheckedPerStream: 0, maxCheckedPerStream: 0, keptUp: false, latencyWithinTarget: false, latencyP50Ms: null, latencyP95Ms: null, latencyP95AboveOneStreamMs: null, serviceCpuPct: null, cpuPctPerStream: null };
  const ids: string[] = [];
  try {
    for (let i = 0; i < n; i++) ids.push(String((await svc.post("/videostream/v4", { ...stream(`${url}?s=${i}`, rx.url, cadence), imgType: "QRCODE_ADVERT_IMGTEXTRISK_EROTIC" })).requestId));
    const taskOf = (x: { body: Record<string, unknown> }) => String(x.body.requestId).replace(/_[va]\d+$/, "");
    const joined = await rx.until((r) => ids.every((id) => r.some((x) => taskOf(x) === id)), 120_000).then(() => true, () => false);
    if (!joined) {
      const started = ids.filter((id) => rx.received.some((x) => taskOf(x) === id)).length;
      return { streams: n, ...empty, note: `only ${started} of ${n} streams had a first frame called back within 120 s` };
    }
    await new Promise((r) => setTimeout(r, o.warmupSec * 1000));
    const from = rx.received.length;
    const c0 = serviceCpuSec();
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, windowSec * 1000));
    const cpuPct = ((serviceCpuSec() - c0) / ((Date.now() - t0) / 1000)) * 100;
    const window = rx.received.slice(from).filter((r) => r.body.frameDetail);
    const detail = (r: (typeof window)[number]) => r.body.frameDetail as { auxInfo: { imgTime: string; detectType?: number; unchangedFrom?: string; beginProcessTime: number; finishProcessTime: number } };
    const checked = window.filter((r) => detail(r).auxInfo.detectType !== 2);
    const perStream = ids.map((id) => checked.filter((r) => taskOf(r) === id).length);
    const lat = checked.map((r) => r.at - imgTimeMs(detail(r).auxInfo.imgTime)).sort((a, b) => a - b);
    // where the time goes: capture → detection asked for (the pull's delivery, the stream's own queue), → verdict (the
    // detect pool's queue and the detectors), → callback received (outbox and HTTP)
    const part = (f: (a: ReturnType<typeof detail>["auxInfo"], at: number) => number) => {
      const xs = checked.map((r) => f(detail(r).auxInfo, r.at)).sort((a, b) => a - b);
      return { p50: percentile(xs, 50), p95: percentile(xs, 95) };
    };
    const latencyPartsMs = {
      captureToDetectStart: part((a) => a.beginProcessTime - imgTimeMs(a.imgTime)),
      detectStartToVerdict: part((a) => a.finishProcessTime - a.beginProcessTime),
      verdictToCallback: part((a, at) => at - a.finishProcessTime),
    };
    const notChecked = window.length - checked.length;
    return {
      streams: n,
      ...empty,
      windowSec: Math.round((Date.now() - t0) / 1000),
      framesChecked: checked.length,
      framesNotChecked: notChecked,
      framesReused: checked.filter((r) => detail(r).auxInfo.unchangedFrom).length,
      minCheckedPerStream: Math.min(...perStream),
      maxCheckedPerStream: Math.max(...perStream),
      keptUp: notChecked === 0 && Math.min(...perStream) >= expected * 0.9,
      latencyP50Ms: percentile(lat, 50),
      latencyP95Ms: percentile(lat, 95),
      latencyPartsMs,
      serviceCpuPct: Math.round(cpuPct),
      cpuPctPerStream: Math.round(cpuPct / n),
    };
  } finally {
    for (const id of ids) await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id }).catch(() => undefined);
    await svc.close();
    await rx.close();
  }
}
