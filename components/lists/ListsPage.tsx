"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import ReferenceListPanel, { type ListGroup } from "./ReferenceListPanel";

interface ListsResponse {
  faces: ListGroup;
  images: ListGroup;
  audio: ListGroup;
  keywords: Array<{ scope: string; name: string; label: string; level: string; entries: number }>;
}

const LISTS_KEY = ["lists"] as const;

/** Reference lists the detectors match against: why a frame or segment matched points back here. */
export default function ListsPage() {
  const client = useQueryClient();
  const q = useQuery({ queryKey: LISTS_KEY, queryFn: ({ signal }) => apiJson<ListsResponse>("/api/lists", { signal }) });
  const refresh = () => client.invalidateQueries({ queryKey: LISTS_KEY });
  if (q.error) return <ErrorNote error={q.error} prefix="Lists" testId="lists-error" />;
  if (!q.data) return <p className="text-sm text-zinc-400">Loading lists…</p>;
  return (
    <div className="space-y-4" data-testid="lists-page">
      <h1 className="text-lg font-semibold">Reference lists</h1>
      <p className="text-sm text-zinc-400">Entries apply to new frames and segments at once, without a restart. Every hit names the list and entry that matched.</p>
      <div className="grid gap-4 lg:grid-cols-3">
        <ReferenceListPanel kind="faces" title="Face gallery (PUBLICFIGURE, TAINTEDSTAR, POLITY)" accept="image/*" hint="a photo with one clear face" group={q.data.faces} onChange={refresh} />
        <ReferenceListPanel kind="images" title="Prohibited-image hash bank" accept="image/*" hint="an image; near-duplicates (resized, recompressed, lightly cropped) match" group={q.data.images} onChange={refresh} freeListName />
        <ReferenceListPanel kind="audio" title="Audio references (ANTHEN, BANEDAUDIO, COPYRIGHTSONGS)" accept="audio/*,video/*" hint="a recording of the track" group={q.data.audio} onChange={refresh} />
      </div>
      <Panel title="Keyword lists (built in)">
        <table className="w-full text-sm" data-testid="keyword-lists">
          <thead className="text-left text-xs text-zinc-400">
            <tr>
              <th className="px-3 py-1.5">List</th>
              <th className="px-3 py-1.5">Applies to</th>
              <th className="px-3 py-1.5">Label</th>
              <th className="px-3 py-1.5">Level</th>
              <th className="px-3 py-1.5">Entries</th>
            </tr>
          </thead>
          <tbody>
            {q.data.keywords.map((k) => (
              <tr key={`${k.scope}:${k.name}`} className="border-t border-surface-line">
                <td className="px-3 py-1.5 font-mono">{k.name}</td>
                <td className="px-3 py-1.5">{k.scope}</td>
                <td className="px-3 py-1.5 font-mono">{k.label}</td>
                <td className="px-3 py-1.5">{k.level}</td>
                <td className="px-3 py-1.5">{k.entries}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
    </div>
  );
}
