// `npm run bench`: prints one JSON document with every figure (no pass/fail thresholds: speed lives here).
import { benchDetectCost } from "./detect-cost";
import { benchDetectors } from "./detectors";
import { benchAudioDetectors } from "./audio-detectors";
import { benchFileRatio } from "./file-ratio";
import { benchHubLatency } from "./hub-latency";
import { benchLiveCapacity, benchLiveLatency } from "./live";
import { benchTimelineScroll } from "./timeline-scroll";
import { benchPreview } from "./preview";
import { benchScale } from "./scale";
import { benchWebrtcLatency } from "./webrtc-latency";

type Section = Record<string, unknown> | undefined;
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const figure = (value: unknown, target: string, floor?: unknown, ratio?: unknown) => ({ value: num(value), ...(floor === undefined ? {} : { floor: num(floor) }), ...(ratio === undefined ? {} : { ratio: num(ratio) }), target });

/** Every headline figure beside its floor (the bare tools doing the same work) and its target, in one place. */
function summarize(o: Record<string, unknown>): Record<string, unknown> {
  const file = o.file as Section;
  const floor = file?.floor as Section;
  const cap = o.liveCapacity as Section;
  const lat = o.liveLatency as Section;
  const hub = o.hub as Section;
  const rtc = o.webrtcLatency as Section;
  const glass = (p: unknown) => ({ p50: num((p as Section)?.glassToCallbackP50Ms), p95: num((p as Section)?.glassToCallbackP95Ms), floor: num((p as Section)?.detectP50Ms), joinToFirstCallback: num((p as Section)?.joinToFirstCallbackMs), firstFrameAge: num((p as Section)?.firstFrameGlassToCallbackMs) });
  const heldRun = (cap?.runs as Array<Record<string, unknown>> | undefined)?.filter((r) => r.keptUp).at(-1);
  return {
    fileProcessingSec: figure(file?.processingSec, "≤ 1.3 × floor", floor?.sec, file?.fileOverFloor),
    fileRatio: figure(file?.ratio, "≤ vendor 0.333 (≈ 0.08 at the floor)", floor?.ratio),
    detectorPipelineOverIsolation: figure(file?.detectorPipelineOverIsolation, "≥ 0.8"),
    streamsHeld: { value: num(cap?.streamsHeld), withinLatencyTarget: num(cap?.streamsHeldWithinLatencyTarget), firstCountBehind: num(cap?.firstCountBehind), target: "≥ 20 (720p, 3 s cadence, QR + OCR + NSFW, every frame checked, p95 ≤ 1 s above one stream alone)" },
    cpuPctPerStream: figure(heldRun?.cpuPctPerStream, "≤ 1.5 × a bare pull", cap?.barePullCpuPct, cap?.cpuPerStreamOverBarePull),
    captureToCallbackMs: { p50: num(lat?.captureToCallbackP50Ms), p95: num(lat?.captureToCallbackP95Ms), atStreamsHeld: heldRun ? { p50: num(heldRun.latencyP50Ms), p95: num(heldRun.latencyP95Ms) } : null, target: "p95 ≤ 1000 at the streams held" },
    fanOutCallbacksPerSec: figure(hub?.callbacksPerSecToAllBrowsers, "≥ 0.5 × raw socket.io", hub?.rawSocketIoBroadcastsPerSec, hub?.receiverOverRaw),
    scaleOut: { filesPerMinute: ((o.scale as Section)?.files as Array<Record<string, unknown>> | undefined)?.map((f) => ({ workers: num(f.workers), perMinute: num(f.filesPerMinute) })) ?? null, takeoverMs: num(((o.scale as Section)?.takeover as Section)?.takeoverMs), target: "takeover < 15 s" },
    glassToCallbackMsByWayIn: { rtmp: { ...glass(rtc?.rtmp), transportFloor: num((rtc?.rtmp as Section)?.bareTransportP50Ms) }, rtmpZerolatency: { ...glass(rtc?.rtmpZerolatency), transportFloor: num((rtc?.rtmpZerolatency as Section)?.bareTransportP50Ms) }, whip: glass(rtc?.whip), whipViaWhep: glass(rtc?.whipViaWhep), whep: glass(rtc?.whep), whipAheadOfRtmp: num(rtc?.whipAheadOfRtmpP50Ms), whipViaWhepAheadOfRtmp: num(rtc?.whipViaWhepAheadOfRtmpP50Ms), whepAheadOfRtmp: num(rtc?.whepAheadOfRtmpP50Ms), whipViaWhepAheadOfZerolatency: num(rtc?.whipViaWhepAheadOfZerolatencyP50Ms), whepAheadOfZerolatency: num(rtc?.whepAheadOfZerolatencyP50Ms), joinAhead: rtc?.joinAheadMs ?? null, target: "WebRTC ahead of RTMP by ≥ the GOP wait (2000 ms) at the join (joinAhead: submit → first callback); steady-state p50s beside; floor = detection time" },
    callbackToBrowserAt500PerSec: { p50: num(hub?.pacedP50Ms), p99: num(hub?.pacedP99Ms), target: "p99 < 50 ms" },
  };
}

const only = process.argv[2];
const out: Record<string, unknown> = { machine: { cpus: (await import("node:os")).cpus().length, node: process.version }, at: new Date().toISOString() };
const sections: Array<[string, () => Promise<unknown>]> = [
  ["detectors", benchDetectors],
  ["audioDetectors", benchAudioDetectors],
  ["file", benchFileRatio],
  ["hub", () => benchHubLatency()],
  ["liveLatency", () => benchLiveLatency()],
  ["webrtcLatency", () => benchWebrtcLatency()],
  ["liveCapacity", () => benchLiveCapacity()],
  ["detectCost", () => benchDetectCost()],
  ["preview", () => benchPreview()],
  ["timelineScroll", () => benchTimelineScroll()],
  ["scale", () => benchScale()],
];
for (const [name, fn] of sections) {
  if (only && only !== name) continue;
  try {
    out[name] = await fn();
  } catch (err) {
    out[name] = { error: (err as Error).message };
  }
}
out.summary = summarize(out);
console.log(JSON.stringify(out, null, 2));
process.exit(0);
