"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Rule } from "@/lib/rules";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import RuleActivityPanel from "./RuleActivityPanel";
import RuleEditor from "./RuleEditor";
import { summary } from "./rule-form";

const MODE_CLS: Record<Rule["mode"], string> = {
  off: "border-zinc-600 text-zinc-400",
  shadow: "border-amber-500/60 text-amber-300",
  live: "border-red-500/70 text-red-300",
};

/** Supervisors: rules that act on their own, each proven in shadow mode before it goes live. */
export default function RulesPage() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ["rules"], queryFn: ({ signal }) => apiJson<{ rules: Rule[] }>("/api/rules", { signal }), refetchInterval: 15_000 });
  const [editing, setEditing] = useState<Rule | "new" | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const rules = q.data?.rules ?? [];
  const current = rules.find((r) => r.id === selected) ?? rules[0] ?? null;

  async function setMode(r: Rule, mode: Rule["mode"]) {
    if (mode === "live" && !window.confirm(`Switch "${r.name}" to live? It will ${summary(r).split("→ ")[1]} on its own from now on.`)) return;
    setError(null);
    try {
      await apiJson(`/api/rules/${r.id}`, { method: "PATCH", body: { mode } });
      await qc.invalidateQueries({ queryKey: ["rules"] });
    } catch (err) {
      setError(err);
    }
  }

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
      <Panel
        title="Rules"
        actions={
          <button type="button" className="rounded bg-sky-600 px-3 py-1 text-xs font-semibold text-white hover:bg-sky-500" onClick={() => setEditing("new")}>
            New rule
          </button>
        }
      >
        {q.error ? <ErrorNote error={q.error} /> : null}
        {error ? <ErrorNote error={error} /> : null}
        {rules.length === 0 && !q.isLoading && <p className="px-3 py-4 text-sm text-zinc-400">No rules yet. A new rule starts in shadow mode: it records what it would do and never acts until you switch it to live.</p>}
        <ul className="divide-y divide-surface-line" data-testid="rule-list">
          {rules.map((r) => (
            <li key={r.id} className={`px-3 py-2 ${current?.id === r.id ? "bg-surface-sunken" : ""}`}>
              <div className="flex flex-wrap items-center gap-2">
                <button type="button" className="min-w-0 flex-1 truncate text-left text-sm font-medium text-zinc-100 hover:underline" onClick={() => setSelected(r.id)}>
                  {r.name}
                </button>
                <span className={`rounded border px-1.5 py-0.5 text-[11px] font-semibold uppercase ${MODE_CLS[r.mode]}`} data-testid="rule-mode">
                  {r.mode}
                </span>
                <span className="text-[11px] text-zinc-500">v{r.version}</span>
              </div>
              <p className="mt-1 text-xs text-zinc-400">{summary(r)}</p>
              <div className="mt-1 flex flex-wrap gap-2 text-xs">
                {(["off", "shadow", "live"] as const).filter((m) => m !== r.mode).map((m) => (
                  <button key={m} type="button" className="rounded border border-surface-line px-2 py-0.5 text-zinc-300 hover:border-sky-500" onClick={() => void setMode(r, m)}>
                    {m === "live" ? "Go live" : m === "shadow" ? "Shadow" : "Turn off"}
                  </button>
                ))}
                <button type="button" className="rounded border border-surface-line px-2 py-0.5 text-zinc-300 hover:border-sky-500" onClick={() => setEditing(r)}>
                  Edit
                </button>
              </div>
            </li>
          ))}
        </ul>
      </Panel>
      <div className="min-w-0 space-y-4">
        {editing && <RuleEditor rule={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
        {current && !editing && <RuleActivityPanel rule={current} />}
      </div>
    </div>
  );
}
