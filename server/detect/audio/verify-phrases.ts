// List phrases the recogniser nearly wrote, checked against the audio. Greedy decoding writes the likeliest token at
// each step; under noise or an odd voice it writes "sin moves to my private account" where the audio says "send nudes
// to my private account" nearly as well. For each list phrase spelled close to a run of the written words, the reading
// with the phrase in that run is scored by the same model on the same audio (teacher-forced, one decoder pass each); a
// reading the audio supports about as well as what was written (log probability within a margin per letter of the
// phrase: a longer phrase carries more evidence either way) replaces it, if it does so too where the same audio was
// heard at other speeds (alternate-readings.ts): a phrase really said holds at every speed, a near-miss that happens to
// fit one hearing ("the corn grows" → "the porn grows" under noise) does not. Unrelated speech is not rewritten: there
// the phrase costs the reading far more than the margin. Hits on a rewritten phrase go to a human (speech-text.ts caps
// them at REVIEW).
import { closestRun, lettersOf } from "../text/spelling";
import type { VerifyPolicy } from "./policy";
import type { Heard } from "./stt/moonshine";
import { textTranscript } from "./stt/transcript";

/** What the verifier needs of the recogniser (MoonshineStt). */
export interface ReadingScorer {
  tokenize(text: string): number[];
  logProb(encoded: Heard["encoded"], ids: readonly number[]): Promise<number>;
}

export interface VerifiedReading {
  text: string;
  /** the list phrases the audio supports, now in `text` (lower case) */
  verified: string[];
}

/**
 * `heard` with the list phrases the audio supports written in (phrases: the requested lists' phrase entries). With
 * `elsewhere` (the same audio heard at other speeds, alternate-readings.ts) a phrase must hold there too, by the same
 * margin against the same written reading.
 */
export async function verifyPhrases(model: ReadingScorer, heard: Heard, phrases: readonly string[], p: VerifyPolicy, elsewhere: readonly Pick<Heard, "encoded">[] = []): Promise<VerifiedReading> {
  const t = textTranscript(heard.text, 1);
  const words = t.tokens.map((k) => k.text);
  // positions are in the transcript's spelling of the text (punctuation inside sentences dropped), so the readings
  // are built from that spelling, not from the raw text
  const none: VerifiedReading = { text: t.text, verified: [] };
  if (words.length === 0) return none;
  const candidates: Array<{ phrase: string; from: number; to: number; d: number }> = [];
  for (const phrase of new Set(phrases)) {
    if (lettersOf(phrase).length < p.minLetters) continue;
    const best = closestRun(words, phrase, { minRatio: 0.5, maxRatio: 1.5 });
    if (best && best.d > 0 && best.d <= p.maxSpelling) candidates.push({ phrase, ...best });
  }
  if (candidates.length === 0) return none;
  candidates.sort((a, b) => a.d - b.d);
  const tried = candidates.slice(0, p.maxCandidates).map((c) => {
    const start = t.tokens[c.from].position[0];
    const end = t.tokens[c.to].position[1];
    const said = /^\p{Lu}/u.test(t.text.slice(start)) ? c.phrase[0].toUpperCase() + c.phrase.slice(1) : c.phrase;
    return { ...c, start, end, said, reading: t.text.slice(0, start) + said + t.text.slice(end) };
  });
  // the written reading in the same spelling, scored the same way (teacher-forced), then each candidate against it
  const writtenIds = model.tokenize(t.text);
  const written = await model.logProb(heard.encoded, writtenIds);
  const writtenElsewhere: number[] = [];
  const accepted: Array<{ phrase: string; start: number; end: number; delta: number }> = [];
  for (const c of tried) {
    const ids = model.tokenize(c.reading);
    const margin = p.marginPerLetter * lettersOf(c.phrase).length;
    const delta = (await model.logProb(heard.encoded, ids)) - written;
    if (delta < -margin) continue;
    // at the other speeds: it must hold in at least p.holdElsewhere of them
    let held = 0;
    for (const [k, e] of elsewhere.entries()) {
      writtenElsewhere[k] ??= await model.logProb(e.encoded, writtenIds);
      if ((await model.logProb(e.encoded, ids)) - writtenElsewhere[k] >= -margin) held++;
      else if (elsewhere.length - k - 1 + held < p.holdElsewhere * elsewhere.length) break;
    }
    const holds = held >= p.holdElsewhere * elsewhere.length;
    if (holds) accepted.push({ phrase: c.said, start: c.start, end: c.end, delta });
  }
  // the best supported first; a run taken by one phrase is not rewritten again
  accepted.sort((a, b) => b.delta - a.delta);
  const kept: typeof accepted = [];
  for (const a of accepted) if (!kept.some((k) => k.start < a.end && a.start < k.end)) kept.push(a);
  let text = t.text;
  for (const k of [...kept].sort((a, b) => b.start - a.start)) text = text.slice(0, k.start) + k.phrase + text.slice(k.end);
  return { text, verified: kept.map((k) => k.phrase.toLowerCase()) };
}
