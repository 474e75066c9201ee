"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { StreamSummary } from "@/lib/dashboard-api";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";
import { newerSummary } from "./stream-cache";

export interface StreamsResponse {
  streams: StreamSummary[];
}

/**
 * GET /api/streams. Live `stream:summary` events are merged in by useStreamsLive; a refetch keeps a
 * cached row when it is newer than the fetched one, so a slow response cannot rewind a card.
 * `pollMs` is a fallback for when live updates are unavailable.
 */
export function useStreamsQuery(pollMs: number | false = false) {
  const client = useQueryClient();
  return useQuery({
    queryKey: queryKeys.streams,
    queryFn: async ({ signal }) => {
      const fetched = await apiJson<StreamsResponse>("/api/streams", { signal });
      const held = new Map((client.getQueryData<StreamsResponse>(queryKeys.streams)?.streams ?? []).map((s) => [s.requestId, s]));
      return { streams: fetched.streams.map((s) => newerSummary(held.get(s.requestId), s)) };
    },
    refetchInterval: pollMs,
  });
}
