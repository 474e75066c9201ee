// A reading the recogniser wrote in a loop. Greedy decoding sometimes falls into repeating itself ("North North North
// …", "the winds are still in the forest. The winds are still in the forest. …"): the words after the loop starts are
// the model's own, not the audio's. On the speech eval's continuous unrelated speech (espeak-ng under noise) Moonshine
// wrote "I'm going to tell you what I'm saying" over and over, and pocketsphinx's spotted "you idiot" was spliced in
// where the loop said "you what": flagged REJECT. In a stretch whose kept reading loops, a list entry counts only
// where a hearing of it that does not loop writes it too, whether the loop wrote it or a spotted phrase agreed with the
// loop's words (speech-text.ts); a looping reading at another speed is never the one kept (alternate-readings.ts).

/** Words of a reading, lower case, punctuation dropped. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, " ")
    .split(/\s+/)
    .filter(Boolean);

/**
 * The loop a reading falls into, or null: a run of 2–8 words said three times or more back to back, or one word four
 * times or more. A number read digit by digit ("five five five one two …") repeats a word three times at most and is
 * not a loop.
 */
export function loopIn(text: string): { phrase: string; times: number } | null {
  const w = wordsOf(text);
  let found: { phrase: string; times: number; covered: number } | null = null;
  for (let n = 1; n <= 8; n++) {
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

/** A stretch whose kept reading loops: what in it counts. */
export interface LoopedStretch {
  startSec: number;
  endSec: number;
  /** list entries the looping reading holds that no hearing of the stretch without a loop writes: they count for nothing */
  unconfirmed: string[];
  /** list entries the hearings without a loop write */
  confirmed: string[];
}

/**
 * The stretch `span` as a looped stretch when its kept `reading` loops, else null (`hearings`: every hearing of it;
 * `found`: the requested lists' entries matched in a text, lower case).
 */
export function loopedStretch(reading: string, hearings: readonly string[], found: (text: string) => string[], span: { startSec: number; endSec: number }): LoopedStretch | null {
  if (!loopIn(reading)) return null;
  const confirmed = [...new Set(hearings.filter((h) => h && !loopIn(h)).flatMap((h) => found(h)))];
  const unconfirmed = [...new Set(found(reading))].filter((e) => !confirmed.includes(e));
  return { ...span, unconfirmed, confirmed };
}

/**
 * Phrases spotted acoustically that may be spliced in: one inside a looped stretch only when a hearing without a loop
 * writes it (the splice needs the recogniser's words there to agree with it, and a loop's words are not the audio's).
 */
export function spotsOutsideLoops<T extends { startSec: number; endSec: number }>(spots: readonly T[], loops: readonly LoopedStretch[], phraseOf: (s: T) => string): T[] {
  return spots.filter((s) => !loops.some((l) => s.endSec > l.startSec && s.startSec < l.endSec && !l.confirmed.includes(phraseOf(s).toLowerCase())));
}
