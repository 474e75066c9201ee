"use client";

import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";

export interface Capability {
  group: string;
  type: string;
  supported: boolean;
  engine?: string;
  note?: string;
}

export interface CapabilitiesResponse {
  capabilities: Capability[];
}

/** GET /api/capabilities: which detection types have a real detector behind them. */
export function useCapabilitiesQuery() {
  return useQuery({
    queryKey: queryKeys.capabilities,
    queryFn: ({ signal }) => apiJson<CapabilitiesResponse>("/api/capabilities", { signal }),
    staleTime: 60_000,
  });
}
