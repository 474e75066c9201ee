"use client";

import { useQuery } from "@tanstack/react-query";
import type { Rule, RuleActivity } from "@/lib/rules";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";

const HOUR = 3600_000;

/** What the rule did (live) or would have done (shadow), newest first, with the last hour summed up. */
export default function RuleActivityPanel({ rule }: { rule: Rule }) {
  const since = Math.floor((Date.now() - 24 * HOUR) / 1000);
  const q = useQuery({
    queryKey: ["rule-activity", rule.id],
    queryFn: ({ signal }) => apiJson<{ entries: RuleActivity[] }>(`/api/rules/${rule.id}/activity?since=${since}`, { signal }),
    refetchInterval: 5000,
  });
  const entries = q.data?.entries ?? [];
  const lastHour = entries.filter((e) => Date.now() - Date.parse(e.at) < HOUR);
  const closes = (mode: "shadow" | "live") => new Set(lastHour.filter((e) => e.action === "close" && e.mode === mode && (mode === "shadow" || e.acted)).map((e) => e.requestId));
  const wouldClose = closes("shadow");
  const closed = closes("live");
  return (
    <Panel title={`Activity · ${rule.name}`}>
      {q.error ? <ErrorNote error={q.error} /> : null}
      <p className="px-3 pt-2 text-sm text-zinc-300" data-testid="rule-diff">
        Last hour: {rule.mode === "live" || closed.size ? `closed ${closed.size} stream${closed.size === 1 ? "" : "s"}` : null}
        {rule.mode !== "live" || wouldClose.size ? `${closed.size || rule.mode === "live" ? "; " : ""}would have closed ${wouldClose.size} stream${wouldClose.size === 1 ? "" : "s"} in shadow mode` : null}
        {` · ${lastHour.length} action record${lastHour.length === 1 ? "" : "s"}`}
      </p>
      {entries.length === 0 && !q.isLoading && <p className="px-3 py-3 text-sm text-zinc-500">Nothing matched in the last 24 hours.</p>}
      <ul className="max-h-[28rem] divide-y divide-surface-line overflow-y-auto text-xs" data-testid="rule-activity">
        {entries.map((e) => (
          <li key={e.id} className="px-3 py-2">
            <div className="flex flex-wrap items-center gap-2">
              <span className={`rounded px-1.5 py-0.5 font-semibold uppercase ${e.mode === "live" ? "bg-red-500/20 text-red-200" : "bg-amber-500/20 text-amber-200"}`}>{e.mode}</span>
              <time className="text-zinc-500" dateTime={e.at}>{new Date(e.at).toLocaleString()}</time>
              <a className="min-w-0 truncate text-sky-300 hover:underline" href={e.sourceKind === "stream" ? `/streams/${e.requestId}` : `/review?source=${e.requestId}`}>{e.title ?? e.requestId.slice(0, 12)}</a>
              <span className="text-zinc-500">v{e.ruleVersion}</span>
            </div>
            <p className="mt-1 text-zinc-300">{e.outcome}</p>
            <p className="text-zinc-500">{e.hits.length} hit{e.hits.length === 1 ? "" : "s"}: {[...new Set(e.hits.map((h) => `${h.level} ${h.label}`))].join(", ")}</p>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
