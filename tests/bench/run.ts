// `npm run bench`: prints one JSON document with every figure (no pass/fail thresholds: speed lives here).
import { benchDetectors } from "./detectors";
import { benchAudioDetectors } from "./audio-detectors";
import { benchFileRatio } from "./file-ratio";
import { benchHubLatency } from "./hub-latency";
import { benchLiveCapacity, benchLiveLatency } from "./live";
import { benchTimelineScroll } from "./timeline-scroll";
import { benchPreview } from "./preview";

const only = process.argv[2];
const out: Record<string, unknown> = { machine: { cpus: (await import("node:os")).cpus().length, node: process.version }, at: new Date().toISOString() };
const sections: Array<[string, () => Promise<unknown>]> = [
  ["detectors", benchDetectors],
  ["audioDetectors", benchAudioDetectors],
  ["file", benchFileRatio],
  ["hub", () => benchHubLatency()],
  ["liveLatency", () => benchLiveLatency()],
  ["liveCapacity", () => benchLiveCapacity()],
  ["preview", () => benchPreview()],
  ["timelineScroll", () => benchTimelineScroll()],
];
for (const [name, fn] of sections) {
  if (only && only !== name) continue;
  try {
    out[name] = await fn();
  } catch (err) {
    out[name] = { error: (err as Error).message };
  }
}
console.log(JSON.stringify(out, null, 2));
process.exit(0);
