import type { RiskLevel } from "@/lib/dashboard-api";

export const RISK_ORDER: readonly RiskLevel[] = ["PASS", "REVIEW", "REJECT"];

/** Tailwind classes per risk level: the only place risk colours are chosen. */
export const riskStyles: Record<RiskLevel, { text: string; badge: string; border: string; ring: string; bar: string }> = {
  PASS: {
    text: "text-risk-pass",
    badge: "bg-risk-pass/15 text-risk-pass ring-risk-pass/40",
    border: "border-risk-pass/40",
    ring: "ring-risk-pass/30",
    bar: "bg-risk-pass",
  },
  REVIEW: {
    text: "text-risk-review",
    badge: "bg-risk-review/15 text-risk-review ring-risk-review/50",
    border: "border-risk-review",
    ring: "ring-risk-review/60",
    bar: "bg-risk-review",
  },
  REJECT: {
    text: "text-risk-reject",
    badge: "bg-risk-reject/15 text-risk-reject ring-risk-reject/50",
    border: "border-risk-reject",
    ring: "ring-risk-reject/60",
    bar: "bg-risk-reject",
  },
};

export function isRiskLevel(v: unknown): v is RiskLevel {
  return v === "PASS" || v === "REVIEW" || v === "REJECT";
}

/** Unknown levels render as REVIEW: a human should look at anything the UI cannot classify. */
export function asRiskLevel(v: unknown): RiskLevel {
  return isRiskLevel(v) ? v : "REVIEW";
}

export function worseOf(a: RiskLevel, b: RiskLevel): RiskLevel {
  return RISK_ORDER.indexOf(a) >= RISK_ORDER.indexOf(b) ? a : b;
}
