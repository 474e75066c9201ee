"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import RiskBadge from "@/components/ui/RiskBadge";
import { formatDateTime } from "@/components/ui/format";
import { contextHeadline, type ContextIncident, type ContextSource, type IncidentContext as Context } from "@/lib/incident-context";
import { DECISION_NAMES, incidentTime } from "@/lib/incidents";
import { DECISION_TONE } from "./DecisionNote";

/** Shown before "Show all": the newest few stay visible, the rest fold away (compact on a phone). */
const SHOWN = 3;

function IncidentRow({ i }: { i: ContextIncident }) {
  return (
    <li data-testid="context-incident" data-id={i.id} data-status={i.status} className="flex flex-wrap items-center gap-x-2 gap-y-0.5 py-1">
      <RiskBadge level={i.riskLevel} size="sm" />
      {/* a full load: the review page reads ?id= once, as a shared link is opened */}
      <a href={i.href} className="font-medium text-sky-300 hover:underline">
        {i.labelName} {incidentTime(i, i.start)}
      </a>
      {i.decision ? (
        <span className="min-w-0 truncate text-zinc-400">
          <span className={DECISION_TONE[i.decision.decision]}>{DECISION_NAMES[i.decision.decision]}</span> by {i.decision.username}
          {i.decision.note ? <span className="text-zinc-500"> — {i.decision.note}</span> : null}
        </span>
      ) : (
        <span className="text-amber-200">{i.status}</span>
      )}
    </li>
  );
}

function SourceRow({ s }: { s: ContextSource }) {
  return (
    <li data-testid="context-source" data-kind={s.type} data-request-id={s.requestId} className="flex flex-wrap items-center gap-x-2 gap-y-0.5 py-1">
      <span className="text-[10px] uppercase tracking-wider text-zinc-500">{s.type}</span>
      <Link href={s.href} className="min-w-0 truncate text-sky-300 hover:underline">
        {s.title ?? s.ref}
      </Link>
      <span className="text-zinc-500">{formatDateTime(s.at)}</span>
      <span className="text-zinc-400">
        {s.incidents} incident{s.incidents === 1 ? "" : "s"}
        {s.incidents ? `, ${s.confirmed} confirmed` : ""}
      </span>
    </li>
  );
}

/** The newest few items, the rest behind "Show all". */
function Folded<T>({ items, total, render, what }: { items: T[]; total: number; render: (t: T, n: number) => ReactNode; what: string }) {
  if (items.length === 0) return null;
  const more = total - Math.min(SHOWN, items.length);
  return (
    <>
      <ul className="divide-y divide-surface-line/60">{items.slice(0, SHOWN).map(render)}</ul>
      {items.length > SHOWN && (
        <details className="text-xs">
          <summary className="cursor-pointer text-sky-300">Show {more} more {what}{total > items.length ? ` (newest ${items.length - SHOWN} listed)` : ""}</summary>
          <ul className="divide-y divide-surface-line/60">{items.slice(SHOWN).map(render)}</ul>
        </details>
      )}
      {items.length <= SHOWN && total > items.length && <p className="text-zinc-500">and {total - items.length} older</p>}
    </>
  );
}

/**
 * The history beside a decision (issue #26.5): the same source's other incidents and, by the source's end user
 * (contract tokenId), that user's other streams, files and incidents with their decisions. From GET /api/incidents/<id>.
 */
export default function IncidentContext({ context, kind, loading }: { context: Context | null | undefined; kind: "stream" | "file"; loading: boolean }) {
  if (!context) return loading ? <p className="text-xs text-zinc-500">Loading history…</p> : null;
  const s = context.summary;
  const userSources = context.sameUser.filter((x): x is ContextSource => x.type !== "incident");
  const userIncidents = context.sameUser.filter((x): x is ContextIncident => x.type === "incident");
  return (
    <section aria-label="History" data-testid="incident-context" className="space-y-2 rounded border border-surface-line p-2 text-xs">
      <div data-testid="context-same-source">
        <h3 className="text-[10px] uppercase tracking-wider text-zinc-500">This {kind}</h3>
        <p data-testid="context-same-source-headline" className="text-zinc-200">{contextHeadline(s.sameSource)}</p>
        <Folded items={context.sameSource} total={s.sameSource.incidents} what="incidents" render={(i) => <IncidentRow key={i.id} i={i} />} />
      </div>
      <div data-testid="context-same-user" className="border-t border-surface-line pt-2">
        <h3 className="text-[10px] uppercase tracking-wider text-zinc-500">
          End user{" "}
          {context.tokenId ? (
            <span data-testid="context-token" className="break-all font-mono normal-case tracking-normal text-zinc-300">
              {context.tokenId}
            </span>
          ) : null}
        </h3>
        {context.tokenId === null ? (
          <p className="text-zinc-500">No end user (tokenId) was given for this {kind}.</p>
        ) : (
          <>
            <p data-testid="context-same-user-headline" className="text-zinc-200">
              {s.sameUser.streams} other stream{s.sameUser.streams === 1 ? "" : "s"}, {s.sameUser.files} file{s.sameUser.files === 1 ? "" : "s"} · {contextHeadline(s.sameUser)}
            </p>
            <Folded items={userSources} total={s.sameUser.streams + s.sameUser.files} what="streams and files" render={(x) => <SourceRow key={x.requestId} s={x} />} />
            <Folded items={userIncidents} total={s.sameUser.incidents} what="incidents" render={(i) => <IncidentRow key={i.id} i={i} />} />
          </>
        )}
      </div>
    </section>
  );
}
