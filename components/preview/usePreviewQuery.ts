"use client";

import { useQuery } from "@tanstack/react-query";
import type { PreviewInfo } from "@/server/preview/info";
import { apiJson } from "@/components/api/http";

/** GET /api/preview/{requestId}: signed playlist link, retained span, evidence clips (re-signed at each fetch). */
export function usePreviewQuery(requestId: string, running: boolean, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ["preview", requestId] as const,
    queryFn: ({ signal }) => apiJson<PreviewInfo>(`/api/preview/${encodeURIComponent(requestId)}`, { signal }),
    // soon after the start (the first segment), then for new clips; links last hours, so an ended stream's page refreshes slowly
    refetchInterval: (q) => (!running ? 10 * 60_000 : q.state.data?.available ? 10_000 : 2000),
    retry: false,
  });
}
