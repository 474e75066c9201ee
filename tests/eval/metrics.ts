// Pure scoring functions for the eval: confusion counts, precision / recall / F1, threshold sweeps and the choice rule.
import assert from "node:assert/strict";

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface Rates {
  /** null when nothing was flagged (tp + fp = 0) */
  precision: number | null;
  /** null when there are no positives */
  recall: number | null;
  f1: number | null;
}

/**
 * One labelled case. `correct` = the detector flagged it with the right label (positives only); `flagged` = it
 * flagged anything. A positive flagged only with a wrong label/content/entry counts as a miss (fn) AND a false
 * alarm (fp), so tp + fn = positives while fp also holds those wrong flags.
 */
export interface Outcome {
  positive: boolean;
  flagged: boolean;
  correct: boolean;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const ratio = (a: number, b: number): number | null => (b === 0 ? null : round3(a / b));

export function countOutcomes(outcomes: readonly Outcome[]): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const o of outcomes) {
    if (o.positive) {
      if (o.flagged && o.correct) c.tp++;
      else {
        c.fn++;
        if (o.flagged) c.fp++;
      }
    } else if (o.flagged) c.fp++;
    else c.tn++;
  }
  return c;
}

export function rates(c: Counts): Rates {
  // F1 from the counts (2tp / (2tp + fp + fn)), not from the rounded ratios
  return { precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn), f1: ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn) };
}

export interface Summary extends Counts, Rates {
  positives: number;
  negatives: number;
  /** flagged negatives / negatives (wrong flags on positives not included); null without negatives */
  falsePositiveRate: number | null;
}

/** Counts and rates of a set of outcomes (falsePositiveRate over true negatives only). */
export function summarize(outcomes: readonly Outcome[]): Summary {
  const c = countOutcomes(outcomes);
  const positives = outcomes.filter((o) => o.positive).length;
  const negatives = outcomes.length - positives;
  const negFlagged = outcomes.filter((o) => !o.positive && o.flagged).length;
  return { positives, negatives, ...c, ...rates(c), falsePositiveRate: ratio(negFlagged, negatives) };
}

/**
 * A scored case: `score` = the detector's score for the right label (positives) or for any flag (negatives), null
 * when it raised none; `wrongScore` = best score of a wrong label/entry on a positive.
 */
export interface ScoredCase {
  positive: boolean;
  score: number | null;
  wrongScore?: number | null;
}

/** Outcome of a scored case when flags below `threshold` are dropped. */
export function outcomeAt(c: ScoredCase, threshold: number): Outcome {
  const right = c.score !== null && c.score >= threshold;
  const wrong = c.wrongScore != null && c.wrongScore >= threshold;
  return c.positive ? { positive: true, flagged: right || wrong, correct: right } : { positive: false, flagged: right, correct: false };
}

export interface SweepRow extends Counts {
  threshold: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export function sweep(cases: readonly ScoredCase[], thresholds: readonly number[]): SweepRow[] {
  return [...thresholds].sort((a, b) => a - b).map((t) => {
    const c = countOutcomes(cases.map((x) => outcomeAt(x, t)));
    const r = rates(c);
    return { threshold: t, ...c, precision: r.precision, recall: r.recall, f1: r.f1 };
  });
}

export const CHOICE_RULE =
  "among swept thresholds with precision >= 0.95 and tp > 0: the highest recall, then the highest precision, then the lowest threshold " +
  "(= the loosest setting that keeps precision >= 0.95, without giving up precision for no recall); if none reaches 0.95, the highest F1 (ties: the lowest threshold)";

export interface Choice {
  rule: string;
  /** which branch of the rule picked it */
  by: "precision>=0.95" | "max F1" | "none";
  row: SweepRow | null;
}

export function chooseThreshold(rows: readonly SweepRow[], minPrecision = 0.95): Choice {
  const sorted = [...rows].sort((a, b) => a.threshold - b.threshold);
  let ok: SweepRow | null = null;
  for (const r of sorted) {
    if (r.tp === 0 || r.precision === null || r.precision < minPrecision) continue;
    // strict comparisons keep the lowest threshold among exact ties
    if (!ok || r.recall! > ok.recall! || (r.recall === ok.recall && r.precision > ok.precision!)) ok = r;
  }
  if (ok) return { rule: CHOICE_RULE, by: "precision>=0.95", row: ok };
  let best: SweepRow | null = null;
  for (const r of sorted) if (r.f1 !== null && r.f1 > 0 && (!best || r.f1 > (best.f1 ?? 0))) best = r;
  return { rule: CHOICE_RULE, by: best ? "max F1" : "none", row: best };
}

/** Evenly spaced thresholds from `from` to `to` inclusive (rounded to 3 decimals). */
export function grid(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let i = 0; from + i * step <= to + 1e-9; i++) out.push(round3(from + i * step));
  return out;
}

/** min / quartiles / max of a list of numbers (nearest rank), or null when empty. */
export function distribution(values: readonly number[]): { n: number; min: number; p25: number; median: number; p75: number; max: number } | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  return { n: s.length, min: s[0], p25: at(0.25), median: at(0.5), p75: at(0.75), max: s[s.length - 1] };
}

/** Recall (positives) and flag rate (negatives) per value of one factor, e.g. per font or per voice. */
export function breakdown<T>(items: readonly T[], key: (t: T) => string, outcome: (t: T) => Outcome): Record<string, { positives: number; tp: number; negatives: number; fp: number }> {
  const out: Record<string, { positives: number; tp: number; negatives: number; fp: number }> = {};
  for (const it of items) {
    const o = outcome(it);
    const b = (out[key(it)] ??= { positives: 0, tp: 0, negatives: 0, fp: 0 });
    if (o.positive) {
      b.positives++;
      if (o.flagged && o.correct) b.tp++;
    } else {
      b.negatives++;
      if (o.flagged) b.fp++;
    }
  }
  return out;
}

/** Hand-computed cases: throws when any function above disagrees (run at startup). */
export function selfCheck(): void {
  const o = (positive: boolean, flagged: boolean, correct = flagged): Outcome => ({ positive, flagged, correct });
  // 3 right hits, 1 miss, 1 wrong-label hit on a positive, 2 false alarms, 3 clean negatives
  const set = [o(true, true), o(true, true), o(true, true), o(true, false), o(true, true, false), o(false, true), o(false, true), o(false, false), o(false, false), o(false, false)];
  assert.deepEqual(countOutcomes(set), { tp: 3, fp: 3, fn: 2, tn: 3 });
  const s = summarize(set);
  assert.equal(s.precision, 0.5);
  assert.equal(s.recall, 0.6);
  assert.equal(s.f1, round3(6 / 11));
  assert.equal(s.falsePositiveRate, 0.4);
  assert.equal(s.positives, 5);
  assert.equal(rates({ tp: 0, fp: 0, fn: 2, tn: 1 }).precision, null);
  const cases: ScoredCase[] = [
    { positive: true, score: 0.9 }, { positive: true, score: 0.7 }, { positive: true, score: null, wrongScore: 0.8 },
    { positive: false, score: 0.75 }, { positive: false, score: null },
  ];
  const rows = sweep(cases, [0.8, 0.6, 0.7]);
  assert.deepEqual(rows.map((r) => r.threshold), [0.6, 0.7, 0.8]);
  assert.deepEqual(rows.map((r) => [r.tp, r.fp, r.fn, r.tn]), [[2, 2, 1, 1], [2, 2, 1, 1], [1, 1, 2, 2]]);
  assert.equal(chooseThreshold(rows).by, "max F1");
  assert.equal(chooseThreshold(rows).row?.threshold, 0.6);
  const clean = sweep([{ positive: true, score: 0.9 }, { positive: false, score: 0.5 }], [0.4, 0.6, 0.95]);
  assert.equal(chooseThreshold(clean).row?.threshold, 0.6);
  assert.equal(chooseThreshold(clean).by, "precision>=0.95");
  // 0.5 passes the bar with a false alarm; 0.6 keeps the same recall without it and wins
  const edge = sweep([{ positive: true, score: 0.9 }, ...Array.from({ length: 20 }, () => ({ positive: true, score: 0.8 })), { positive: false, score: 0.55 }], [0.5, 0.6, 0.85]);
  assert.equal(edge[0].precision, 0.955);
  assert.equal(chooseThreshold(edge).row?.threshold, 0.6);
  assert.deepEqual(grid(0.5, 0.6, 0.05), [0.5, 0.55, 0.6]);
  assert.deepEqual(distribution([3, 1, 2, 4]), { n: 4, min: 1, p25: 1, median: 2, p75: 3, max: 4 });
  assert.deepEqual(breakdown(set.slice(3, 7), (x) => (x.positive ? "p" : "n"), (x) => x), { p: { positives: 2, tp: 0, negatives: 0, fp: 0 }, n: { positives: 0, tp: 0, negatives: 2, fp: 2 } });
}
