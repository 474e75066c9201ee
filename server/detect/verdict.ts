// Turns engine hits into the contract's frame verdict: worst hit on top, every hit in allLabels.
import { describe, type LabelLang } from "../../lib/labels";
import type { BusinessHit, Hit } from "./engines/engine";
import { RISK_ORDER } from "./policy";
import type {
  BusinessLabel, DetectedFace, DetectedObject, DetectedPerson, FrameLabel, FrameVerdict, ImgRiskDetail, MatchedList, OcrText, RiskSegment,
} from "./types";

export interface VerdictParts {
  hits: Hit[];
  /** business labels (imgBusinessTypes) */
  business?: BusinessHit[];
  lang: LabelLang;
  /** set when OCR ran (ADVERT or IMGTEXTRISK requested) */
  text?: string;
  /** every decoded QR code (QRCODE requested) */
  qrObjects?: DetectedObject[];
  /** set when the face engine ran: every face found (≤ 10 listed) */
  faces?: { faces: DetectedFace[]; faceNum: number };
  /** set when the object engine ran */
  persons?: { persons: DetectedPerson[]; personNum: number };
  applied: string[];
  notApplied: string[];
  timingsMs: Record<string, number>;
  scores?: Record<string, Record<string, number>>;
}

/** Worst level first, then most probable; stable for equal hits. */
export function rankHits(hits: readonly Hit[]): Hit[] {
  return [...hits].sort((a, b) => RISK_ORDER[b.riskLevel] - RISK_ORDER[a.riskLevel] || b.probability - a.probability);
}

function mergeLists(hits: readonly Hit[]): MatchedList[] {
  const byName = new Map<string, MatchedList>();
  for (const h of hits) {
    for (const l of h.matchedLists ?? []) {
      const into = byName.get(l.name) ?? { name: l.name, words: [] };
      into.words.push(...l.words);
      byName.set(l.name, into);
    }
  }
  for (const l of byName.values()) l.words.sort((a, b) => a.position[0] - b.position[0]);
  return [...byName.values()];
}

function mergeSegments(hits: readonly Hit[]): RiskSegment[] {
  const seen = new Map<string, RiskSegment>();
  for (const h of hits) for (const s of h.riskSegments ?? []) seen.set(`${s.position[0]}:${s.position[1]}`, s);
  return [...seen.values()].sort((a, b) => a.position[0] - b.position[0]);
}

function ocrText(text: string, hits: readonly Hit[]): OcrText {
  const textHits = hits.filter((h) => h.matchedLists);
  if (textHits.length === 0) return { text };
  return { text, matchedLists: mergeLists(textHits), riskSegments: mergeSegments(textHits) };
}

function detailOf(hit: Hit, text: string | undefined): ImgRiskDetail {
  const d: ImgRiskDetail = { riskSource: hit.riskSource };
  if (hit.faces) {
    d.faces = hit.faces;
    d.face_num = hit.faces.length;
  }
  if (hit.objects) d.objects = hit.objects;
  if (text !== undefined && hit.matchedLists) d.ocrText = ocrText(text, [hit]);
  if (hit.hashMatch) d.hashMatch = hit.hashMatch;
  return d;
}

/** In engine order (faces: detection, then per face age / gender / gallery; then objects). */
function businessLabels(hits: readonly BusinessHit[], lang: LabelLang): BusinessLabel[] {
  return hits.map((b) => ({
    businessLabel1: b.labels[0],
    businessLabel2: b.labels[1],
    businessLabel3: b.labels[2],
    businessDescription: describe(b.labels[0], b.labels[1], b.labels[2], lang),
    probability: b.probability,
    confidenceLevel: b.confidenceLevel,
    businessDetail: b.detail,
  }));
}

export function buildVerdict(p: VerdictParts): FrameVerdict {
  const ranked = rankHits(p.hits);
  const allLabels: FrameLabel[] = ranked.map((h) => ({
    riskLevel: h.riskLevel,
    riskLabel1: h.labels[0],
    riskLabel2: h.labels[1],
    riskLabel3: h.labels[2],
    riskDescription: describe(h.labels[0], h.labels[1], h.labels[2], p.lang),
    probability: h.probability,
    riskDetail: detailOf(h, p.text),
  }));
  const top = ranked[0];
  const riskDetail: ImgRiskDetail = { riskSource: top ? top.riskSource : 1000 };
  // faces / persons describe the frame: present whenever their engine ran (names filled by gallery matches)
  if (p.faces) {
    riskDetail.faces = p.faces.faces;
    riskDetail.face_num = p.faces.faceNum;
  }
  if (p.persons) {
    riskDetail.persons = p.persons.persons;
    riskDetail.person_num = p.persons.personNum;
  }
  if (top?.objects) riskDetail.objects = top.objects;
  if (top?.hashMatch) riskDetail.hashMatch = top.hashMatch;
  // ocrText describes the frame's text: present whenever OCR ran, with every list that matched
  if (p.text !== undefined) riskDetail.ocrText = ocrText(p.text, ranked);
  const verdict: FrameVerdict = {
    riskLevel: top ? top.riskLevel : "PASS",
    riskLabel1: top ? top.labels[0] : "normal",
    riskLabel2: top ? top.labels[1] : "",
    riskLabel3: top ? top.labels[2] : "",
    riskDescription: top ? allLabels[0].riskDescription : describe("normal", "", "", p.lang),
    riskDetail,
    allLabels,
    businessLabels: businessLabels(p.business ?? [], p.lang),
    applied: p.applied,
    notApplied: p.notApplied,
    timingsMs: p.timingsMs,
  };
  if (p.text !== undefined) verdict.imgText = p.text;
  if (p.qrObjects && p.qrObjects.length > 0) verdict.qrContent = p.qrObjects[0].qrContent;
  if (p.scores) verdict.scores = p.scores;
  return verdict;
}
