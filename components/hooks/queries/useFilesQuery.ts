"use client";

import { useQuery } from "@tanstack/react-query";
import type { FileSummary } from "@/lib/dashboard-api";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";

export interface FilesResponse {
  files: FileSummary[];
}

/** GET /api/files. Live progress is merged in by useFilesLive, so there is no polling here. */
export function useFilesQuery() {
  return useQuery({
    queryKey: queryKeys.files,
    queryFn: ({ signal }) => apiJson<FilesResponse>("/api/files", { signal }),
  });
}
