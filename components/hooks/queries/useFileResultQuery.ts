"use client";

import { useQuery } from "@tanstack/react-query";
import { apiEnvelope } from "@/components/api/http";
import { QUERY_PROCESSING, type FileQueryResponse } from "@/components/files/result/types";
import { queryKeys } from "./keys";
import { useConfigQuery } from "./useConfigQuery";

const FALLBACK_POLL_MS = 3_000;

/**
 * GET /api/files/{btId}/result (the v4 query body, relayed as is). Polls at the configured interval
 * while the service answers 1101 and stops for good on 1100 or any error code.
 */
export function useFileResultQuery(btId: string) {
  const config = useConfigQuery();
  const pollMs = config.data?.pollIntervalMs ?? FALLBACK_POLL_MS;
  return useQuery({
    queryKey: queryKeys.fileResult(btId),
    queryFn: ({ signal }) =>
      apiEnvelope<FileQueryResponse>(`/api/files/${encodeURIComponent(btId)}/result`, signal),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data !== undefined && data.code !== QUERY_PROCESSING) return false;
      return pollMs;
    },
    // A finished result never changes; an in-progress one is refreshed by the interval above.
    staleTime: (query) => (query.state.data !== undefined && query.state.data.code !== QUERY_PROCESSING ? Infinity : 0),
  });
}
