// Decision policy: every threshold and label the detectors apply, in one place (defaults: the thresholds that decide
// PASS / REVIEW / REJECT can be overridden at run time, see settings/thresholds.ts).
import type { RiskLevel } from "../../lib/contract/taxonomy";

/** One nsfwjs class: REVIEW from `review`, REJECT from `reject` (defaults; operators override them: settings/thresholds.ts). */
export interface NsfwClassRule {
  review: number | null;
  reject: number | null;
  reviewLabels: [string, string, string];
  rejectLabels: [string, string, string];
}

export const POLICY = {
  qrcode: {
    // a QR code is a way off the platform (often an ad or contact lure) but also legitimate (payments, events): a human decides
    riskLevel: "REVIEW" as RiskLevel,
    labels: ["ad", "erweima", "erweima"] as [string, string, string],
    riskSource: 1002 as const,
    formats: ["QRCode", "MicroQRCode"] as const,
    maxSymbols: 8,
  },
  ocr: {
    riskSource: 1001 as const,
    // Tesseract word confidence (0–100) below which a word is dropped: test patterns produce confidence < 50 noise
    minWordConfidence: 60,
    // PaddleOCR: a line whose mean character probability is under this is dropped (test patterns read as noise)
    minLineConfidence: 0.5,
  },
  nsfw: {
    riskSource: 1002 as const,
    /**
     * Per class: REVIEW at `review`, REJECT at `reject`. Conservative: MobileNetV2 gave at most Porn 0.03 /
     * Hentai 0.04 / Sexy 0.004 on our neutral patterns, text and QR frames, so REJECT needs 0.85.
     */
    classes: {
      Porn: { review: 0.6, reject: 0.85, reviewLabels: ["porn", "yisiseqing", "yisiseqing"], rejectLabels: ["porn", "porn", "porn"] },
      Hentai: { review: 0.6, reject: 0.85, reviewLabels: ["porn", "yisiseqing", "yisiseqing"], rejectLabels: ["porn", "dongmanseqing", "dongmanseqing"] },
      Sexy: { review: 0.8, reject: null, reviewLabels: ["sexy", "xinggan", "xinggan"], rejectLabels: ["sexy", "xinggan", "xinggan"] },
    } as Record<"Porn" | "Hentai" | "Sexy", NsfwClassRule>,
  },
  faces: {
    /**
     * FaceMesh confidence a face must reach. Measured here: with the mesh on, real faces in the human assets scored
     * 0.98–1.00 and test patterns / QR / text frames produced no candidate; one small group-photo face scored 0.33.
     * (Without the mesh, BlazeFace alone gave 0.21–0.47 false faces on QR and text frames: the mesh stays on.)
     */
    minScore: 0.5,
    /** candidates human keeps before our threshold (its own detector.minConfidence) */
    candidateScore: 0.2,
    /** faces counted per frame (face_num); at most `reported` are listed (contract: faces[] ≤ 10) */
    maxDetected: 20,
    reported: 10,
    /** AGE buckets, first whose bound the estimated age is below; label `face:nianling:<slug>` */
    ageBuckets: [
      { below: 13, slug: "ertong" },
      { below: 18, slug: "qingshaonian" },
      { below: 36, slug: "qingnian" },
      { below: 60, slug: "zhongnian" },
      { below: Infinity, slug: "laonian" },
    ],
    /** an estimated age below this adds `minor:weichengnianren:weichengnianren` */
    minorAge: 18,
    /** MINOR confidenceLevel 2 / 1 below these ages (faceres ages cluster near 29: a young estimate is a strong signal) */
    minorLevelAges: [12, 15] as [number, number],
    /** GENDER is reported only at or above this score (a man scored "female 0.11–0.21" here) */
    genderMinScore: 0.5,
    /** confidenceLevel 1 / 2 from these scores */
    genderLevels: [0.7, 0.9] as [number, number],
    detectionLevels: [0.7, 0.9] as [number, number],
  },
  gallery: {
    /**
     * Cosine similarity of faceres embeddings for a match. Measured on the human assets: same person across 15 photos
     * (105 pairs) min 0.517 / p5 0.571 / median 0.748; that person vs others (1,155 pairs) median 0.355, p99 0.514, max 0.559.
     */
    minSimilarity: 0.6,
    levels: [0.65, 0.75] as [number, number],
    /** politicians-list match under imgType POLITY */
    politics: { riskLevel: "REJECT" as RiskLevel, label1: "politics", label2: "zhengzhirenwu", riskSource: 1002 as const },
    /** label3 of a politician hit: the entry's slug, or "***" (vendor style masking) when true */
    maskPoliticianNames: false,
    /** references kept per gallery entry (oldest dropped) */
    maxReferencesPerEntry: 20,
  },
  objects: {
    /**
     * CenterNet score for a COCO object or person. Measured here: real person 0.39–0.65, cup 0.46; spurious tie /
     * surfboard / clock / racket 0.10–0.32 on photos and icons (one icon: parking meter 0.50).
     */
    minScore: 0.4,
    maxDetected: 20,
    reported: 10,
    levels: [0.5, 0.7] as [number, number],
  },
  hash: {
    /**
     * Hamming distance (of 64) of the closest pair of hashes for a bank hit (pHash, mirrored, vs crops, dHash: see
     * hash-bank.ts#match). Measured (tests/eval/hash.ts): 20 entries × 15 edits all recalled at ≤ 8 (EVAL_SCALE=2,
     * 40 × 15: 598 of 600); the nearest of 524 (1,044) unrelated images at 10, so 8 leaves a margin of 2.
     */
    maxDistance: 8,
    riskLevel: "REJECT" as RiskLevel,
    label1: "prohibited",
    label2: "jinjitupian",
    riskSource: 1002 as const,
    /** also hash the frame with uniform (letterbox / pillarbox) borders cut off: a 16:9 letterbox moved pHash 22–32 */
    trimBorders: true,
    /** a border row/column differs from the corner by at most this (greyscale 0–255) */
    borderTolerance: 24,
  },
} as const;

export const RISK_ORDER: Record<RiskLevel, number> = { PASS: 0, REVIEW: 1, REJECT: 2 };

/** `level`, but no higher than `max`. */
export const capLevel = (level: RiskLevel, max: RiskLevel): RiskLevel => (RISK_ORDER[level] > RISK_ORDER[max] ? max : level);
