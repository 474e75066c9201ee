import type { RiskLevel } from "@/lib/dashboard-api";
import { describeGaps, verdictDisplay, type FileCoverage } from "@/lib/file-coverage";
import RiskBadge from "@/components/ui/RiskBadge";

const SIZES = { md: "px-2 py-0.5 text-xs", lg: "px-3 py-1 text-sm" };

/** A finished file's verdict: NOT CHECKED instead of a PASS over nothing checked, "partly checked" beside a partial one. */
export default function FileVerdictBadge({ level, coverage, size = "md" }: { level: RiskLevel; coverage: FileCoverage | null; size?: keyof typeof SIZES }) {
  const shown = verdictDisplay(level, coverage);
  const why = coverage && coverage.gaps.length > 0 ? `Not checked: ${describeGaps(coverage)}` : undefined;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="file-verdict" data-coverage={coverage?.state ?? "unknown"} title={why}>
      {shown.badge === "not-checked" ? (
        <span data-testid="not-checked-badge" className={`inline-flex items-center rounded bg-zinc-700 font-bold tracking-wide text-zinc-200 ring-1 ring-inset ring-zinc-500 ${SIZES[size]}`}>
          NOT CHECKED
        </span>
      ) : (
        <RiskBadge level={level} size={size} />
      )}
      {shown.tag && (
        <span data-testid="coverage-tag" className={`rounded px-1.5 py-0.5 text-[10px] font-semibold ${shown.tag === "partly checked" ? "bg-amber-900/40 text-amber-200" : "bg-zinc-800 text-zinc-400"}`}>
          {shown.tag}
        </span>
      )}
    </span>
  );
}
