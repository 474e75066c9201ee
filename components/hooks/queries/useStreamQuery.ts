"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { StreamDetail, StreamEvent } from "@/lib/dashboard-api";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";
import { mergeDetail, mergeEvents } from "./stream-cache";

/** Live events that arrived before the first fetch of their stream landed, per requestId. */
const held = new Map<string, StreamEvent[]>();
/**
 * Per requestId: the newest event id known complete when the room was (re)joined (null = fetch all).
 * Live events cached after that moment may sit above a gap, so the next fetch starts here, not at them.
 */
const resyncFrom = new Map<string, number | null>();

/** Keep events until the stream's cache entry exists; the next fetch merges them in. */
export function holdEvents(requestId: string, events: StreamEvent[]): void {
  held.set(requestId, mergeEvents(held.get(requestId) ?? [], events));
}

export function dropHeldEvents(requestId: string): void {
  held.delete(requestId);
  resyncFrom.delete(requestId);
}

/** Called when the server acknowledges the stream's room: everything cached so far is gap-free. */
export function markResync(requestId: string, lastCompleteId: number | undefined): void {
  const next = lastCompleteId ?? null;
  const pending = resyncFrom.get(requestId);
  // An earlier unfinished resync reaches further back: keep the lower floor.
  if (pending === null || (pending !== undefined && next !== null && pending < next)) return;
  resyncFrom.set(requestId, next);
}

/**
 * GET /api/streams/{requestId}[?after=<event id>]: the stream and its events, oldest first. Every fetch is
 * merged by event id into the cached copy (and any held live events), so refetching after a reconnect
 * fills gaps without duplicating live events. `pollMs` is a fallback for when live updates are unavailable.
 */
export function useStreamQuery(requestId: string, pollMs: number | false = false) {
  const client = useQueryClient();
  const key = queryKeys.stream(requestId);
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const floor = resyncFrom.has(requestId) ? resyncFrom.get(requestId)! : client.getQueryData<StreamDetail>(key)?.events.at(-1)?.id ?? null;
      const query = floor === null ? "" : `?after=${floor}`;
      const fetched = await apiJson<StreamDetail>(`/api/streams/${encodeURIComponent(requestId)}${query}`, { signal });
      // Done with this resync unless a newer one was asked for while fetching.
      if (resyncFrom.has(requestId) && resyncFrom.get(requestId) === floor) resyncFrom.delete(requestId);
      const merged = mergeDetail(client.getQueryData<StreamDetail>(key), fetched);
      const early = held.get(requestId);
      held.delete(requestId);
      return early ? { ...merged, events: mergeEvents(merged.events, early) } : merged;
    },
    refetchInterval: (query) => (query.state.data?.stream.status === "ended" ? false : pollMs),
  });
}
