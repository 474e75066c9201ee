// The same stretch heard again at slightly other speeds. Greedy decoding under noise or music is brittle: played 8 %
// slower or faster (pitch and tempo with it, as a resampled tape), the same model often writes what was said where at
// normal speed it wrote a near-miss ("we had gone so far behind the store" → "we have guns for sale behind the store").
// A list phrase written in such a reading, and not in the reading at normal speed, is taken with that reading, and hits
// on it go to a human (speech-text.ts caps them like phrases the reading check wrote in). The reading check
// (verify-phrases.ts) also scores its candidates on these hearings: a phrase it writes in must hold at every speed.
// Measured on the speech eval (server/detect/audio/README.md); each speed costs one more transcription of the stretch.
import { madeUpLoop } from "./looping-readings";
import type { Heard } from "./stt/moonshine";
import { textTranscript } from "./stt/transcript";
import type { VerifiedReading } from "./verify-phrases";

/** `samples` played `factor` times as fast (linear interpolation; > 1 shorter and higher, < 1 longer and lower). */
export function resampleSpeed(samples: Float32Array, factor: number): Float32Array {
  const n = Math.floor(samples.length / factor);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i * factor;
    const k = Math.floor(t);
    const f = t - k;
    out[i] = samples[k] * (1 - f) + (k + 1 < samples.length ? samples[k + 1] : 0) * f;
  }
  return out;
}

/** What this needs of the recogniser (MoonshineStt). */
export interface Transcriber {
  transcribe(samples: Float32Array): Promise<Heard>;
}

export interface AlternateHearing extends Heard {
  speed: number;
}

/** `crop` transcribed played at each of `speeds`. */
export async function hearAtSpeeds(model: Transcriber, crop: Float32Array, speeds: readonly number[]): Promise<AlternateHearing[]> {
  const out: AlternateHearing[] = [];
  for (const speed of speeds) out.push({ ...(await model.transcribe(resampleSpeed(crop, speed))), speed });
  return out;
}

/**
 * The reading to keep: `primary` (normal speed, reading check applied), or the alternate-speed reading (not a made-up loop) holding every
 * list entry of the primary and more (`found`: the requested lists' entries matched in a text, lower case); its
 * entries the primary lacks, and those the reading check wrote into the primary, are returned as `verified` (hits on
 * them are capped). Unlike the reading check's phrases, an entry taken this way needs only the one hearing that wrote
 * it: on the eval's unrelated speech none was (server/detect/audio/README.md).
 */
export function chooseReading(primary: VerifiedReading, alternates: readonly AlternateHearing[], found: (text: string) => string[]): VerifiedReading & { speed: number } {
  const inPrimary = new Set(found(primary.text));
  let best: VerifiedReading & { speed: number; count: number } = { ...primary, speed: 1, count: inPrimary.size };
  for (const a of alternates) {
    if (!a.text) continue;
    const text = textTranscript(a.text, 1).text;
    const entries = new Set(found(text));
    // only a reading that keeps every entry written at normal speed: one heard there is never traded away
    if (![...inPrimary].every((e) => entries.has(e))) continue;
    const added = [...entries].filter((e) => !inPrimary.has(e));
    if (added.length === 0 || entries.size <= best.count) continue;
    // a reading the model wrote in a loop of its own making is its words, not the audio's (looping-readings.ts)
    if (madeUpLoop(a.text, [primary.text, ...alternates.filter((o) => o !== a).map((o) => o.text)])) continue;
    // the phrases the reading check wrote in stay marked: this reading says them too, still not at normal speed
    best = { text, verified: [...new Set([...primary.verified, ...added])], speed: a.speed, count: entries.size };
  }
  const { count: _count, ...reading } = best;
  return reading;
}
