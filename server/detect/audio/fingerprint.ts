// Chromaprint fingerprints through Debian's fpcalc (child process) and a sliding bit-error comparison in JS.
import path from "node:path";
import { startProcess } from "../../ingest/process";

/** Seconds between two raw fingerprint items: chromaprint hops 4096 − 2731 = 1365 samples at 11 025 Hz. */
export const ITEM_SEC = 1365 / 11025;

export interface Fingerprint {
  fingerprint: number[];
  durationSec: number;
}

export class FingerprintError extends Error {
  override name = "FingerprintError";
}

/**
 * `fpcalc -raw -json` of a media file. fpcalc exits 3 on every file here ("Error decoding audio frame (End of
 * file)") while printing a valid fingerprint, so stdout decides, not the exit code.
 */
export async function fingerprintFile(mediaPath: string, o: { bin?: string; maxSec?: number; timeoutMs?: number } = {}): Promise<Fingerprint> {
  const p = startProcess(o.bin ?? "fpcalc", ["-raw", "-json", "-length", String(o.maxSec ?? 0), mediaPath], { timeoutMs: o.timeoutMs ?? 60_000 });
  const r = await p.done;
  if (r.spawnError) throw new FingerprintError(`fpcalc could not start: ${r.spawnError.message}`);
  if (r.stoppedBy) throw new FingerprintError(`fpcalc ${r.stoppedBy} on ${path.basename(mediaPath)}`);
  let parsed: { duration?: number; fingerprint?: unknown };
  try {
    parsed = JSON.parse(r.stdout.toString("utf8")) as typeof parsed;
  } catch {
    throw new FingerprintError(`fpcalc gave no fingerprint for ${path.basename(mediaPath)}: ${(r.stderr.trim().split("\n").pop() ?? "").split(mediaPath).join(path.basename(mediaPath))}`);
  }
  const fp = parsed.fingerprint;
  if (!Array.isArray(fp) || !fp.every((v) => Number.isInteger(v))) throw new FingerprintError(`fpcalc gave no fingerprint for ${path.basename(mediaPath)}`);
  return { fingerprint: fp as number[], durationSec: Number(parsed.duration ?? 0) };
}

function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export interface CompareOptions {
  /** fewest overlapping items an alignment may use (≈ 0.124 s each); default 40 (≈ 5 s) or the shorter print */
  minOverlap?: number;
}

/**
 * Slides `segment` along `reference` and returns the best alignment: score = 1 − bit-error rate over the
 * overlapping items (1 = identical, ≈ 0.5 = unrelated noise; different music lands near 0.6), and offsetSec =
 * where the segment's start sits in the reference (negative when the segment starts before it).
 */
export function compareFingerprints(segment: ArrayLike<number>, reference: ArrayLike<number>, o: CompareOptions = {}): { score: number; offsetSec: number } {
  const s = Int32Array.from(segment as ArrayLike<number>);
  const r = Int32Array.from(reference as ArrayLike<number>);
  const minOverlap = Math.max(1, Math.min(o.minOverlap ?? 40, s.length, r.length));
  if (s.length === 0 || r.length === 0) return { score: 0, offsetSec: 0 };
  let best = -1;
  let bestOff = 0;
  // off = index in the reference where segment item 0 lands
  for (let off = minOverlap - s.length; off <= r.length - minOverlap; off++) {
    const from = Math.max(0, -off);
    const to = Math.min(s.length, r.length - off);
    let errors = 0;
    for (let i = from; i < to; i++) errors += popcount32(s[i] ^ r[i + off]);
    const score = 1 - errors / (32 * (to - from));
    if (score > best) {
      best = score;
      bestOff = off;
    }
  }
  return { score: Math.round(best * 1000) / 1000, offsetSec: Math.round(bestOff * ITEM_SEC * 100) / 100 };
}
