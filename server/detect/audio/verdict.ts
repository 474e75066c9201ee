// Turns audio hits into the contract's segment verdict: worst hit on top, every hit in allLabels.
import { mergeLists, mergeSegments, rank } from "../hits";
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import { describe, type LabelLang } from "../../../lib/labels";
import type { MatchedList, RiskSegment } from "../types";
import type { AudioBusinessLabel, AudioLabel, AudioRiskDetail, KnownAudioMatch, SegmentVerdict } from "./types";

/** One label a segment earned, before display names are attached. */
export interface AudioHit {
  type: string;
  riskLevel: RiskLevel;
  labels: [string, string, string];
  probability: number;
  riskSource: 1001 | 1003;
  matchedLists?: MatchedList[];
  riskSegments?: RiskSegment[];
  match?: KnownAudioMatch;
}

export interface AudioVerdictParts {
  hits: AudioHit[];
  lang: LabelLang;
  vadCode: 0 | 1;
  silent: boolean;
  /** transcript the positions refer to (with previousText in front when given) */
  text?: string;
  segmentText?: string;
  song?: { value: 0 | 1; probability: number; tag: boolean; business?: [string, string, string] };
  confidenceLevels: readonly [number, number];
  applied: string[];
  notApplied: string[];
  timingsMs: Record<string, number>;
}




function detailOf(source: AudioRiskDetail["riskSource"], hits: readonly AudioHit[], text: string | undefined): AudioRiskDetail {
  const d: AudioRiskDetail = { riskSource: source };
  if (text !== undefined) d.audioText = text;
  const textHits = hits.filter((h) => h.matchedLists);
  if (textHits.length > 0) {
    d.matchedLists = mergeLists(textHits);
    d.riskSegments = mergeSegments(textHits);
  }
  return d;
}

export function buildAudioVerdict(p: AudioVerdictParts): SegmentVerdict {
  const ranked = rank(p.hits);
  const allLabels: AudioLabel[] = ranked.map((h) => ({
    riskLevel: h.riskLevel,
    riskLabel1: h.labels[0],
    riskLabel2: h.labels[1],
    riskLabel3: h.labels[2],
    riskDescription: describe(h.labels[0], h.labels[1], h.labels[2], p.lang),
    probability: h.probability,
    riskDetail: detailOf(h.riskSource, [h], h.riskSource === 1001 ? p.text : undefined),
  }));
  const top = ranked[0];
  const businessLabels: AudioBusinessLabel[] = [];
  if (p.song?.business && p.song.value === 1) {
    const [l1, l2, l3] = p.song.business;
    const [mid, high] = p.confidenceLevels;
    businessLabels.push({
      businessLabel1: l1, businessLabel2: l2, businessLabel3: l3,
      businessDescription: describe(l1, l2, l3, p.lang),
      probability: p.song.probability,
      confidenceLevel: p.song.probability >= high ? 2 : p.song.probability >= mid ? 1 : 0,
    });
  }
  const v: SegmentVerdict = {
    vadCode: p.vadCode,
    riskLevel: top ? top.riskLevel : "PASS",
    riskLabel1: top ? top.labels[0] : "normal",
    riskLabel2: top ? top.labels[1] : "",
    riskLabel3: top ? top.labels[2] : "",
    riskDescription: top ? allLabels[0].riskDescription : describe("normal", "", "", p.lang),
    // audioText describes the segment whenever a transcript exists, with every list that matched in it
    riskDetail: detailOf(top ? top.riskSource : 1000, ranked, p.text),
    allLabels,
    businessLabels,
    silent: p.silent,
    applied: p.applied,
    notApplied: p.notApplied,
    timingsMs: p.timingsMs,
  };
  if (p.text !== undefined) v.audioText = p.text;
  if (p.segmentText !== undefined) v.segmentText = p.segmentText;
  if (p.song?.tag) v.audioTags = { song: p.song.value };
  const known = ranked.find((h) => h.match);
  if (known?.match) v.match = known.match;
  return v;
}
