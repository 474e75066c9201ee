"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { StreamDetail } from "@/lib/dashboard-api";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";
import { mergeDetail } from "./stream-cache";

/**
 * GET /api/streams/{requestId}: the stream and its events, oldest first. Every fetch is merged by event id
 * into the cached copy, so refetching after a reconnect fills gaps without duplicating live events.
 * `pollMs` is a fallback for when live updates are unavailable.
 */
export function useStreamQuery(requestId: string, pollMs: number | false = false) {
  const client = useQueryClient();
  const key = queryKeys.stream(requestId);
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const fetched = await apiJson<StreamDetail>(`/api/streams/${encodeURIComponent(requestId)}`, { signal });
      return mergeDetail(client.getQueryData<StreamDetail>(key), fetched);
    },
    refetchInterval: (query) => (query.state.data?.stream.status === "ended" ? false : pollMs),
  });
}
