"use client";

import RiskBadge from "@/components/ui/RiskBadge";
import { incidentTime, type Incident } from "@/lib/incidents";
import DecisionNote from "./DecisionNote";
import { urlLabel } from "@/lib/source-name";

/** The queue: one row per incident; the current one is highlighted, checked ones take bulk decisions. */
export default function IncidentList({ incidents, selectable = true, currentId, checked, onSelect, onCheck }: { incidents: Incident[]; selectable?: boolean; currentId: string | null; checked: ReadonlySet<string>; onSelect: (id: string) => void; onCheck: (id: string, on: boolean) => void }) {
  if (incidents.length === 0) return <p className="px-3 py-6 text-center text-sm text-zinc-500" data-testid="incidents-empty">No incidents match these filters.</p>;
  return (
    <ul className="divide-y divide-surface-line" data-testid="incident-list" role="listbox" aria-label="Incidents">
      {incidents.map((i) => {
        const current = i.id === currentId;
        return (
          <li
            key={i.id}
            role="option"
            aria-selected={current}
            data-testid="incident-row"
            data-id={i.id}
            data-status={i.status}
            onClick={() => onSelect(i.id)}
            className={`flex cursor-pointer gap-2 px-3 py-2 text-xs ${current ? "bg-sky-500/10 ring-1 ring-inset ring-sky-500/60" : "hover:bg-white/5"}`}
          >
            {selectable && <input type="checkbox" aria-label={`select incident ${i.id}`} data-testid="incident-check" checked={checked.has(i.id)} onClick={(e) => e.stopPropagation()} onChange={(e) => onCheck(i.id, e.target.checked)} className="mt-0.5" />}
            <div className="min-w-0 flex-1 space-y-0.5">
              <div className="flex items-center gap-2">
                <RiskBadge level={i.riskLevel} size="sm" />
                <span className="font-medium text-zinc-100">{i.labelName}</span>
                <span className="text-zinc-500">{i.media === "audio" ? "audio" : "frames"} · {i.hits} hit{i.hits === 1 ? "" : "s"}</span>
                <span className="ml-auto" data-testid="incident-status">{i.status}</span>
              </div>
              <div className="truncate text-zinc-400" title={i.source.url ?? undefined}>
                {i.source.kind === "stream" ? "Stream" : "File"} {i.source.title ?? urlLabel(i.source.url) ?? i.source.ref} · {incidentTime(i, i.start)}–{incidentTime(i, i.end)}
              </div>
              <div className="flex gap-2 text-zinc-500">
                {i.assignee && <span data-testid="incident-assignee">assigned to {i.assignee}</span>}
                {i.lastDecision && <DecisionNote d={i.lastDecision} />}
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
