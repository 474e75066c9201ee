// Spelling comparison for recognised text: how close a run of words is to a phrase, letters only.

/** Letters and digits of `s`, lower case (spaces, punctuation and case do not count when comparing spellings). */
export const lettersOf = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** Levenshtein distance (insert, delete, substitute: 1 each) between two strings, by UTF-16 unit. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The run of consecutive `words` (indexes from..to) whose joined letters are closest to `want`'s: distance ÷ the longer
 * spelling. Runs are tried while their letters are at most `maxRatio` × want's (+ 1); runs shorter than `minRatio` ×
 * or for which `eligible(to)` is false are not scored.
 */
export function closestRun(words: readonly string[], want: string, o: { minRatio: number; maxRatio: number; eligible?: (to: number) => boolean }): { d: number; from: number; to: number } | null {
  const target = lettersOf(want);
  const spelled = words.map(lettersOf);
  let best: { d: number; from: number; to: number } | null = null;
  for (let i = 0; i < spelled.length; i++) {
    let run = "";
    for (let j = i; j < spelled.length; j++) {
      run += spelled[j];
      if (run.length > target.length * o.maxRatio + 1) break;
      if (run.length < target.length * o.minRatio || (o.eligible && !o.eligible(j))) continue;
      const d = editDistance(run, target) / Math.max(run.length, target.length, 1);
      if (!best || d < best.d) best = { d, from: i, to: j };
    }
  }
  return best;
}
