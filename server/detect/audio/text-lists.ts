// Keyword lists over a transcript: reuses the frame engine's matcher (same entry ids and offset rules).
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import { compileLists, matchLists, wordToPattern, type CompiledList, type KeywordList, type ListEntry } from "../text/match";
import type { MatchedList, RiskSegment } from "../types";
import type { AudioKeywordList } from "./lists";
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
  lists: Array<{ list: AudioKeywordList; compiled: CompiledList }>;
  /** plain phrases of every list, for acoustic keyword spotting */
  phrases: string[];
}

export function compileAudioLists(lists: readonly AudioKeywordList[]): CompiledAudioLists {
  const phrases: string[] = [];
  const out = lists.map((list) => {
    const entries: ListEntry[] = list.entries.map((e) => {
      if (typeof e === "string") {
        phrases.push(e);
        return e;
      }
      if ("phrase" in e) {
        phrases.push(e.phrase);
        return { id: e.phrase, pattern: wordToPattern(e.phrase), label3: e.label3, riskLevel: e.riskLevel };
      }
      return e;
    });
    // the shared matcher switches lists on by imgType; audio lists are chosen before it runs, so one fixed key
    const kl: KeywordList = { name: list.name, imgType: "ADVERT", riskLevel: list.riskLevel, label1: list.label1, label2: list.label2, label3: list.label3, entries };
    return { list, compiled: compileLists([kl])[0] };
  });
  return { lists: out, phrases };
}

/** The lists of the requested audio types that match in `t.text`, ignoring hits that end before `fromOffset`. */
export function matchTranscript(t: Transcript, c: CompiledAudioLists, types: ReadonlySet<string>, o: { fromOffset: number; defaultConf: number }): TextHit[] {
  const active = c.lists.filter((l) => types.has(l.list.audioType));
  if (active.length === 0 || t.text === "") return [];
  const hits: TextHit[] = [];
  for (const h of matchLists(t.text, active.map((l) => l.compiled), new Set(["ADVERT"]))) {
    const words = h.words.filter((w) => w.position[1] > o.fromOffset);
    if (words.length === 0) continue;
    const list = active.find((l) => l.list.name === h.list.name)!.list;
    hits.push({
      type: list.audioType,
      riskLevel: h.riskLevel,
      labels: [h.label1, h.label2, h.label3],
      probability: probabilityOf(t, words.map((w) => w.position), o.defaultConf),
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
