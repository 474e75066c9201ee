"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FileSubmitInput } from "@/lib/dashboard-api";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";

export interface FileSubmitted {
  requestId: string;
  btId: string;
}

/** POST /api/files; refreshes the file list so the new row shows at once. */
export function useSubmitFileMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: FileSubmitInput) => apiJson<FileSubmitted>("/api/files", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.files, exact: true }),
  });
}
