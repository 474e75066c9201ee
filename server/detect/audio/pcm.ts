// Segment audio as mono float samples, plus the loudness figures that decide "silent".
import { readFile } from "node:fs/promises";
import { readWavPcm16 } from "../../ingest/wav";

export interface MonoAudio {
  samples: Float32Array;
  sampleRate: number;
  durationSec: number;
}

/** Reads a 16-bit PCM WAV and mixes it down to mono floats in [-1, 1]. */
export async function readMonoWav(wavPath: string): Promise<MonoAudio> {
  const { samples, sampleRate, channels } = readWavPcm16(await readFile(wavPath));
  const n = Math.floor(samples.length / channels);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let c = 0; c < channels; c++) v += samples[i * channels + c];
    out[i] = v / (channels * 32768);
  }
  return { samples: out, sampleRate, durationSec: n / sampleRate };
}

/** Loudest 20 ms frame in dBFS (−100 for digital silence). */
export function peakFrameDb(samples: Float32Array, sampleRate: number): number {
  const len = Math.max(1, Math.round(sampleRate * 0.02));
  let best = 0;
  for (let start = 0; start + len <= samples.length; start += len) {
    let acc = 0;
    for (let i = start; i < start + len; i++) acc += samples[i] * samples[i];
    best = Math.max(best, acc / len);
  }
  return best > 0 ? Math.max(-100, 10 * Math.log10(best)) : -100;
}
