// Run-time thresholds: which score makes a hit REVIEW or REJECT, per detector and label. Defaults come from
// policy.ts / audio/policy.ts; operators override them (settings/policy-store.ts); detectors read them per frame/segment.
import { z } from "zod";
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import { AUDIO_POLICY } from "../audio/policy";
import type { KeywordList } from "../lists/model";
import { POLICY } from "../policy";
import { DocWatcher } from "./doc";

export interface Threshold {
  /** a hit needs this score (else it is dropped: PASS); null = no REVIEW band */
  review: number | null;
  /** from this score the hit is REJECT; null = never escalated */
  reject: number | null;
  /** false: the label never fires */
  enabled: boolean;
}

export interface RuleSpec {
  key: string;
  /** detector (engine) that applies it */
  detector: "nsfw" | "qrcode" | "hash" | "ocr" | "speech" | "known";
  /** what fires: the label(s) and when */
  label: string;
  /** the score compared with the thresholds */
  score: string;
  /** atLeast: score ≥ threshold fires (probabilities); atMost: score ≤ threshold fires (distances) */
  direction: "atLeast" | "atMost";
  range: [number, number];
  defaults: Threshold;
}

export type ThresholdOverrides = Record<string, Partial<Threshold>>;

const t = (review: number | null, reject: number | null): Threshold => ({ review, reject, enabled: true });
const labels = (l: readonly string[]) => l.join(":");

/** Rules that do not depend on the keyword lists. */
export const STATIC_RULES: readonly RuleSpec[] = [
  ...(Object.entries(POLICY.nsfw.classes) as Array<[string, (typeof POLICY.nsfw.classes)["Porn"]]>).map(([cls, c]): RuleSpec => ({
    key: `nsfw:${cls}`, detector: "nsfw", direction: "atLeast", range: [0, 1], defaults: t(c.review, c.reject),
    label: `EROTIC: REVIEW ${labels(c.reviewLabels)}, REJECT ${labels(c.rejectLabels)}`, score: `nsfwjs ${cls} probability`,
  })),
  {
    key: "qrcode", detector: "qrcode", direction: "atLeast", range: [0, 1], defaults: t(1, null),
    label: `QRCODE: ${labels(POLICY.qrcode.labels)}`, score: "1 for every decoded code (set reject ≤ 1 to REJECT every QR code)",
  },
  {
    key: "hash", detector: "hash", direction: "atMost", range: [0, 64], defaults: t(POLICY.hash.maxDistance, POLICY.hash.maxDistance),
    label: `hash bank: ${POLICY.hash.label1}:${POLICY.hash.label2}:<list>`, score: "Hamming distance of 64-bit pHashes (lower = closer)",
  },
  ...(Object.entries(AUDIO_POLICY.known.lists) as Array<[string, (typeof AUDIO_POLICY.known.lists)["anthem"]]>).map(([list, r]): RuleSpec => ({
    key: `known:${list}`, detector: "known", direction: "atLeast", range: [0, 1],
    defaults: t(AUDIO_POLICY.known.minScore, r.riskLevel === "REJECT" ? AUDIO_POLICY.known.minScore : null),
    label: `${r.type}: ${labels(r.labels)} (reference list ${list})`, score: "fingerprint match (1 − bit-error rate)",
  })),
];

/** The rule of one keyword list: any confidence is enough; hits keep the list's (or entry's) level. */
export function listRule(list: Pick<KeywordList, "scope" | "name" | "type" | "label1" | "label2" | "label3" | "riskLevel">): RuleSpec {
  const image = list.scope === "image";
  return {
    key: `${image ? "ocr" : "speech"}:${list.name}`, detector: image ? "ocr" : "speech", direction: "atLeast", range: [0, 1], defaults: t(0, null),
    label: `${list.type}: ${list.label1}:${list.label2}:${list.label3} (${image ? "image text" : "speech"} list ${list.name}, ${list.riskLevel})`,
    score: image ? "OCR confidence of the line (0–1)" : "recogniser confidence of the matched words (0–1)",
  };
}

/** Every rule: the static ones, then one per keyword list. */
export function ruleSpecs(lists: readonly KeywordList[]): RuleSpec[] {
  return [...STATIC_RULES, ...lists.map(listRule)];
}

export const thresholdOverridesShape = z.record(
  z.string(),
  z.object({ review: z.number().finite().nullable().optional(), reject: z.number().finite().nullable().optional(), enabled: z.boolean().optional() }).strict(),
);

/** Thresholds as applied: overrides over defaults. Keys nobody configured (e.g. a new list) use `fallback`. */
export class Thresholds {
  constructor(private readonly overrides: ThresholdOverrides = {}) {}

  rule(key: string): Threshold & { direction: RuleSpec["direction"] } {
    const spec = STATIC_RULES.find((r) => r.key === key);
    const base = spec?.defaults ?? t(0, null);
    return { ...base, ...(Object.prototype.hasOwnProperty.call(this.overrides, key) ? this.overrides[key] : {}), direction: spec?.direction ?? "atLeast" };
  }

  /**
   * The level a hit with this score gets: REJECT at or past `reject`, `base` (the detector's own level, REVIEW unless a
   * list or entry says REJECT) at or past `review`, null (no hit) otherwise or when the rule is disabled.
   */
  level(key: string, score: number, base: RiskLevel = "REVIEW"): RiskLevel | null {
    const r = this.rule(key);
    if (!r.enabled) return null;
    const fires = (x: number | null) => x !== null && (r.direction === "atLeast" ? score >= x : score <= x);
    if (fires(r.reject)) return "REJECT";
    return fires(r.review) ? base : null;
  }

  /** The loosest threshold that can still fire (what a detector must look at least as far as); null when off. */
  loosest(key: string): number | null {
    const r = this.rule(key);
    const set = [r.review, r.reject].filter((x): x is number => x !== null);
    if (!r.enabled || set.length === 0) return null;
    return r.direction === "atLeast" ? Math.min(...set) : Math.max(...set);
  }
}

export const DEFAULT_THRESHOLDS = new Thresholds();

/** Stored overrides, validated; a damaged document counts as none. */
export function overridesOf(doc: unknown): ThresholdOverrides {
  const r = z.object({ overrides: thresholdOverridesShape }).safeParse(doc);
  return r.success ? r.data.overrides : {};
}

/** Detector side: the current thresholds, re-read when the stamp in `dir` changes (defaults without a folder). */
export function thresholdsReader(dir: string | undefined): () => Thresholds {
  const w = new DocWatcher(dir, (doc) => new Thresholds(overridesOf(doc)));
  return () => w.get();
}
