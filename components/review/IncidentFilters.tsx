"use client";

import { LABEL1_NAMES } from "@/lib/labels";
import { INCIDENT_STATES, incidentQueryString, type IncidentQuery } from "@/lib/incidents";
import type { Filters } from "./review-url";

const selectCls = "rounded border border-surface-line bg-surface-sunken px-2 py-1 text-xs text-zinc-100 focus:border-sky-500 focus:outline-none";
const SINCE: Array<[string, number]> = [["any time", 0], ["last hour", 3600], ["last 24 h", 86_400], ["last 7 days", 7 * 86_400]];
const CATEGORIES = Object.entries(LABEL1_NAMES).filter(([slug]) => slug !== "normal");

function Select({ label, value, onChange, options }: { label: string; value: string; onChange: (v: string) => void; options: Array<[string, string]> }) {
  return (
    <label className="flex items-center gap-1 text-[11px] uppercase tracking-wider text-zinc-500">
      {label}
      <select aria-label={label} className={selectCls} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Filters (status, level, category, kind, source, since, assignee), sort, and the CSV of the filtered list. */
export default function IncidentFilters({ filters, setFilters, csvQuery }: { filters: Filters; setFilters: (f: Filters) => void; csvQuery: IncidentQuery }) {
  const q = filters.query;
  const set = (patch: Partial<IncidentQuery>) => setFilters({ ...filters, query: { ...q, ...patch } });
  const opt = (v: string) => (v === "" ? undefined : v);
  return (
    <div className="flex flex-wrap items-center gap-3" data-testid="incident-filters">
      <Select label="Status" value={q.status ?? "all"} onChange={(v) => set({ status: v as IncidentQuery["status"] })} options={[...INCIDENT_STATES.map((s) => [s, s] as [string, string]), ["all", "all"]]} />
      <Select label="Level" value={q.riskLevel ?? ""} onChange={(v) => set({ riskLevel: opt(v) as IncidentQuery["riskLevel"] })} options={[["", "any"], ["REJECT", "REJECT"], ["REVIEW", "REVIEW"]]} />
      <Select label="Category" value={q.label ?? ""} onChange={(v) => set({ label: opt(v) })} options={[["", "any"], ...CATEGORIES.map(([slug, n]) => [slug, n.en] as [string, string])]} />
      <Select label="Source" value={q.kind ?? ""} onChange={(v) => set({ kind: opt(v) as IncidentQuery["kind"] })} options={[["", "streams and files"], ["stream", "streams"], ["file", "files"]]} />
      <Select label="Assignee" value={q.assignee ?? ""} onChange={(v) => set({ assignee: opt(v) })} options={[["", "anyone"], ["me", "me"], ["none", "unassigned"]]} />
      <Select label="Since" value={String(filters.sinceSec)} onChange={(v) => setFilters({ ...filters, sinceSec: Number(v) })} options={SINCE.map(([t, s]) => [String(s), t])} />
      <Select label="Sort" value={q.sort ?? "newest"} onChange={(v) => set({ sort: v as IncidentQuery["sort"] })} options={[["newest", "newest first"], ["worst", "worst first"]]} />
      <label className="flex items-center gap-1 text-[11px] uppercase tracking-wider text-zinc-500">
        Source id
        <input
          aria-label="Source id"
          className={`${selectCls} w-40 font-mono normal-case`}
          placeholder="requestId or btId"
          value={q.requestId ?? ""}
          onChange={(e) => set({ requestId: /^[A-Za-z0-9_-]{1,128}$/.test(e.target.value.trim()) ? e.target.value.trim() : undefined })}
        />
      </label>
      <a data-testid="incidents-csv" href={`/api/incidents.csv${incidentQueryString(csvQuery)}`} download className="ml-auto text-xs text-sky-300 hover:underline">
        Export CSV
      </a>
    </div>
  );
}
