"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { inputCls } from "@/components/ui/form";

interface AuditEntry {
  id: number;
  at: string;
  username: string | null;
  role: string | null;
  action: string;
  target: string | null;
  outcome: string;
  ip: string;
  detail: Record<string, unknown> | null;
}

const ACTIONS = ["", "auth.", "stream.", "file.", "demo.", "list.", "policy.", "review.", "user."];

/** Supervisors: who did what, when, from where (newest first, paged). */
export default function AuditPage() {
  const [action, setAction] = useState("");
  const [username, setUsername] = useState("");
  const q = useInfiniteQuery({
    queryKey: ["audit", action, username],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => apiJson<{ entries: AuditEntry[]; next: number | null }>(`/api/audit?${new URLSearchParams({ action, username, ...(pageParam ? { before: String(pageParam) } : {}) })}`, { signal }),
    getNextPageParam: (last) => last.next ?? undefined,
    refetchInterval: 10_000,
  });
  const rows = q.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <Panel
      title="Audit log"
      actions={
        <div className="flex gap-2">
          <select aria-label="action" className={`${inputCls} w-32`} value={action} onChange={(e) => setAction(e.target.value)}>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a ? `${a}*` : "all actions"}
              </option>
            ))}
          </select>
          <input aria-label="user" placeholder="user" className={`${inputCls} w-32`} value={username} onChange={(e) => setUsername(e.target.value.trim())} />
        </div>
      }
    >
      {q.error && <ErrorNote error={q.error} />}
      <table className="w-full text-left text-xs" data-testid="audit-table">
        <thead className="text-[11px] uppercase tracking-wider text-zinc-500">
          <tr>
            <th className="px-3 py-2">When</th>
            <th className="px-3 py-2">Who</th>
            <th className="px-3 py-2">Action</th>
            <th className="px-3 py-2">Target</th>
            <th className="px-3 py-2">Outcome</th>
            <th className="px-3 py-2">From</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.id} className="border-t border-surface-line align-top" data-testid="audit-row" data-action={e.action}>
              <td className="whitespace-nowrap px-3 py-1.5 text-zinc-400">{new Date(e.at).toLocaleString()}</td>
              <td className="px-3 py-1.5">
                {e.username ?? "—"} <span className="text-zinc-500">{e.role ?? ""}</span>
              </td>
              <td className="px-3 py-1.5 font-mono">{e.action}</td>
              <td className="max-w-md break-all px-3 py-1.5 text-zinc-300">
                {e.target}
                {e.detail && Object.keys(e.detail).length > 0 && <div className="text-zinc-500">{Object.entries(e.detail).map(([k, v]) => `${k}: ${String(v)}`).join(" · ")}</div>}
              </td>
              <td className={`px-3 py-1.5 ${e.outcome === "ok" ? "text-risk-pass" : "text-amber-300"}`}>{e.outcome}</td>
              <td className="px-3 py-1.5 font-mono text-zinc-400">{e.ip}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {q.hasNextPage && (
        <button className="m-3 text-xs text-sky-300 hover:underline" onClick={() => void q.fetchNextPage()}>
          Older entries
        </button>
      )}
    </Panel>
  );
}
