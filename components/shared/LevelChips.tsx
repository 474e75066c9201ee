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

/**
 * "Show only" chips, one per risk level present: pressing one shows only the pressed levels' frames; with none
 * pressed every level shows. (A moderator asks "show me the REJECTs", not "hide the PASSes".)
 */
export default function LevelChips<L extends string>({ counts, only, setOnly }: { counts: Record<RiskLevel, number>; only: L[]; setOnly: Dispatch<SetStateAction<L[]>> }) {
  return LEVELS.filter((l) => counts[l] > 0).map((l) => {
    const on = (only as string[]).includes(l);
    return (
      <button
        key={l}
        type="button"
        data-testid={`only-${l}`}
        aria-pressed={on}
        title={on ? `showing only the pressed levels; press again to stop showing ${l}` : `show only ${l} (with any other pressed level)`}
        onClick={() => setOnly((o) => (on ? o.filter((x) => x !== l) : [...o, l as L]))}
        className={`rounded border px-2 py-0.5 ${on ? `${riskStyles[l].border} ${riskStyles[l].text} bg-surface-raised` : "border-surface-line text-zinc-400"}`}
      >
        {l} · {counts[l]}
      </button>
    );
  });
}

/** Whether a level passes a "show only" selection (empty = everything). */
export function shownBy<L extends string>(only: readonly L[], level: L): boolean {
  return only.length === 0 || only.includes(level);
}
