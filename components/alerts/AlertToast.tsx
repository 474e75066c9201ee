"use client";

import Link from "next/link";
import { useState } from "react";
import { useCan } from "@/components/auth/UserContext";
import { useCloseStreamMutation } from "@/components/hooks/queries/useStreamMutations";
import { useStreamsQuery } from "@/components/hooks/queries/useStreamsQuery";
import { useStreamsLive } from "@/components/hooks/useStreamsLive";
import { useDecide } from "@/components/review/useIncidents";
import ErrorNote from "@/components/ui/ErrorNote";
import RiskBadge from "@/components/ui/RiskBadge";
import { alertSummary, timelineHref } from "@/lib/alerts";
import type { StreamAlert } from "@/lib/alert-fold";
import SafeMedia from "@/components/wellness/SafeMedia";
import { DECISION_NAMES, incidentTime, type Incident } from "@/lib/incidents";
import { dismissAlert, useRuleAlerts } from "./store";

const btn = "rounded border px-2 py-0.5 text-[11px] font-medium disabled:cursor-wait disabled:opacity-60";

/** Close the stream, after an inline confirmation (supervisors only; the server checks again). */
function CloseAction({ incident }: { incident: Incident }) {
  const [asking, setAsking] = useState(false);
  const close = useCloseStreamMutation(incident.source.requestId);
  // the stream's own state (kept live by stream:summary events): closed elsewhere, or ended by itself, no Close is offered
  const streams = useStreamsQuery(useStreamsLive());
  const ended = streams.data?.streams.find((s) => s.requestId === incident.source.requestId)?.status === "ended";
  if (close.isSuccess) return <span data-testid="alert-stream-closed" className="text-[11px] text-zinc-400">stream closed</span>;
  if (ended) return <span data-testid="alert-stream-closed" className="text-[11px] text-zinc-400">stream ended</span>;
  if (!asking) {
    return (
      <button type="button" data-testid="alert-close-stream" onClick={() => setAsking(true)} className={`${btn} border-risk-reject/60 text-red-200 hover:bg-risk-reject/15`}>
        Close stream
      </button>
    );
  }
  return (
    <span role="group" aria-label="Confirm closing the stream" className="flex flex-wrap items-center gap-1.5 text-[11px] text-zinc-300">
      Stop moderating it now?
      {/* focus on the safe choice, so a stray Enter never closes a stream */}
      <button type="button" autoFocus onClick={() => setAsking(false)} disabled={close.isPending} className={`${btn} border-surface-line hover:border-zinc-500`}>
        Keep running
      </button>
      <button type="button" data-testid="alert-confirm-close" onClick={() => close.mutate()} disabled={close.isPending} className={`${btn} border-red-600 bg-red-600 text-white hover:bg-red-500`}>
        {close.isPending ? "Closing…" : "Close stream"}
      </button>
      {close.isError && <ErrorNote prefix="Could not close:" error={close.error} />}
    </span>
  );
}

function DecisionActions({ incident }: { incident: Incident }) {
  const decide = useDecide();
  const act = (decision: "confirmed" | "cleared") => decide.mutate({ ids: [incident.id], decision, note: "" });
  return (
    <>
      <button type="button" data-testid="alert-confirm" disabled={decide.isPending} onClick={() => act("confirmed")} className={`${btn} border-risk-reject/60 text-red-100 hover:bg-risk-reject/15`}>
        Confirm
      </button>
      <button type="button" data-testid="alert-clear" disabled={decide.isPending} onClick={() => act("cleared")} className={`${btn} border-surface-line text-zinc-200 hover:border-zinc-500`}>
        Clear
      </button>
      {decide.isError && <ErrorNote prefix="Not recorded:" error={decide.error} />}
    </>
  );
}

/**
 * One stream's alert, updated in place: the latest incident's peak frame and evidence, how many of the stream's
 * incidents are open, their hits, the worst level; the one-click actions the user's role allows act on the latest.
 */
/** A live rule's priority alert on this stream (server/rules): named with its rule, above the peak. */
function RuleBanner({ requestId }: { requestId: string }) {
  const rules = useRuleAlerts(requestId);
  if (rules.length === 0) return null;
  const r = rules[0];
  return (
    <p data-testid="alert-rule" className="mx-2.5 mt-2 rounded border border-red-500/60 bg-red-500/15 px-2 py-1 text-[11px] font-semibold text-red-100">
      Priority · rule “{r.ruleName}”: {r.message}
      {rules.length > 1 ? <span className="font-normal text-red-200/80"> (+{rules.length - 1} more)</span> : null}
    </p>
  );
}

export default function AlertToast({ alert }: { alert: StreamAlert }) {
  const i = alert.latest;
  const canDecide = useCan("review:record");
  const canClose = useCan("stream:close");
  const open = i.status === "open";
  const name = i.source.title ?? i.source.url ?? i.source.ref;
  return (
    <article
      role="alert"
      aria-label={`${alert.worst} alert on ${name}`}
      data-testid="alert-toast"
      data-incident-id={i.id}
      data-request-id={alert.key}
      data-hits={alert.hits}
      data-incidents={alert.openCount}
      data-total-incidents={Object.keys(alert.incidents).length}
      data-worst={alert.worst}
      data-updates={alert.updates}
      data-raises={alert.raises}
      data-status={i.status}
      className={`pointer-events-auto w-full overflow-hidden rounded-md border border-l-4 bg-surface-raised text-zinc-200 shadow-lg shadow-black/40 ${alert.worst === "REJECT" ? "border-risk-reject" : "border-risk-review"}`}
    >
      <header className="flex items-center gap-2 border-b border-surface-line px-2.5 py-1.5">
        <RiskBadge level={alert.worst} size="sm" />
        <span className="min-w-0 flex-1 truncate text-xs font-semibold text-zinc-100" title={i.source.url ?? undefined}>{name}</span>
        <span data-testid="alert-counts" className="shrink-0 text-[11px] tabular-nums text-zinc-400" title="open incidents of this stream and their frames or segments so far">
          {alert.openCount} open · {alert.hits} {alert.hits === 1 ? "hit" : "hits"}
        </span>
        <button type="button" data-testid="alert-dismiss" aria-label={`Dismiss the alert on ${name}`} onClick={() => dismissAlert(alert.key)} className="shrink-0 rounded px-1 text-zinc-500 hover:text-zinc-200">
          ×
        </button>
      </header>
      <RuleBanner requestId={alert.key} />
      <div className="flex gap-2.5 p-2.5">
        {i.peak.mediaUrl ? (
          <a href={i.peak.mediaUrl} target="_blank" rel="noreferrer" className="shrink-0" aria-label="Open the peak frame's image">
            <SafeMedia focusable={false} className="block h-[72px] w-32 rounded" label="peak frame">
              <img data-testid="alert-peak" src={i.peak.mediaUrl} alt={`peak frame of ${name}`} className="h-[72px] w-32 rounded bg-black object-contain" />
            </SafeMedia>
          </a>
        ) : (
          <span className="flex h-[72px] w-32 shrink-0 items-center justify-center rounded bg-black text-[10px] text-zinc-600">no image</span>
        )}
        <div className="min-w-0 flex-1 space-y-0.5 text-[11px]">
          <div className="truncate text-xs font-medium text-zinc-100">
            <span data-testid="alert-label">{i.labelName}</span> <span className="text-zinc-500">· {i.riskLevel}</span>
          </div>
          <div className="tabular-nums text-zinc-400">
            peak at {incidentTime(i, i.peak.t)} · since {incidentTime(i, i.start)}
          </div>
          <div data-testid="alert-summary" className="line-clamp-2 break-all text-zinc-300">{alertSummary(i)}</div>
        </div>
      </div>
      {!open && i.lastDecision && (
        <p data-testid="alert-decided" className="mx-2.5 mb-2 rounded bg-zinc-700/40 px-2 py-1 text-[11px] text-zinc-300">
          {DECISION_NAMES[i.lastDecision.decision]} by {i.lastDecision.username}
        </p>
      )}
      <footer className="flex flex-wrap items-center gap-1.5 border-t border-surface-line px-2.5 py-1.5">
        <Link href={timelineHref(i)} data-testid="alert-open" onClick={() => dismissAlert(alert.key)} className={`${btn} border-sky-500/60 text-sky-200 hover:bg-sky-500/10`}>
          Open
        </Link>
        {open && canDecide && <DecisionActions incident={i} />}
        <span className="ml-auto" />
        {canClose && <CloseAction incident={i} />}
      </footer>
    </article>
  );
}
