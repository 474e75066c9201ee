export interface CaptureOptions {
  durationSec: number | null;
  screenshotType?: 0 | 1 | 2 | 3;
  detectFrequency?: number;
  advancedFrequency?: { durationPoints: number[]; frequencies: number[] };
  checkFrameCount?: number;
}

/**
 * "times": seconds from the start to grab, ascending, each < duration. Empty only when the duration is
 * unknown; then frames are taken every `intervalSec` in one pass.
 */
export type CapturePlan =
  | { mode: "times"; times: number[]; intervalSec: number | null; reason: string }
  | { mode: "keyframes"; reason: string };

export const DEFAULT_DETECT_FREQUENCY_SEC = 5;
export const MIN_FREQUENCY_SEC = 1;
export const MAX_FREQUENCY_SEC = 60;
/** Upper bound on frames per file: 2 h (the contract's longest file) at 1 s. */
export const MAX_CAPTURE_FRAMES = 7200;
/** How far before the end checkFrameCount's last frame sits, so it lands on a decodable frame. */
export const LAST_FRAME_MARGIN_SEC = 0.1;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** 1–60 s, fractions floored, below 1 → 1; absent or not a number → undefined. */
export function normaliseFrequency(v: number | undefined): number | undefined {
  if (v === undefined || !Number.isFinite(v)) return undefined;
  return Math.min(MAX_FREQUENCY_SEC, Math.max(MIN_FREQUENCY_SEC, Math.floor(v)));
}

/** The cadence advancedFrequency gives for a duration, or undefined when the object is unusable. */
export function advancedFrequencyFor(a: CaptureOptions["advancedFrequency"], durationSec: number): number | undefined {
  if (!a || !Array.isArray(a.durationPoints) || !Array.isArray(a.frequencies)) return undefined;
  const { durationPoints: points, frequencies: freqs } = a;
  if (freqs.length !== points.length + 1 || points.some((p) => !Number.isFinite(p))) return undefined;
  let i = points.findIndex((p) => durationSec <= p);
  if (i === -1) i = freqs.length - 1;
  return normaliseFrequency(freqs[i]);
}

function knownDuration(d: number | null): number | null {
  return d !== null && Number.isFinite(d) && d > 0 ? d : null;
}

function evenlySpaced(count: number, endSec: number): number[] {
  if (count <= 1) return [0];
  const step = endSec / (count - 1);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = round3(i * step);
    if (times.length === 0 || t > times[times.length - 1]) times.push(t);
  }
  return times;
}

function everySeconds(freq: number, durationSec: number | null, why: string): CapturePlan {
  if (durationSec === null) {
    return { mode: "times", times: [], intervalSec: freq, reason: `${why}; duration unknown, sampled in one pass` };
  }
  const count = Math.ceil(durationSec / freq);
  if (count > MAX_CAPTURE_FRAMES) {
    const times = evenlySpaced(MAX_CAPTURE_FRAMES, durationSec * (1 - 1 / MAX_CAPTURE_FRAMES));
    return { mode: "times", times, intervalSec: round3(durationSec / MAX_CAPTURE_FRAMES), reason: `${why}; capped at ${MAX_CAPTURE_FRAMES} frames` };
  }
  const times: number[] = [];
  for (let k = 0; k * freq < durationSec; k++) times.push(k * freq);
  return { mode: "times", times, intervalSec: freq, reason: why };
}

function byDetectFrequency(o: CaptureOptions, d: number | null, prefix = ""): CapturePlan {
  const f = normaliseFrequency(o.detectFrequency);
  const why = f === undefined ? `detectFrequency ${DEFAULT_DETECT_FREQUENCY_SEC} s (default)` : `detectFrequency ${f} s`;
  return everySeconds(f ?? DEFAULT_DETECT_FREQUENCY_SEC, d, prefix + why);
}

function byAdvancedFrequency(o: CaptureOptions, d: number | null): CapturePlan | null {
  if (d === null) return null;
  const f = advancedFrequencyFor(o.advancedFrequency, d);
  return f === undefined ? null : everySeconds(f, d, `advancedFrequency: ${round3(d)} s long → every ${f} s`);
}

function byFrameCount(o: CaptureOptions, d: number | null): CapturePlan | null {
  if (d === null || o.checkFrameCount === undefined || !Number.isFinite(o.checkFrameCount)) return null;
  const n = Math.min(MAX_CAPTURE_FRAMES, Math.floor(o.checkFrameCount));
  if (n < 1) return null;
  const margin = Math.min(LAST_FRAME_MARGIN_SEC, d / 10);
  const times = evenlySpaced(n, Math.max(0, d - margin));
  const intervalSec = times.length > 1 ? round3(times[1] - times[0]) : null;
  return { mode: "times", times, intervalSec, reason: `checkFrameCount ${n}` };
}

/** Which frames to grab from a file, following the contract's §2.5 precedence. Pure. */
export function planCapture(o: CaptureOptions): CapturePlan {
  const d = knownDuration(o.durationSec);
  switch (o.screenshotType) {
    case 0:
      return byDetectFrequency(o, d, "screenshotType 0: ");
    case 1:
      return byAdvancedFrequency(o, d) ?? byDetectFrequency(o, d, "screenshotType 1 without usable advancedFrequency/duration: ");
    case 2:
      return byFrameCount(o, d) ?? byDetectFrequency(o, d, "screenshotType 2 without usable checkFrameCount/duration: ");
    case 3:
      return { mode: "keyframes", reason: "screenshotType 3: every keyframe" };
    default:
      return byFrameCount(o, d) ?? byAdvancedFrequency(o, d) ?? byDetectFrequency(o, d);
  }
}
