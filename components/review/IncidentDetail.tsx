"use client";

import Link from "next/link";
import Panel from "@/components/ui/Panel";
import ZipDownload from "@/components/shared/ZipDownload";
import { decisionScope } from "@/components/shared/decision-scope";
import RiskBadge from "@/components/ui/RiskBadge";
import ErrorNote from "@/components/ui/ErrorNote";
import { formatPercent } from "@/components/ui/format";
import { inputCls } from "@/components/ui/form";
import { incidentTime, INCIDENT_DECISIONS, DECISION_NAMES, type Incident, type IncidentDecision, type IncidentDetail as Detail } from "@/lib/incidents";
import DecisionNote from "./DecisionNote";
import Evidence from "./Evidence";
import IncidentContext from "./IncidentContext";
import type { IncidentContext as Context } from "@/lib/incident-context";
import SafeMedia, { SafeAudio } from "@/components/wellness/SafeMedia";

const KEYS: Record<IncidentDecision, string> = { confirmed: "c", cleared: "x", escalated: "e" };

/** The current incident: its peak frame large with the evidence beside it, the hits, decisions and actions. */
export default function IncidentDetail(p: {
  incident: Incident;
  detail: Detail | undefined;
  /** the history beside the decision (GET /api/incidents/<id> `context`) */
  context?: Context | null;
  canDecide: boolean;
  note: string;
  setNote: (n: string) => void;
  onDecide: (d: IncidentDecision) => void;
  onAssignMe: () => void;
  busy: boolean;
  error: unknown;
  /** the `v` key revealed this incident's media (wellness blur) */
  revealed?: boolean;
  /** its media was shown plainly (counts towards today's exposure) */
  onReveal?: () => void;
}) {
  const i = p.incident;
  const peak = i.peak;
  return (
    <Panel title={`${i.labelName} · ${i.source.kind} incident`} actions={<RiskBadge level={i.riskLevel} />}>
      <div className="space-y-3 p-3" data-testid="incident-detail" data-id={i.id} data-status={i.status}>
        <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="space-y-1">
            {i.media === "frame" && peak.mediaUrl ? (
              <SafeMedia revealed={p.revealed} onReveal={p.onReveal} className="block rounded" label="peak frame">
                <img data-testid="incident-peak-image" src={peak.mediaUrl} alt={`peak frame of incident ${i.id}`} className="w-full rounded border border-surface-line bg-black object-contain" />
              </SafeMedia>
            ) : peak.mediaUrl ? (
              <SafeAudio testId="incident-peak-audio" src={peak.mediaUrl} className="w-full" />
            ) : (
              <p className="text-xs text-zinc-500">No media for this hit.</p>
            )}
            <p className="text-[11px] text-zinc-500" title={peak.itemId}>
              Peak {i.media === "audio" ? "segment" : "frame"} at {incidentTime(i, peak.t)} · score {formatPercent(peak.score)} · {peak.riskLevel}
            </p>
          </div>
          <div className="space-y-3">
            <div className="space-y-1 text-xs text-zinc-300">
              <div data-testid="incident-labels">{i.labels.join(" · ")}</div>
              <div>
                {i.source.kind === "stream" ? "Stream" : "File"}{" "}
                <Link data-testid="incident-source" href={i.source.href} className="text-sky-300 hover:underline">
                  {i.source.title ?? i.source.ref}
                </Link>
              </div>
              <div>
                {incidentTime(i, i.start)}–{incidentTime(i, i.end)} · {i.hits} hit{i.hits === 1 ? "" : "s"} · <span data-testid="incident-detail-status">{i.status}</span>
                {i.assignee ? <> · assigned to <span data-testid="incident-detail-assignee">{i.assignee}</span></> : null}
              </div>
            </div>
            <Evidence ev={peak.evidence} />
            <IncidentContext context={p.context} kind={i.source.kind} loading={p.detail === undefined} />
          </div>
        </div>

        {p.canDecide && (
          <div className="space-y-2 border-t border-surface-line pt-3">
            <input aria-label="Decision note" className={inputCls} placeholder="Note (optional) — Esc leaves the field" value={p.note} onChange={(e) => p.setNote(e.target.value)} onKeyDown={(e) => e.key === "Escape" && e.currentTarget.blur()} maxLength={2000} />
            <div className="flex flex-wrap gap-2">
              {INCIDENT_DECISIONS.map((d) => (
                <button key={d} disabled={p.busy} onClick={(e) => (e.currentTarget.blur(), p.onDecide(d))} className="rounded border border-surface-line px-2.5 py-1 text-xs text-zinc-100 hover:bg-white/5 disabled:opacity-50">
                  {DECISION_NAMES[d]} <kbd className="text-zinc-500">{KEYS[d]}</kbd>
                </button>
              ))}
              <button disabled={p.busy} onClick={(e) => (e.currentTarget.blur(), p.onAssignMe())} className="rounded border border-surface-line px-2.5 py-1 text-xs text-zinc-100 hover:bg-white/5 disabled:opacity-50">
                Assign to me <kbd className="text-zinc-500">a</kbd>
              </button>
              <ZipDownload testId="incident-export" href={`/api/incidents/${i.id}/export`} label="Export evidence (zip)" className="ml-auto self-center" />
            </div>
            <p data-testid="decision-scope" className="text-[11px] text-zinc-500">{decisionScope("incident")}</p>
            {p.error !== null && p.error !== undefined && <ErrorNote error={p.error} />}
          </div>
        )}

        <div className="border-t border-surface-line pt-2">
          <h3 className="mb-1 text-[10px] uppercase tracking-wider text-zinc-500">Decisions</h3>
          {(p.detail?.decisions ?? (i.lastDecision ? [i.lastDecision] : [])).length === 0 ? (
            <p className="text-xs text-zinc-500">None yet.</p>
          ) : (
            <ul className="space-y-0.5 text-xs text-zinc-300" data-testid="incident-decisions">
              {(p.detail?.decisions ?? [i.lastDecision!]).map((d, n) => (
                <li key={n}>
                  <DecisionNote d={d} />
                </li>
              ))}
            </ul>
          )}
        </div>

        {p.detail && p.detail.hitList.length > 1 && (
          <div className="border-t border-surface-line pt-2">
            <h3 className="mb-1 text-[10px] uppercase tracking-wider text-zinc-500">Every hit</h3>
            <div className="flex gap-1 overflow-x-auto" data-testid="incident-hits">
              {p.detail.hitList.map((h) => (
                <figure key={h.itemId} className="w-28 shrink-0 text-[10px] text-zinc-500" title={h.labels.join(", ")}>
                  {i.media === "frame" && h.mediaUrl ? (
                    <SafeMedia hint={false} focusable={false} revealed={p.revealed} onReveal={p.onReveal} className="block rounded" label="hit frame">
                      <img src={h.mediaUrl} alt={h.itemId} loading="lazy" className={`w-full rounded border ${h.itemId === peak.itemId ? "border-sky-400" : "border-surface-line"}`} />
                    </SafeMedia>
                  ) : null}
                  <figcaption>
                    {incidentTime(i, h.t)} · {formatPercent(h.score)}
                  </figcaption>
                </figure>
              ))}
            </div>
          </div>
        )}
      </div>
    </Panel>
  );
}
