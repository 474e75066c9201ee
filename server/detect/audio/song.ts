// SING measure: held, pitched notes (a melody) vs the gliding, broken pitch of speech. YIN pitch track at 8 kHz.

export interface SongFeatures {
  /** share of 20 ms frames (of the audible ones) with a clear pitch */
  voicedRatio: number;
  /** share of audible frames inside held notes (pitch steady within ±noteToleranceSt for ≥ minNoteSec) */
  noteRatio: number;
  /** distinct semitones among the held notes */
  distinctNotes: number;
  /** held notes found */
  notes: number;
  /** audible frames (above the loudness floor) */
  audibleSec: number;
}

export interface SongPolicy {
  /** a frame is pitched when YIN's normalised dip is below this */
  yinThreshold: number;
  noteToleranceSt: number;
  minNoteSec: number;
  /** frames quieter than this (dBFS) are not audible */
  floorDb: number;
  /** song = 1 when all three hold */
  minNoteRatio: number;
  minDistinctNotes: number;
  minAudibleSec: number;
}

const RATE = 8000;
const WIN = 320; // 40 ms: two periods of the lowest pitch (50 Hz)
const HOP = 160; // 20 ms
const MIN_LAG = 8; // 1000 Hz
const MAX_LAG = 160; // 50 Hz

/** 2:1 decimation with a 4-tap low-pass (enough for pitch, which lives far below 4 kHz). */
function to8k(samples: Float32Array, sampleRate: number): Float32Array {
  if (sampleRate === RATE) return samples;
  if (sampleRate !== 16000) throw new Error(`song analysis needs 8 or 16 kHz audio, got ${sampleRate} Hz`);
  const out = new Float32Array(Math.floor(samples.length / 2));
  for (let i = 0; i < out.length; i++) {
    const j = 2 * i;
    out[i] = 0.125 * (samples[j - 1] ?? 0) + 0.375 * samples[j] + 0.375 * (samples[j + 1] ?? 0) + 0.125 * (samples[j + 2] ?? 0);
  }
  return out;
}

/** YIN: the lag of the first dip of the cumulative-mean-normalised difference below `threshold`, or 0. */
function yinLag(x: Float32Array, start: number, d: Float64Array, threshold: number): number {
  let running = 0;
  for (let tau = 1; tau <= MAX_LAG; tau++) {
    let s = 0;
    for (let i = start; i < start + WIN; i++) {
      const diff = x[i] - x[i + tau];
      s += diff * diff;
    }
    running += s;
    d[tau] = running > 0 ? (s * tau) / running : 1;
  }
  for (let tau = MIN_LAG; tau < MAX_LAG; tau++) {
    if (d[tau] < threshold) {
      while (tau + 1 < MAX_LAG && d[tau + 1] < d[tau]) tau++;
      const a = d[tau - 1], b = d[tau], c = d[tau + 1];
      const denom = a - 2 * b + c;
      return denom > 0 ? tau + (a - c) / (2 * denom) : tau;
    }
  }
  return 0;
}

/** Pitch (MIDI note number, fractional) per 20 ms frame; NaN when unpitched, null when inaudible. */
export async function pitchTrack(samples: Float32Array, sampleRate: number, p: Pick<SongPolicy, "yinThreshold" | "floorDb">): Promise<Array<number | null>> {
  const x = to8k(samples, sampleRate);
  const d = new Float64Array(MAX_LAG + 1);
  const out: Array<number | null> = [];
  for (let start = 0, f = 0; start + WIN + MAX_LAG <= x.length; start += HOP, f++) {
    // keep the event loop responsive: a few ms of work between yields
    if (f % 25 === 24) await new Promise<void>((r) => setImmediate(r));
    let e = 0;
    for (let i = start; i < start + WIN; i++) e += x[i] * x[i];
    const db = e > 0 ? 10 * Math.log10(e / WIN) : -100;
    if (db < p.floorDb) {
      out.push(null);
      continue;
    }
    const lag = yinLag(x, start, d, p.yinThreshold);
    out.push(lag > 0 ? 69 + 12 * Math.log2(RATE / lag / 440) : NaN);
  }
  return out;
}

/** Held notes in a pitch track, and the figures the SING decision uses. */
export function songFeatures(track: ReadonlyArray<number | null>, p: Pick<SongPolicy, "noteToleranceSt" | "minNoteSec">): SongFeatures {
  const frameSec = HOP / RATE;
  const minFrames = Math.ceil(p.minNoteSec / frameSec);
  const audible = track.filter((v) => v !== null).length;
  const voiced = track.filter((v) => v !== null && !Number.isNaN(v)).length;
  const notes: number[] = [];
  let noteFrames = 0;
  let run: number[] = [];
  const close = () => {
    if (run.length >= minFrames) {
      noteFrames += run.length;
      notes.push(Math.round(run.reduce((s, v) => s + v, 0) / run.length));
    }
    run = [];
  };
  for (const v of track) {
    if (v === null || Number.isNaN(v)) {
      close();
      continue;
    }
    const mean = run.length ? run.reduce((s, x) => s + x, 0) / run.length : v;
    if (run.length && Math.abs(v - mean) > p.noteToleranceSt) close();
    run.push(v);
  }
  close();
  return {
    voicedRatio: audible ? round3(voiced / audible) : 0,
    noteRatio: audible ? round3(noteFrames / audible) : 0,
    distinctNotes: new Set(notes).size,
    notes: notes.length,
    audibleSec: round3(audible * frameSec),
  };
}

export function isSong(f: SongFeatures, p: SongPolicy): boolean {
  return f.audibleSec >= p.minAudibleSec && f.noteRatio >= p.minNoteRatio && f.distinctNotes >= p.minDistinctNotes;
}

/** Probability-like strength of the decision: how far the note ratio is past (or short of) the threshold. */
export function songProbability(f: SongFeatures, p: SongPolicy): number {
  const r = Math.max(0, Math.min(1, f.noteRatio / (2 * p.minNoteRatio)));
  return round3(isSong(f, p) ? Math.max(0.5, r) : Math.min(0.49, r));
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
