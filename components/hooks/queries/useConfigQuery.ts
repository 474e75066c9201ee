"use client";

import { useQuery } from "@tanstack/react-query";
import type { DashboardConfig } from "@/lib/dashboard-api";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";

/** GET /api/config: static for the life of the server process. */
export function useConfigQuery() {
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => apiJson<DashboardConfig>("/api/config", { signal }),
    staleTime: Infinity,
  });
}
