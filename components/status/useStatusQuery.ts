"use client";

import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import type { StatusReport } from "@/lib/status";

export const statusQueryKey = ["status"] as const;

/** GET /api/status: disk use, retention sweeps and queue depths, refreshed every 10 s. */
export function useStatusQuery() {
  return useQuery({
    queryKey: statusQueryKey,
    queryFn: ({ signal }) => apiJson<StatusReport>("/api/status", { signal }),
    refetchInterval: 10_000,
  });
}
