import { formatDateTime } from "@/components/ui/format";
import { DECISION_NAMES, type DecisionRecord } from "@/lib/incidents";

export const DECISION_TONE = { confirmed: "text-red-300", cleared: "text-risk-pass", escalated: "text-amber-300" } as const;

/** "Confirmed violation by alice, 10:02 — note"; taken on one hit: "Confirmed violation on its frame at 0:06 by rita, …". */
export default function DecisionNote({ d }: { d: DecisionRecord }) {
  return (
    <span data-testid="incident-decision" data-decision={d.decision} className="truncate">
      <span className={DECISION_TONE[d.decision]}>{DECISION_NAMES[d.decision]}</span>
      {d.itemLabel ? <span data-testid="incident-decision-item"> on its {d.itemLabel}</span> : null} by {d.username}, {formatDateTime(d.at)}
      {d.note ? <span className="text-zinc-400"> — {d.note}</span> : null}
    </span>
  );
}
