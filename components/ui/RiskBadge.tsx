import type { RiskLevel } from "@/lib/dashboard-api";
import { riskStyles } from "./risk";

const SIZES = {
  sm: "px-1.5 py-0.5 text-[10px]",
  md: "px-2 py-0.5 text-xs",
  lg: "px-3 py-1 text-sm",
};

export default function RiskBadge({ level, size = "md" }: { level: RiskLevel; size?: keyof typeof SIZES }) {
  return (
    <span
      data-testid="risk-badge"
      data-level={level}
      className={`inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded font-semibold tracking-wide ring-1 ring-inset ${SIZES[size]} ${riskStyles[level].badge}`}
    >
      <span aria-hidden className={`inline-block h-1.5 w-1.5 rounded-full ${riskStyles[level].bar}`} />
      {level}
    </span>
  );
}
