// A reading the recogniser wrote in a loop of its own making. Greedy decoding sometimes falls into repeating itself
// ("North North North …", "the winds are still in the forest. The winds are still in the forest. …"): the words
// after the loop starts are the model's, not the audio's. On the speech eval's continuous unrelated speech (espeak-ng
// under noise) Moonshine wrote "I'm going to tell you what I'm saying" over and over, and pocketsphinx's spotted "you
// idiot" was spliced in where the loop said "you what": flagged REJECT. A loop is made up when no other hearing of the
// stretch (alternate-readings.ts: the same audio at other speeds) repeats it too; speech that really repeats itself
// (a chant, "kill kill kill kill") is heard repeating at every speed and counts like any other. In a stretch whose
// kept reading loops of its own making, a list entry counts only where a hearing of it without a loop writes it too,
// whether the loop wrote it or a spotted phrase agreed with the loop's words (speech-text.ts); a made-up loop at
// another speed is never the reading kept (alternate-readings.ts).
import type { Transcript } from "./stt/transcript";
import type { TextHit } from "./text-lists";

/** Words of a reading, lower case, punctuation dropped. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, " ")
    .split(/\s+/)
    .filter(Boolean);

/** Longest run of words looked for: the eval's loops were of 1 to 8 words. */
const MAX_RUN = 12;

/**
 * The loop a reading falls into, or null: a run of 2–12 words said three times or more back to back, or one word four
 * times or more. A number read digit by digit ("five five five one two …") repeats a word three times at most and is
 * not a loop.
 */
export function loopIn(text: string): { phrase: string; times: number } | null {
  const w = wordsOf(text);
  let found: { phrase: string; times: number; covered: number } | null = null;
  for (let n = 1; n <= MAX_RUN; n++) {
    const minTimes = n === 1 ? 4 : 3;
    for (let i = 0; i + minTimes * n <= w.length; i++) {
      let times = 1;
      while (i + (times + 1) * n <= w.length && sameRun(w, i, i + times * n, n)) times++;
      if (times >= minTimes && (!found || times * n > found.covered)) found = { phrase: w.slice(i, i + n).join(" "), times, covered: times * n };
    }
  }
  return found && { phrase: found.phrase, times: found.times };
}

function sameRun(w: readonly string[], a: number, b: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (w[a + k] !== w[b + k]) return false;
  return true;
}

/** How many times `phrase` (words) occurs in `text`, without overlaps. */
function occurrences(text: string, phrase: string): number {
  const w = wordsOf(text);
  const p = phrase.split(" ");
  let count = 0;
  for (let i = 0; i + p.length <= w.length; ) {
    if (p.every((x, k) => w[i + k] === x)) {
      count++;
      i += p.length;
    } else i++;
  }
  return count;
}

/** The loop `reading` falls into when none of `others` (the other hearings of its stretch) repeats it too, else null. */
export function madeUpLoop(reading: string, others: readonly string[]): { phrase: string; times: number } | null {
  const loop = loopIn(reading);
  if (!loop) return null;
  return others.some((o) => occurrences(o, loop.phrase) >= 2) ? null : loop;
}

/** A stretch whose kept reading loops of its own making. */
export interface LoopedStretch {
  startSec: number;
  endSec: number;
  /** the list entries (as written, lower case) the stretch's hearings without a loop write: these still count */
  confirmed: string[];
}

/**
 * The stretch `span` as a looped stretch when its kept `reading` loops of its own making, else null (`others`: the
 * stretch's other hearings; `found`: the requested lists' entries matched in a text, lower case).
 */
export function loopedStretch(reading: string, others: readonly string[], found: (text: string) => string[], span: { startSec: number; endSec: number }): LoopedStretch | null {
  if (!madeUpLoop(reading, others)) return null;
  const confirmed = [...new Set(others.filter((h) => h && !loopIn(h)).flatMap((h) => found(h)))];
  return { ...span, confirmed };
}

/** Whether the time `span` overlaps a looped stretch that does not confirm `entry`. */
const unconfirmedIn = (loops: readonly LoopedStretch[], span: { startSec: number; endSec: number }, entry: string) =>
  loops.some((l) => span.startSec < l.endSec && span.endSec > l.startSec && !l.confirmed.includes(entry.toLowerCase()));

/** Whether the words at `position` of the segment's transcript `t` lie in a looped stretch that does not confirm `entry`. */
function inLoop(t: Pick<Transcript, "tokens">, position: readonly [number, number], entry: string, loops: readonly LoopedStretch[]): boolean {
  const token = t.tokens.find((k) => k.position[0] < position[1] && position[0] < k.position[1]);
  return token !== undefined && unconfirmedIn(loops, token, entry);
}

/**
 * Whether a hit on `full` (previous segments' text, then this segment's transcript `t` from `fromOffset`) counts:
 * unless every word it matched lies in a looped stretch that does not confirm it.
 */
export function countsOutsideLoops(h: TextHit, t: Pick<Transcript, "tokens">, fromOffset: number, loops: readonly LoopedStretch[]): boolean {
  if (loops.length === 0) return true;
  return h.matchedLists.some((l) => l.words.some((w) => w.position[0] < fromOffset || !inLoop(t, [w.position[0] - fromOffset, w.position[1] - fromOffset], w.word, loops)));
}

/**
 * Phrases spotted acoustically that may be spliced in: one inside a looped stretch only when a hearing without a loop
 * writes it (the splice needs the recogniser's words there to agree with it, and a loop's words are not the audio's).
 */
export function spotsOutsideLoops<T extends { startSec: number; endSec: number }>(spots: readonly T[], loops: readonly LoopedStretch[], phraseOf: (s: T) => string): T[] {
  return spots.filter((s) => !unconfirmedIn(loops, s, phraseOf(s)));
}
