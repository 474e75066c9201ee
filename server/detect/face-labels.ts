// Face findings → business labels (FACEDETECTION, AGE + minors, GENDER, PUBLICFIGURE, TAINTEDSTAR) and POLITY hits. Pure.
import type { BusinessHit, Hit } from "./engines/engine";
import { entryLabel } from "./gallery-store";
import { POLICY } from "./policy";
import type { DetectedFace, GalleryMatch } from "./types";

export interface FaceFinding {
  face: DetectedFace;
  /** estimated age in years (faceres), when descriptions ran */
  age?: number;
  gender?: string;
  genderScore?: number;
  /** best gallery entry, when a consulted list matched */
  match?: GalleryMatch;
}

type Level = 0 | 1 | 2;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** 0 below levels[0], 1 below levels[1], else 2. */
export function confidenceLevel(score: number, levels: readonly [number, number]): Level {
  return score >= levels[1] ? 2 : score >= levels[0] ? 1 : 0;
}

export function ageBucket(age: number): string {
  return POLICY.faces.ageBuckets.find((b) => age < b.below)!.slug;
}

/** How far the estimate sits from the nearest bucket bound: ≥ 5 years 2, ≥ 2 years 1, else 0. */
export function ageLevel(age: number): Level {
  const gap = Math.min(...POLICY.faces.ageBuckets.filter((b) => Number.isFinite(b.below)).map((b) => Math.abs(age - b.below)));
  return gap >= 5 ? 2 : gap >= 2 ? 1 : 0;
}

export function isMinor(age: number): boolean {
  return age < POLICY.faces.minorAge;
}

/** MINOR confidence: 2 under minorLevelAges[0], 1 under minorLevelAges[1], else 0. */
export function minorLevel(age: number): Level {
  const [high, mid] = POLICY.faces.minorLevelAges;
  return age < high ? 2 : age < mid ? 1 : 0;
}

/** AGE labels of one face: its bucket, plus `minor:weichengnianren:weichengnianren` under minorAge. */
export function ageHits(face: DetectedFace, age: number): BusinessHit[] {
  const detail = { faces: [face], face_num: 1, age: Math.round(age * 10) / 10 };
  const hits: BusinessHit[] = [{ labels: ["face", "nianling", ageBucket(age)], probability: face.probability, confidenceLevel: ageLevel(age), detail }];
  if (isMinor(age)) hits.push({ labels: ["minor", "weichengnianren", "weichengnianren"], probability: face.probability, confidenceLevel: minorLevel(age), detail });
  return hits;
}

export function genderHit(face: DetectedFace, gender: string | undefined, score: number | undefined): BusinessHit | undefined {
  if ((gender !== "male" && gender !== "female") || score === undefined || score < POLICY.faces.genderMinScore) return undefined;
  return {
    labels: ["face", "xingbie", gender === "male" ? "nan" : "nv"],
    probability: r3(score),
    confidenceLevel: confidenceLevel(score, POLICY.faces.genderLevels),
    detail: { faces: [face], face_num: 1 },
  };
}

/** FACEDETECTION: real face(s), or no face with 1 − the best rejected candidate's score as its probability. */
export function detectionHit(faces: readonly DetectedFace[], faceNum: number, bestRejected: number): BusinessHit {
  if (faces.length === 0) {
    const p = r3(1 - bestRejected);
    return { labels: ["face", "renlianleixing", "wurenlian"], probability: p, confidenceLevel: confidenceLevel(p, POLICY.faces.detectionLevels), detail: { faces: [], face_num: 0 } };
  }
  const p = Math.max(...faces.map((f) => f.probability));
  return { labels: ["face", "renlianleixing", "zhenren"], probability: p, confidenceLevel: confidenceLevel(p, POLICY.faces.detectionLevels), detail: { faces: [...faces], face_num: faceNum } };
}

const GALLERY_LABELS: Record<string, { type: string; label1: string; label2: string }> = {
  public_figures: { type: "PUBLICFIGURE", label1: "publicfigure", label2: "gongzhongrenwu" },
  politicians: { type: "PUBLICFIGURE", label1: "publicfigure", label2: "zhengzhirenwu" },
  tainted_stars: { type: "TAINTEDSTAR", label1: "taintedstar", label2: "liejiyiren" },
};

/** Gallery lists each type consults: a politician is a public figure too. */
export const LISTS_FOR_TYPE = {
  PUBLICFIGURE: ["public_figures", "politicians"],
  TAINTEDSTAR: ["tainted_stars"],
  POLITY: ["politicians"],
} as const;

export function galleryHit(face: DetectedFace, match: GalleryMatch, business: ReadonlySet<string>): BusinessHit | undefined {
  const g = GALLERY_LABELS[match.list];
  if (!g || !business.has(g.type)) return undefined;
  return {
    labels: [g.label1, g.label2, entryLabel(match.entry, false)],
    probability: match.similarity,
    confidenceLevel: confidenceLevel(match.similarity, POLICY.gallery.levels),
    detail: { faces: [face], face_num: 1, match },
  };
}

/** POLITY: each face matching the politicians list → REJECT politics:zhengzhirenwu:<entry slug or ***>. */
export function politicsHits(findings: readonly FaceFinding[]): Hit[] {
  const p = POLICY.gallery.politics;
  return findings
    .filter((f) => f.match?.list === "politicians")
    .map((f) => ({
      imgType: "POLITY",
      riskLevel: p.riskLevel,
      labels: [p.label1, p.label2, entryLabel(f.match!.entry)] as [string, string, string],
      probability: f.match!.similarity,
      riskSource: p.riskSource,
      faces: [f.face],
    }));
}

/** Every business label the findings earn for the requested imgBusinessTypes. */
export function faceBusinessHits(findings: readonly FaceFinding[], faceNum: number, bestRejected: number, business: ReadonlySet<string>): BusinessHit[] {
  const hits: BusinessHit[] = [];
  if (business.has("FACEDETECTION")) hits.push(detectionHit(findings.map((f) => f.face), faceNum, bestRejected));
  for (const f of findings) {
    if (business.has("AGE") && f.age !== undefined) hits.push(...ageHits(f.face, f.age));
    if (business.has("GENDER")) {
      const g = genderHit(f.face, f.gender, f.genderScore);
      if (g) hits.push(g);
    }
    if (f.match) {
      const g = galleryHit(f.face, f.match, business);
      if (g) hits.push(g);
    }
  }
  return hits;
}
