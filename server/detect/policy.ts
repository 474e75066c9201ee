// Decision policy: every threshold and label the detectors apply, in one place.
import type { RiskLevel } from "../../lib/contract/taxonomy";

export interface NsfwRule {
  /** nsfwjs class name */
  className: "Porn" | "Hentai" | "Sexy" | "Drawing" | "Neutral";
  /** the class probability must reach this */
  min: number;
  riskLevel: RiskLevel;
  labels: [string, string, string];
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
  },
  nsfw: {
    riskSource: 1002 as const,
    /**
     * Checked in order; per class only the first rule that fires counts. Conservative: MobileNetV2 gave at most
     * Porn 0.03 / Hentai 0.04 / Sexy 0.004 on our neutral patterns, text and QR frames, so REJECT needs 0.85.
     */
    rules: [
      { className: "Porn", min: 0.85, riskLevel: "REJECT", labels: ["porn", "porn", "porn"] },
      { className: "Hentai", min: 0.85, riskLevel: "REJECT", labels: ["porn", "dongmanseqing", "dongmanseqing"] },
      { className: "Porn", min: 0.6, riskLevel: "REVIEW", labels: ["porn", "yisiseqing", "yisiseqing"] },
      { className: "Hentai", min: 0.6, riskLevel: "REVIEW", labels: ["porn", "yisiseqing", "yisiseqing"] },
      { className: "Sexy", min: 0.8, riskLevel: "REVIEW", labels: ["sexy", "xinggan", "xinggan"] },
    ] as NsfwRule[],
  },
} as const;

export const RISK_ORDER: Record<RiskLevel, number> = { PASS: 0, REVIEW: 1, REJECT: 2 };
