"use client";

import Link from "next/link";
import { useMemo } from "react";
import DecisionNote from "./DecisionNote";
import { useIncidentsLive, useIncidentsQuery } from "./useIncidents";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import RiskBadge from "@/components/ui/RiskBadge";
import { incidentTime, type Incident, type IncidentQuery } from "@/lib/incidents";

/**
 * One source's (file's or stream's) incidents in the order they happen in it: state, the last decision (who, when,
 * note), the assignee, and a link to that incident in the review queue. Live: a decision taken elsewhere shows here
 * at once. `onJump` (the stream page) adds a button that moves the timeline to the incident's start.
 */
export default function SourceIncidents({ requestId, kind, onJump }: { requestId: string; kind: "file" | "stream"; onJump?: (i: Incident) => void }) {
  const query: IncidentQuery = useMemo(() => ({ requestId, status: "all", limit: 1000 }), [requestId]);
  useIncidentsLive();
  const list = useIncidentsQuery(query);
  const incidents = useMemo(() => [...(list.data?.incidents ?? [])].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id)), [list.data]);
  const open = incidents.filter((i) => i.status === "open").length;
  return (
    <Panel title={<span data-testid={`${kind}-incidents-title`}>{`Incidents (${incidents.length}${incidents.length ? `, ${open} open` : ""})`}</span>}>
      <div data-testid={`${kind}-incidents`} data-count={incidents.length} data-open={open}>
        {list.error ? <ErrorNote error={list.error} /> : null}
        {list.isPending ? (
          <p className="p-3 text-xs text-zinc-500">Loading incidents…</p>
        ) : incidents.length === 0 ? (
          <p className="p-3 text-xs text-zinc-500">No incidents: no frame or segment of this {kind} was a hit{kind === "stream" ? " so far" : ""}.</p>
        ) : (
          <ul className="divide-y divide-surface-line">
            {incidents.map((i) => (
              <li key={i.id} data-testid={`${kind}-incident`} data-id={i.id} data-status={i.status} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-xs">
                <RiskBadge level={i.riskLevel} size="sm" />
                <span className="font-medium text-zinc-100">{i.labelName}</span>
                <span className="font-mono text-zinc-400">
                  {incidentTime(i, i.start)}–{incidentTime(i, i.end)}
                </span>
                <span className="text-zinc-500">
                  {i.media === "audio" ? "audio" : "frames"} · {i.hits} hit{i.hits === 1 ? "" : "s"}
                </span>
                <span data-testid={`${kind}-incident-status`} className={i.status === "open" ? "text-amber-200" : "text-zinc-300"}>
                  {i.status}
                </span>
                {i.assignee && <span className="text-zinc-500">assigned to {i.assignee}</span>}
                {i.lastDecision && <DecisionNote d={i.lastDecision} />}
                {onJump && (
                  <button type="button" data-testid={`${kind}-incident-jump`} onClick={() => onJump(i)} className="ml-auto text-sky-300 hover:underline">
                    Show in timeline
                  </button>
                )}
                <Link data-testid={`${kind}-incident-review`} href={`/review?id=${i.id}`} className={`${onJump ? "" : "ml-auto "}text-sky-300 hover:underline`}>
                  Review →
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}
