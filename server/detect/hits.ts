import type { RiskLevel } from "../../lib/contract/taxonomy";
import { RISK_ORDER } from "./policy";
import type { MatchedList, RiskSegment } from "./types";

/** What frame and audio hits share: enough to rank them and merge their text evidence. */
export interface RankedHit {
  riskLevel: RiskLevel;
  probability: number;
  matchedLists?: MatchedList[];
  riskSegments?: RiskSegment[];
}

/** Worst level first, then the most probable. */
export function rank<H extends RankedHit>(hits: readonly H[]): H[] {
  return [...hits].sort((a, b) => RISK_ORDER[b.riskLevel] - RISK_ORDER[a.riskLevel] || b.probability - a.probability);
}

/** One entry per list name, words in text order. */
export function mergeLists(hits: readonly RankedHit[]): MatchedList[] {
  const byName = new Map<string, MatchedList>();
  for (const l of hits.flatMap((h) => h.matchedLists ?? [])) {
    const into = byName.get(l.name) ?? { name: l.name, words: [] };
    into.words.push(...l.words);
    byName.set(l.name, into);
  }
  for (const l of byName.values()) l.words.sort((a, b) => a.position[0] - b.position[0]);
  return [...byName.values()];
}

/** Risk segments without repeats, in text order. */
export function mergeSegments(hits: readonly RankedHit[]): RiskSegment[] {
  const seen = new Map<string, RiskSegment>();
  for (const s of hits.flatMap((h) => h.riskSegments ?? [])) seen.set(`${s.position[0]}:${s.position[1]}`, s);
  return [...seen.values()].sort((a, b) => a.position[0] - b.position[0]);
}
