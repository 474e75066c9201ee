"use client";

import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import type { ReviewMetrics } from "@/lib/review-metrics";

/** GET /api/metrics/review for one query string; kept while the next range loads, refreshed every minute. */
export function useReviewMetrics(query: string | null) {
  return useQuery({
    queryKey: ["review-metrics", query],
    queryFn: ({ signal }) => apiJson<ReviewMetrics>(`/api/metrics/review?${query}`, { signal }),
    enabled: query !== null,
    placeholderData: (prev) => prev,
    refetchInterval: 60_000,
  });
}
