import { readFile } from "node:fs/promises";
import { readWavPcm16 } from "./wav";

/** dBFS reported for digital silence (log of zero). */
export const SILENCE_DB = -100;
const FRAME_SEC = 0.02;
/** Frames quieter than this are never activity, whatever the rest of the clip does. */
const ABSOLUTE_FLOOR_DB = -50;
/** Activity must stand this far above the clip's quiet frames (10th percentile)… */
const ABOVE_NOISE_DB = 12;
/** …unless the clip is steady, where anything within this of the peak counts. */
const BELOW_PEAK_DB = 20;

const toDb = (meanSquare: number) => (meanSquare > 0 ? Math.max(SILENCE_DB, 10 * Math.log10(meanSquare)) : SILENCE_DB);

/** Per-frame mean-square energy of mono-mixed samples scaled to [-1, 1]. */
export function frameEnergies(samples: Int16Array, channels: number, sampleRate: number): { frames: number[]; total: number } {
  const frameLen = Math.max(1, Math.round(sampleRate * FRAME_SEC));
  const count = Math.floor(samples.length / channels);
  const frames: number[] = [];
  let sum = 0;
  let acc = 0;
  let n = 0;
  for (let i = 0; i < count; i++) {
    let v = 0;
    for (let c = 0; c < channels; c++) v += samples[i * channels + c];
    v /= channels * 32768;
    acc += v * v;
    sum += v * v;
    if (++n === frameLen) {
      frames.push(acc / n);
      acc = 0;
      n = 0;
    }
  }
  if (n > frameLen / 2) frames.push(acc / n);
  return { frames, total: count ? sum / count : 0 };
}

/** rmsDb (dBFS) and the share of 20 ms frames whose energy marks activity, from energies alone. */
export function speechEnergyOf(samples: Int16Array, channels: number, sampleRate: number): { rmsDb: number; voicedRatio: number } {
  const { frames, total } = frameEnergies(samples, channels, sampleRate);
  if (frames.length === 0) return { rmsDb: SILENCE_DB, voicedRatio: 0 };
  const dbs = frames.map(toDb);
  const sorted = [...dbs].sort((a, b) => a - b);
  const noiseFloor = sorted[Math.floor(sorted.length * 0.1)];
  const peak = sorted[sorted.length - 1];
  const threshold = Math.max(ABSOLUTE_FLOOR_DB, Math.min(noiseFloor + ABOVE_NOISE_DB, peak - BELOW_PEAK_DB));
  const active = dbs.filter((db) => db > threshold).length;
  return { rmsDb: Math.round(toDb(total) * 10) / 10, voicedRatio: Math.round((active / dbs.length) * 1000) / 1000 };
}

/**
 * Energy-based activity measure of a 16-bit WAV (stand-in for vadCode until a real VAD lands).
 * It measures loudness, not speech: a steady tone or loud noise counts as active.
 */
export async function measureSpeechEnergy(wavPath: string): Promise<{ rmsDb: number; voicedRatio: number }> {
  const { samples, channels, sampleRate } = readWavPcm16(await readFile(wavPath));
  return speechEnergyOf(samples, channels, sampleRate);
}
