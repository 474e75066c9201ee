"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import type { KeywordListView } from "@/lib/dashboard-api";
import KeywordListsPanel from "./KeywordListsPanel";
import ReferenceListPanel, { type ListGroup } from "./ReferenceListPanel";
import { useCan } from "@/components/auth/UserContext";
import ReadOnlyNote from "@/components/auth/ReadOnlyNote";

interface ListsResponse {
  faces: ListGroup;
  images: ListGroup;
  audio: ListGroup;
  keywords: KeywordListView[];
}

const LISTS_KEY = ["lists"] as const;

/** Reference lists the detectors match against: why a frame or segment matched points back here. */
export default function ListsPage() {
  const client = useQueryClient();
  const canEdit = useCan("lists:edit");
  const q = useQuery({ queryKey: LISTS_KEY, queryFn: ({ signal }) => apiJson<ListsResponse>("/api/lists", { signal }) });
  const refresh = () => client.invalidateQueries({ queryKey: LISTS_KEY });
  if (q.error) return <ErrorNote error={q.error} prefix="Lists" testId="lists-error" />;
  if (!q.data) return <p className="text-sm text-zinc-400">Loading lists…</p>;
  return (
    <div className="space-y-4" data-testid="lists-page">
      <h1 className="text-lg font-semibold">Reference lists</h1>
      <p className="text-sm text-zinc-400">Entries apply to new frames and segments at once, without a restart. Every hit names the list and entry that matched; thresholds per label are on the Policy page.</p>
      {!canEdit && <ReadOnlyNote what="lists" />}
      <fieldset disabled={!canEdit} className="contents">
      <div className="grid gap-4 lg:grid-cols-3">
        <ReferenceListPanel kind="faces" title="Face gallery (PUBLICFIGURE, TAINTEDSTAR, POLITY)" accept="image/*" hint="a photo with one clear face" group={q.data.faces} onChange={refresh} />
        <ReferenceListPanel kind="images" title="Prohibited-image hash bank" accept="image/*" hint="an image; near-duplicates (resized, recompressed, lightly cropped) match" group={q.data.images} onChange={refresh} freeListName />
        <ReferenceListPanel kind="audio" title="Audio references (ANTHEN, BANEDAUDIO, COPYRIGHTSONGS)" accept="audio/*,video/*" hint="a recording of the track" group={q.data.audio} onChange={refresh} />
      </div>
      <KeywordListsPanel lists={q.data.keywords} onChange={refresh} />
      </fieldset>
    </div>
  );
}
