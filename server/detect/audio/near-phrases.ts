// List phrases a recogniser nearly wrote: a run of transcript words spelled within a small edit distance of a long
// list phrase ("add me on whatchat", "overflow the government"). A recogniser that spells what it heard mishears a
// word or two of a phrase far more often than it invents a long phrase from unrelated speech, so such a run is
// reported for a human (REVIEW at most), never as a certain REJECT. Short phrases are left to the exact matcher:
// within two letters of them lies too much ordinary speech.
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import { entryId } from "../lists/model";
import { capLevel } from "../policy";
import { DEFAULT_THRESHOLDS, type Thresholds } from "../settings/thresholds";
import { closestRun, lettersOf } from "../text/spelling";
import type { NearPhrasePolicy } from "./policy";
import type { CompiledAudioLists, TextHit } from "./text-lists";
import type { Transcript } from "./stt/transcript";

/**
 * Near matches of the phrase entries of the requested lists in `t`, beside the exact `hits` (a run overlapping an
 * exact hit of the same list is not reported again). Probability: the tokens' confidence × (1 − distance). The
 * operator's thresholds for the list (`speech:<list>`) apply as to exact hits; the level is then capped at p.maxLevel.
 */
export function nearPhraseHits(t: Transcript, c: CompiledAudioLists, types: ReadonlySet<string>, exact: readonly TextHit[], p: NearPhrasePolicy, fromOffset: number, th: Thresholds = DEFAULT_THRESHOLDS): TextHit[] {
  const out: TextHit[] = [];
  const words = t.tokens.map((k) => k.text);
  const endsAfterOffset = (j: number) => t.tokens[j].position[1] > fromOffset;
  for (const { list } of c.lists) {
    if (!types.has(list.type)) continue;
    const taken = exact.filter((h) => h.matchedLists.some((m) => m.name === list.name)).flatMap((h) => h.matchedLists.flatMap((m) => m.words.map((w) => w.position)));
    for (const e of list.entries) {
      const phrase = typeof e === "string" ? e : "phrase" in e ? e.phrase : null;
      if (!phrase || lettersOf(phrase).length < p.minLetters) continue;
      const best = closestRun(words, phrase, { minRatio: 0.7, maxRatio: 1.3, eligible: endsAfterOffset });
      if (!best || best.d > p.maxDistance) continue;
      const position: [number, number] = [t.tokens[best.from].position[0], t.tokens[best.to].position[1]];
      if (taken.some(([a, b]) => a < position[1] && b > position[0])) continue;
      const own: { label3?: string; riskLevel?: RiskLevel } = typeof e === "string" ? {} : e;
      const under = t.tokens.slice(best.from, best.to + 1);
      const probability = Math.round(Math.max(0, Math.min(1, (under.reduce((s, k) => s + k.conf, 0) / under.length) * (1 - best.d))) * 1000) / 1000;
      const level = th.level(`speech:${list.name}`, probability, own.riskLevel ?? list.riskLevel);
      if (!level) continue;
      taken.push(position);
      out.push({
        type: list.type,
        riskLevel: capLevel(level, p.maxLevel),
        labels: [list.label1, list.label2, own.label3 ?? list.label3],
        probability,
        matchedLists: [{ name: list.name, words: [{ word: t.text.slice(...position), position, entry: entryId(e) }] }],
        riskSegments: t.phrases.filter(([a, b]) => a < position[1] && b > position[0]).map(([a, b]) => ({ segment: t.text.slice(a, b), position: [a, b] })),
      });
    }
  }
  return out;
}
