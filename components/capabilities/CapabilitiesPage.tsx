"use client";

import { useCapabilitiesQuery, type Capability } from "@/components/hooks/queries/useCapabilitiesQuery";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";

/** Groups in first-seen order; inside a group supported types first, then alphabetical. */
function grouped(caps: Capability[]): Array<[string, Capability[]]> {
  const groups = new Map<string, Capability[]>();
  for (const c of caps) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const supportedIn = (list: Capability[]) => list.filter((c) => c.supported).length;
  return [...groups.entries()]
    .map(([g, list]): [string, Capability[]] => [
      g,
      [...list].sort((a, b) => Number(b.supported) - Number(a.supported) || a.type.localeCompare(b.type)),
    ])
    .sort(([, a], [, b]) => Number(supportedIn(b) > 0) - Number(supportedIn(a) > 0));
}

function SupportCell({ supported }: { supported: boolean }) {
  return supported ? (
    <span className="inline-flex items-center gap-1.5 text-risk-pass"><span className="h-1.5 w-1.5 rounded-full bg-risk-pass" />supported</span>
  ) : (
    <span className="inline-flex items-center gap-1.5 text-zinc-500"><span className="h-1.5 w-1.5 rounded-full bg-zinc-600" />not supported</span>
  );
}

function commonNote(list: Capability[]): string | undefined {
  const notes = new Set(list.map((c) => c.note ?? ""));
  return notes.size === 1 ? [...notes][0] || undefined : undefined;
}

function CapabilityTable({ group, list }: { group: string; list: Capability[] }) {
  return (
    <table data-testid="capability-table" data-group={group} className="w-full table-fixed text-left text-xs">
      <colgroup><col className="w-48" /><col className="w-32" /><col className="w-80" /><col /></colgroup>
      <thead className="text-[10px] uppercase tracking-wider text-zinc-500">
        <tr><th className="px-3 py-1.5 font-medium">Type</th><th className="px-2 py-1.5 font-medium">Support</th><th className="px-2 py-1.5 font-medium">Engine</th><th className="px-2 py-1.5 font-medium">Note</th></tr>
      </thead>
      <tbody>
        {list.map((c) => (
          <tr key={c.type} data-testid="capability-row" data-supported={c.supported} className={`border-t border-surface-line ${c.supported ? "" : "text-zinc-500"}`}>
            <td className="px-3 py-1.5 font-mono text-zinc-200">{c.type}</td>
            <td className="px-2 py-1.5"><SupportCell supported={c.supported} /></td>
            <td className="truncate px-2 py-1.5 font-mono text-[11px]" title={c.engine}>{c.engine ?? "—"}</td>
            <td className="px-2 py-1.5 text-zinc-400">{c.note ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function CapabilitiesPage() {
  const query = useCapabilitiesQuery();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-zinc-100">Capabilities</h1>
        <p className="text-xs text-zinc-500">Detection types this service accepts, and which of them have a real detector behind them.</p>
      </div>
      {query.isPending && <p className="text-xs text-zinc-500">Loading…</p>}
      {query.isError && <ErrorNote prefix="Could not load capabilities:" error={query.error} />}
      {query.data &&
        grouped(query.data.capabilities).map(([group, list]) => {
          const supported = list.filter((c) => c.supported).length;
          return (
            <Panel
              key={group}
              title={<span className="font-mono normal-case tracking-normal text-zinc-200">{group}</span>}
              actions={<span className="text-[11px] text-zinc-500">{supported} / {list.length} supported</span>}
            >
              {supported > 0 ? (
                <CapabilityTable group={group} list={list} />
              ) : (
                // Groups with nothing supported stay folded: one shared reason, rows on demand.
                <details className="group">
                  <summary className="cursor-pointer px-3 py-2 text-xs text-zinc-500 hover:text-zinc-300">
                    No detector for any of these {list.length} types{commonNote(list) ? ` — ${commonNote(list)}` : ""}. Show all
                  </summary>
                  <CapabilityTable group={group} list={list} />
                </details>
              )}
            </Panel>
          );
        })}
    </div>
  );
}
