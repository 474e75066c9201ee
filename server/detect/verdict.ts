// Turns engine hits into the contract's frame verdict: worst hit on top, every hit in allLabels.
import { mergeLists, mergeSegments, rank } from "./hits";
import { describe, type LabelLang } from "../../lib/labels";
import type { BusinessHit, Hit } from "./engines/engine";
import type {
  BusinessLabel, DetectedFace, DetectedObject, DetectedPerson, FrameLabel, FrameVerdict, ImgRiskDetail, OcrText,
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
  const ranked = rank(p.hits);
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
