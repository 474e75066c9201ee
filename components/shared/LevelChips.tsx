"use client";

import type { Dispatch, SetStateAction } from "react";
import type { RiskLevel } from "@/lib/dashboard-api";
import { riskStyles } from "@/components/ui/risk";

const LEVELS: RiskLevel[] = ["REJECT", "REVIEW", "PASS"];

/** How many of `levels` are at each risk level. */
export function countLevels(levels: Iterable<RiskLevel>): Record<RiskLevel, number> {
  const c: Record<RiskLevel, number> = { PASS: 0, REVIEW: 0, REJECT: 0 };
  for (const l of levels) c[l] += 1;
  return c;
}

/** One pressed/unpressed chip per risk level present; pressing one hides or shows that level's frames. */
export default function LevelChips({ counts, hidden, setHidden }: { counts: Record<RiskLevel, number>; hidden: RiskLevel[]; setHidden: Dispatch<SetStateAction<RiskLevel[]>> }) {
  return LEVELS.filter((l) => counts[l] > 0).map((l) => {
    const on = !hidden.includes(l);
    return (
      <button
        key={l}
        type="button"
        aria-pressed={on}
        onClick={() => setHidden((h) => (on ? [...h, l] : h.filter((x) => x !== l)))}
        className={`rounded border px-2 py-0.5 ${on ? `${riskStyles[l].border} ${riskStyles[l].text}` : "border-surface-line text-zinc-600"}`}
      >
        {l} · {counts[l]}
      </button>
    );
  });
}
