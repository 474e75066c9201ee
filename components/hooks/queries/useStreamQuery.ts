"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { StreamDetail, StreamEvent } from "@/lib/dashboard-api";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";
import { mergeDetail, mergeEvents } from "./stream-cache";

/** Live events that arrived before the first fetch of their stream landed, per requestId. */
const held = new Map<string, StreamEvent[]>();

/** Keep events until the stream's cache entry exists; the next fetch merges them in. */
export function holdEvents(requestId: string, events: StreamEvent[]): void {
  held.set(requestId, mergeEvents(held.get(requestId) ?? [], events));
}

export function dropHeldEvents(requestId: string): void {
  held.delete(requestId);
}

/**
 * GET /api/streams/{requestId}[?after=<last event id held>]: the stream and its events, oldest first. Every fetch is merged by event id
 * into the cached copy (and any held live events), so refetching after a reconnect fills gaps without
 * duplicating live events. `pollMs` is a fallback for when live updates are unavailable.
 */
export function useStreamQuery(requestId: string, pollMs: number | false = false) {
  const client = useQueryClient();
  const key = queryKeys.stream(requestId);
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const cached = client.getQueryData<StreamDetail>(key);
      // Only what is newer than the cache is needed; the merge also copes with a full answer.
      const last = cached?.events.at(-1)?.id;
      const query = last === undefined ? "" : `?after=${last}`;
      const fetched = await apiJson<StreamDetail>(`/api/streams/${encodeURIComponent(requestId)}${query}`, { signal });
      const merged = mergeDetail(client.getQueryData<StreamDetail>(key), fetched);
      const early = held.get(requestId);
      held.delete(requestId);
      return early ? { ...merged, events: mergeEvents(merged.events, early) } : merged;
    },
    refetchInterval: (query) => (query.state.data?.stream.status === "ended" ? false : pollMs),
  });
}
