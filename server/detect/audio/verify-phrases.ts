// List phrases the recogniser nearly wrote, checked against the audio. Greedy decoding writes the likeliest token at
// each step; under noise or an odd voice it writes "watch three point videos" where the audio says "watch free porn
// videos" nearly as well. For each list phrase spelled close to a run of the written words, the reading with the
// phrase in that run is scored by the same model on the same audio (one teacher-forced decoder pass); a reading the
// audio supports about as well as what was written (log probability within `margin` of it) replaces it. Unrelated
// speech is not rewritten: there the phrase costs the reading far more than the margin.
import { closestRun, lettersOf } from "../text/spelling";
import type { Heard } from "./stt/moonshine";
import { textTranscript } from "./stt/transcript";

/** What the verifier needs of the recogniser (MoonshineStt). */
export interface ReadingScorer {
  tokenize(text: string): number[];
  logProb(encoded: Heard["encoded"], ids: readonly number[]): Promise<number>;
}

export interface VerifyPolicy {
  /** phrases with fewer letters are left to the exact matcher */
  minLetters: number;
  /** a run is a candidate when its spelling is within this edit distance ÷ the longer spelling of the phrase */
  maxSpelling: number;
  /** at most this many candidates (the closest spelled) are scored per stretch */
  maxCandidates: number;
  /** accepted when log P(reading with the phrase) ≥ log P(written reading) − margin (nats) */
  margin: number;
}

export interface VerifiedReading {
  text: string;
  /** the list phrases the audio supports, now in `text` */
  verified: string[];
  /** every scored candidate (for the eval's figures and the log) */
  scored: Array<{ phrase: string; run: string; spelling: number; delta: number }>;
}

/** `heard` with the list phrases the audio supports written in (phrases: the requested lists' phrase entries). */
export async function verifyPhrases(model: ReadingScorer, heard: Heard, phrases: readonly string[], p: VerifyPolicy): Promise<VerifiedReading> {
  const t = textTranscript(heard.text, 1);
  const words = t.tokens.map((k) => k.text);
  const none: VerifiedReading = { text: heard.text, verified: [], scored: [] };
  if (words.length === 0 || heard.ids.length === 0) return none;
  const candidates: Array<{ phrase: string; from: number; to: number; d: number }> = [];
  for (const phrase of new Set(phrases)) {
    if (lettersOf(phrase).length < p.minLetters) continue;
    const best = closestRun(words, phrase, { minRatio: 0.5, maxRatio: 1.5 });
    if (best && best.d > 0 && best.d <= p.maxSpelling) candidates.push({ phrase, ...best });
  }
  if (candidates.length === 0) return none;
  candidates.sort((a, b) => a.d - b.d);
  const written = await model.logProb(heard.encoded, heard.ids);
  const scored: VerifiedReading["scored"] = [];
  const accepted: Array<{ phrase: string; start: number; end: number; delta: number }> = [];
  for (const c of candidates.slice(0, p.maxCandidates)) {
    const start = t.tokens[c.from].position[0];
    const end = t.tokens[c.to].position[1];
    const said = /^\p{Lu}/u.test(heard.text.slice(start)) ? c.phrase[0].toUpperCase() + c.phrase.slice(1) : c.phrase;
    const reading = heard.text.slice(0, start) + said + heard.text.slice(end);
    const delta = (await model.logProb(heard.encoded, model.tokenize(reading))) - written;
    scored.push({ phrase: c.phrase, run: heard.text.slice(start, end), spelling: round3(c.d), delta: round3(delta) });
    if (delta >= -p.margin) accepted.push({ phrase: said, start, end, delta });
  }
  // the best supported first; a run taken by one phrase is not rewritten again
  accepted.sort((a, b) => b.delta - a.delta);
  const kept: typeof accepted = [];
  for (const a of accepted) if (!kept.some((k) => k.start < a.end && a.start < k.end)) kept.push(a);
  let text = heard.text;
  for (const k of [...kept].sort((a, b) => b.start - a.start)) text = text.slice(0, k.start) + k.phrase + text.slice(k.end);
  return { text, verified: kept.map((k) => k.phrase.toLowerCase()), scored };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
