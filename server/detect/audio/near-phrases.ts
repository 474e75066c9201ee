// List phrases a recogniser nearly wrote: a run of transcript words spelled within a small edit distance of a long
// list phrase ("add me on whatchat", "overflow the government"). A recogniser that spells what it heard mishears a
// word or two of a phrase far more often than it invents a long phrase from unrelated speech, so such a run is
// reported for a human (REVIEW at most), never as a certain REJECT. Short phrases are left to the exact matcher:
// within two letters of them lies too much ordinary speech.
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import { entryId } from "../lists/model";
import type { NearPhrasePolicy } from "./policy";
import type { CompiledAudioLists, TextHit } from "./text-lists";
import type { Transcript } from "./stt/transcript";
import { editDistance } from "../text/edit-distance";

const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
const RANK: Record<RiskLevel, number> = { PASS: 0, REVIEW: 1, REJECT: 2 };

/**
 * Near matches of the phrase entries of the requested lists in `t`, beside the exact `hits` (a run overlapping an
 * exact hit of the same list is not reported again). Probability: the tokens' confidence × (1 − distance).
 */
export function nearPhraseHits(t: Transcript, c: CompiledAudioLists, types: ReadonlySet<string>, exact: readonly TextHit[], p: NearPhrasePolicy, fromOffset: number): TextHit[] {
  const out: TextHit[] = [];
  const words = t.tokens.map((k) => ({ k, l: letters(k.text) }));
  for (const { list } of c.lists) {
    if (!types.has(list.type)) continue;
    const taken = exact.filter((h) => h.matchedLists.some((m) => m.name === list.name)).flatMap((h) => h.matchedLists.flatMap((m) => m.words.map((w) => w.position)));
    for (const e of list.entries) {
      const phrase = typeof e === "string" ? e : "phrase" in e ? e.phrase : null;
      if (!phrase) continue;
      const want = letters(phrase);
      if (want.length < p.minLetters) continue;
      const best = closestRun(words, want, fromOffset);
      if (!best || best.d > p.maxDistance) continue;
      const position: [number, number] = [t.tokens[best.from].position[0], t.tokens[best.to].position[1]];
      if ([...taken, ...out.flatMap((h) => h.matchedLists.flatMap((m) => m.words.map((w) => w.position)))].some(([a, b]) => a < position[1] && b > position[0])) continue;
      const own: { label3?: string; riskLevel?: RiskLevel } = typeof e === "string" ? {} : e;
      const entryLevel = own.riskLevel ?? list.riskLevel;
      const under = t.tokens.slice(best.from, best.to + 1);
      const conf = under.reduce((s, k) => s + k.conf, 0) / under.length;
      out.push({
        type: list.type,
        riskLevel: RANK[entryLevel] > RANK[p.maxLevel] ? p.maxLevel : entryLevel,
        labels: [list.label1, list.label2, own.label3 ?? list.label3],
        probability: Math.round(Math.max(0, Math.min(1, conf * (1 - best.d))) * 1000) / 1000,
        matchedLists: [{ name: list.name, words: [{ word: t.text.slice(...position), position, entry: entryId(e) }] }],
        riskSegments: t.phrases.filter(([a, b]) => a < position[1] && b > position[0]).map(([a, b]) => ({ segment: t.text.slice(a, b), position: [a, b] })),
      });
    }
  }
  return out;
}

/** The run of consecutive words whose letters are closest to `want` (ending at or after `fromOffset`). */
function closestRun(words: ReadonlyArray<{ k: Transcript["tokens"][number]; l: string }>, want: string, fromOffset: number): { d: number; from: number; to: number } | null {
  let best: { d: number; from: number; to: number } | null = null;
  for (let i = 0; i < words.length; i++) {
    let run = "";
    for (let j = i; j < words.length; j++) {
      run += words[j].l;
      if (run.length > want.length * 1.3 + 1) break;
      if (run.length < want.length * 0.7 || words[j].k.position[1] <= fromOffset) continue;
      const d = editDistance(run, want) / Math.max(run.length, want.length);
      if (!best || d < best.d) best = { d, from: i, to: j };
    }
  }
  return best;
}
