"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useCan } from "@/components/auth/UserContext";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import Skeleton from "@/components/ui/Skeleton";
import { DECISION_NAMES, INCIDENT_DECISIONS, type IncidentDecision, type IncidentQuery } from "@/lib/incidents";
import IncidentDetail from "./IncidentDetail";
import IncidentFilters from "./IncidentFilters";
import IncidentList from "./IncidentList";
import QueuePanel from "./QueuePanel";
import QueueWork from "./QueueWork";
import { reviewStateFromParams, reviewStateToSearch, sourceLink, type Filters } from "./review-url";
import { useAssign, useDecide, useIncidentQuery, useIncidentsLive, useIncidentsQuery } from "./useIncidents";
import { useTriageKeys } from "./useTriageKeys";
import { triageHints, triageKeyMap } from "./triage-hints";
import WellnessBar, { useExposure } from "@/components/wellness/WellnessBar";
import DockSlot from "@/components/alerts/DockSlot";

const sinceIso = (sec: number) => (sec > 0 ? new Date(Math.floor((Date.now() - sec * 1000) / 60_000) * 60_000).toISOString() : undefined);

/**
 * The reviewers' queue: every open incident across streams and files, the current one large with its evidence,
 * keyboard triage (j/k, c/x/e, a, Enter), multi-select with bulk decisions, CSV of the filtered list. Filters, sort
 * and the current incident live in the query string (review-url.ts), so a reload or a shared link shows the same.
 */
export default function ReviewPage({ initialSearch }: { initialSearch: string }) {
  const router = useRouter();
  const canDecide = useCan("review:record");
  const [initial] = useState(() => reviewStateFromParams(new URLSearchParams(initialSearch)));
  const [filters, setFilters] = useState<Filters>(initial.filters);
  const query: IncidentQuery = useMemo(() => ({ ...filters.query, since: sinceIso(filters.sinceSec) }), [filters]);
  useIncidentsLive();
  const list = useIncidentsQuery(query);
  const incidents = useMemo(() => list.data?.incidents ?? [], [list.data]);
  const [currentId, setCurrentId] = useState<string | null>(initial.id);
  const [lastIndex, setLastIndex] = useState(0);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [note, setNote] = useState("");
  const [bulkNote, setBulkNote] = useState("");
  const decide = useDecide();
  const assign = useAssign();
  // claimed work on one review queue (QueueWork, with its own keys) replaces the list while it runs
  const [working, setWorking] = useState<{ id: string; name: string } | null>(null);
  const queuePanel = <QueuePanel working={working?.id ?? null} onStart={(q) => setWorking({ id: q.id, name: q.name })} />;
  // wellness: `v` reveals the current incident's blurred media; a REJECT one shown plainly counts as viewed
  const [revealedId, setRevealedId] = useState<string | null>(null);
  const expose = useExposure();

  // the current incident stays current while it is listed; when it leaves (decided away), its place is taken by the next
  const index = incidents.findIndex((i) => i.id === currentId);
  const current = index >= 0 ? incidents[index] : (incidents[Math.min(lastIndex, incidents.length - 1)] ?? null);
  const currentIndex = current ? incidents.indexOf(current) : -1;
  // while the previous filters' list is still shown (placeholder), nothing is pinned: a filter change starts at the top
  const settled = !list.isPlaceholderData;
  useEffect(() => {
    if (!settled) return;
    if (current && current.id !== currentId) setCurrentId(current.id);
    if (currentIndex >= 0 && currentIndex !== lastIndex) setLastIndex(currentIndex);
  }, [settled, current, currentId, currentIndex, lastIndex]);
  const detail = useIncidentQuery(current?.id ?? null);
  // replaceState: j/k and filter changes are not steps for the Back button; until the list is there, the linked id stays
  const urlId = list.data ? (current?.id ?? null) : currentId;
  useEffect(() => {
    const search = reviewStateToSearch(filters, urlId);
    if (search !== window.location.search) window.history.replaceState(null, "", `${window.location.pathname}${search}`);
  }, [filters, urlId]);

  // new filters or sort: the first incident of the new list is current (not one that moved somewhere inside it)
  const changeFilters = (f: Filters) => {
    setFilters(f);
    setChecked(new Set());
    setCurrentId(null);
    setLastIndex(0);
  };
  const select = (id: string) => {
    setCurrentId(id);
    setNote("");
  };
  const move = (step: number) => {
    if (incidents.length === 0) return;
    const next = incidents[Math.max(0, Math.min(incidents.length - 1, (currentIndex < 0 ? 0 : currentIndex) + step))];
    select(next.id);
  };
  const decideCurrent = (decision: IncidentDecision) => {
    if (!current || !canDecide || decide.isPending) return;
    decide.mutate({ ids: [current.id], decision, note }, { onSuccess: () => setNote("") });
  };
  const assignMe = () => current && canDecide && assign.mutate({ id: current.id });

  useTriageKeys(working ? {} : triageKeyMap(canDecide, {
    j: () => move(1),
    k: () => move(-1),
    c: () => decideCurrent("confirmed"),
    x: () => decideCurrent("cleared"),
    e: () => decideCurrent("escalated"),
    a: () => assignMe(),
    v: () => current && setRevealedId((id) => (id === current.id ? null : current.id)),
    Enter: () => current && router.push(sourceLink(current)),
  }));

  const checkedIds = incidents.filter((i) => checked.has(i.id)).map((i) => i.id);
  const bulk = (decision: IncidentDecision) =>
    decide.mutate({ ids: checkedIds, decision, note: bulkNote }, { onSuccess: () => (setChecked(new Set()), setBulkNote("")) });

  if (working)
    return (
      <div className="space-y-3">
        <h1 className="whitespace-nowrap text-lg font-semibold text-zinc-100">Review queue</h1>
        {queuePanel}
        <WellnessBar />
        <DockSlot />
        <QueueWork key={working.id} queue={working} onStop={() => setWorking(null)} />
      </div>
    );
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="shrink-0 whitespace-nowrap text-lg font-semibold text-zinc-100">Review queue</h1>
        <p className="text-xs text-zinc-500" data-testid="triage-hints">
          {triageHints(canDecide).map((h, n) => (
            <span key={h.label}>
              {n > 0 && " · "}
              {h.keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && "/"}
                  <kbd>{k}</kbd>
                </span>
              ))}{" "}
              {h.label}
            </span>
          ))}
        </p>
      </div>
      {queuePanel}
      <WellnessBar />
      {/* live alerts dock here on this page, in the flow above the queue: never over the decision buttons */}
      <DockSlot />
      <IncidentFilters filters={filters} setFilters={changeFilters} csvQuery={query} />
      {list.error ? <ErrorNote error={list.error} /> : null}
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Panel
          title={<span data-testid="incident-count">{list.isPending ? "Loading…" : `${incidents.length} incident${incidents.length === 1 ? "" : "s"}`}</span>}
          actions={
            canDecide && checkedIds.length > 0 ? (
              <div className="flex items-center gap-1.5" data-testid="bulk-bar">
                <span className="text-[11px] text-zinc-400">{checkedIds.length} selected</span>
                <input aria-label="Bulk note" className="w-28 rounded border border-surface-line bg-surface-sunken px-1.5 py-0.5 text-[11px] text-zinc-100" placeholder="note" value={bulkNote} onChange={(e) => setBulkNote(e.target.value)} />
                {INCIDENT_DECISIONS.map((d) => (
                  <button key={d} disabled={decide.isPending} onClick={() => bulk(d)} className="rounded border border-surface-line px-1.5 py-0.5 text-[11px] text-zinc-100 hover:bg-white/5 disabled:opacity-50">
                    {DECISION_NAMES[d]}
                  </button>
                ))}
              </div>
            ) : (
              canDecide && incidents.length > 0 && (
                <button onClick={() => setChecked(new Set(incidents.map((i) => i.id)))} className="text-[11px] text-sky-300 hover:underline">
                  Select all
                </button>
              )
            )
          }
        >
          {list.isPending ? <Skeleton rows={6} label="Loading incidents…" testId="incidents-loading" /> : <IncidentList incidents={incidents} selectable={canDecide} currentId={current?.id ?? null} checked={checked} onSelect={select} onCheck={(id, on) => setChecked((s) => { const n = new Set(s); if (on) n.add(id); else n.delete(id); return n; })} />}
        </Panel>
        {current ? (
          <IncidentDetail incident={current} detail={detail.data?.incident.id === current.id ? detail.data.incident : undefined} context={detail.data?.incident.id === current.id ? detail.data.context : undefined} canDecide={canDecide} note={note} setNote={setNote} onDecide={decideCurrent} onAssignMe={assignMe} revealed={revealedId === current.id} onReveal={() => expose(current)} busy={decide.isPending || assign.isPending} error={decide.error ?? assign.error} />
        ) : list.isPending ? (
          <Panel title="Incident">
            <Skeleton rows={3} tall label="Loading the incident…" testId="incident-loading" />
          </Panel>
        ) : (
          <Panel title="Incident">
            <p className="p-6 text-center text-sm text-zinc-500">Nothing to review here.</p>
          </Panel>
        )}
      </div>
    </div>
  );
}
