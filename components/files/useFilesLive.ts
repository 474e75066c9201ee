"use client";

import { useQueryClient } from "@tanstack/react-query";
import type { FileSummary } from "@/lib/dashboard-api";
import { FILES_ROOM, type FileProgressEvent } from "@/lib/events";
import { useSocketRoom } from "@/components/hooks/useSocket";
import { queryKeys } from "@/components/hooks/queries/keys";
import type { FilesResponse } from "@/components/hooks/queries/useFilesQuery";

function applyProgress(row: FileSummary, e: FileProgressEvent): FileSummary {
  return {
    ...row,
    status: e.status,
    framesDone: e.framesDone,
    framesTotal: e.framesTotal,
    riskLevel: e.riskLevel ?? row.riskLevel,
    code: e.code ?? row.code,
  };
}

/** Merge `file:progress` events from the "files" room into the cached list; refetch on terminal states. */
export function useFilesLive(): void {
  const client = useQueryClient();
  useSocketRoom(FILES_ROOM, "file:progress", (e) => {
    let known = false;
    client.setQueryData<FilesResponse>(queryKeys.files, (old) => {
      if (old === undefined) return old;
      return {
        ...old,
        files: old.files.map((row) => {
          if (row.requestId !== e.requestId) return row;
          known = true;
          return applyProgress(row, e);
        }),
      };
    });
    // An unknown row was submitted elsewhere; a terminal state may carry fields the event lacks.
    if (!known || e.status === "done" || e.status === "failed") {
      void client.invalidateQueries({ queryKey: queryKeys.files, exact: true });
    }
    if (e.status === "done" || e.status === "failed") {
      void client.invalidateQueries({ queryKey: queryKeys.fileResult(e.btId), exact: true });
    }
  });
}
