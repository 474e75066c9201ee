// Keyword lists over a transcript: the same list model and matcher as frame text (same entry ids and offset rules).
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import type { KeywordList } from "../lists/model";
import { DEFAULT_THRESHOLDS, type Thresholds } from "../settings/thresholds";
import { compileLists, matchLists, type CompiledList } from "../text/match";
import type { MatchedList, RiskSegment } from "../types";
import type { Transcript } from "./stt/transcript";

export interface TextHit {
  type: string;
  riskLevel: RiskLevel;
  labels: [string, string, string];
  probability: number;
  matchedLists: MatchedList[];
  riskSegments: RiskSegment[];
}

export interface CompiledAudioLists {
  lists: CompiledList[];
  /** plain words and phrases of every list, for acoustic keyword spotting */
  phrases: string[];
}

/** Speech lists compiled for the shared matcher, plus the phrases pocketsphinx should spot. */
export function compileAudioLists(lists: readonly KeywordList[]): CompiledAudioLists {
  const speech = lists.filter((l) => l.scope === "speech");
  const phrases = speech.flatMap((l) => l.entries.flatMap((e) => (typeof e === "string" ? [e] : "phrase" in e ? [e.phrase] : [])));
  return { lists: compileLists(speech), phrases };
}

/**
 * The lists of the requested audio types that match in `t.text`, ignoring hits that end before `fromOffset`; each
 * list's run-time thresholds (`speech:<list>`) decide whether a hit counts and at which level.
 */
export function matchTranscript(t: Transcript, c: CompiledAudioLists, types: ReadonlySet<string>, o: { fromOffset: number; defaultConf: number }, th: Thresholds = DEFAULT_THRESHOLDS): TextHit[] {
  if (t.text === "") return [];
  const hits: TextHit[] = [];
  for (const h of matchLists(t.text, c.lists, types)) {
    const words = h.words.filter((w) => w.position[1] > o.fromOffset);
    if (words.length === 0) continue;
    const probability = probabilityOf(t, words.map((w) => w.position), o.defaultConf);
    const level = th.level(`speech:${h.list.name}`, probability, h.riskLevel);
    if (!level) continue;
    hits.push({
      type: h.list.type,
      riskLevel: level,
      labels: [h.label1, h.label2, h.label3],
      probability,
      matchedLists: [{ name: h.list.name, words }],
      riskSegments: segmentsOf(t, words.map((w) => w.position)),
    });
  }
  return hits;
}

/** Mean recogniser confidence of the tokens under the matched words. */
function probabilityOf(t: Transcript, spans: Array<[number, number]>, fallback: number): number {
  const confs = t.tokens.filter((k) => spans.some(([a, b]) => k.position[0] < b && k.position[1] > a)).map((k) => k.conf);
  const p = confs.length ? confs.reduce((s, v) => s + v, 0) / confs.length : fallback;
  return Math.round(Math.max(0, Math.min(1, p)) * 1000) / 1000;
}

/** The transcript phrases that hold the matched words (a word across two phrases takes both), in order. */
function segmentsOf(t: Transcript, spans: Array<[number, number]>): RiskSegment[] {
  return t.phrases
    .filter(([a, b]) => spans.some(([s, e]) => s < b && e > a))
    .map(([a, b]) => ({ segment: t.text.slice(a, b), position: [a, b] }));
}
