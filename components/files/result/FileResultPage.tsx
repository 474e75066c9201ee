"use client";

import Link from "next/link";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { fileRoom, type FileProgressEvent } from "@/lib/events";
import { useSocketRoom } from "@/components/hooks/useSocket";
import { queryKeys } from "@/components/hooks/queries/keys";
import { useConfigQuery } from "@/components/hooks/queries/useConfigQuery";
import { useFileResultQuery } from "@/components/hooks/queries/useFileResultQuery";
import { useFilesQuery } from "@/components/hooks/queries/useFilesQuery";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import ProgressBar from "@/components/ui/ProgressBar";
import AudioSegments from "./AudioSegments";
import FrameStrip from "./FrameStrip";
import ResultSummary from "./ResultSummary";
import { isFileResult, QUERY_PROCESSING, type FileQueryEnvelope } from "./types";
import ReviewPanel from "@/components/shared/ReviewPanel";
import ApiKeyMarker from "../ApiKeyMarker";
import SourceIncidents from "@/components/review/SourceIncidents";
import FileClips from "./FileClips";

type Progress = Pick<FileProgressEvent, "status" | "framesDone" | "framesTotal" | "segmentsDone" | "segmentsTotal">;

function ProcessingPanel({ progress, pollMs }: { progress: Progress | null; pollMs: number | undefined }) {
  return (
    <Panel title="Processing">
      <div data-testid="processing" className="space-y-2 p-3 text-xs text-zinc-400">
        <p>
          The service is still working on this file{progress ? ` (${progress.status})` : ""}. Progress arrives live; the result is
          re-checked every {pollMs ? `${Math.round(pollMs / 100) / 10} s` : "few seconds"}.
        </p>
        <div className="grid max-w-xl grid-cols-[5rem_minmax(0,1fr)] items-center gap-x-3 gap-y-2">
          <span>Frames</span>
          <ProgressBar done={progress?.framesDone ?? 0} total={progress?.framesTotal ?? 0} label="frames processed" />
          {progress !== null && progress.segmentsTotal > 0 && (
            <>
              <span>Audio</span>
              <ProgressBar done={progress.segmentsDone} total={progress.segmentsTotal} label="audio segments processed" />
            </>
          )}
        </div>
      </div>
    </Panel>
  );
}

function ErrorResult({ envelope }: { envelope: FileQueryEnvelope }) {
  return (
    <Panel title="Result unavailable">
      <p role="alert" data-testid="result-error" className="p-3 text-sm text-red-200">
        <span className="font-mono font-semibold text-risk-reject">code {envelope.code}</span> — {envelope.message}
      </p>
    </Panel>
  );
}

export default function FileResultPage({ btId }: { btId: string }) {
  const client = useQueryClient();
  const result = useFileResultQuery(btId);
  const pollMs = useConfigQuery().data?.pollIntervalMs;
  // `btId` is an API file's requestId when opened from the list (two accessKeys may use the same btId)
  const filesQuery = useFilesQuery();
  const files = filesQuery.data?.files;
  const summary = files?.find((f) => f.requestId === btId) ?? files?.find((f) => f.btId === btId);
  const [live, setLive] = useState<Progress | null>(null);

  const data = result.data;
  const requestId = data?.requestId || summary?.requestId || null;
  const processing = data?.code === QUERY_PROCESSING;

  useSocketRoom(processing && requestId ? fileRoom(requestId) : null, "file:progress", (e) => {
    if (e.requestId !== requestId) return;
    setLive(e);
    if (e.status === "done" || e.status === "failed") {
      void client.invalidateQueries({ queryKey: queryKeys.fileResult(btId), exact: true });
    }
  });
  const progress: Progress | null = live ?? (summary ? { ...summary, segmentsDone: 0, segmentsTotal: 0 } : null);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-x-4 gap-y-1">
        <Link href="/files" className="text-xs text-sky-300 hover:underline">← Files</Link>
        <h1 className="min-w-0 truncate text-lg font-semibold text-zinc-100" title={summary?.url}>{summary?.title ?? summary?.url ?? btId}</h1>
        {summary && <ApiKeyMarker item={summary} />}
        <dl className="flex gap-4 font-mono text-[11px] text-zinc-500">
          <div><dt className="inline">btId </dt><dd className="inline text-zinc-300">{summary?.btId ?? btId}</dd></div>
          {requestId && <div><dt className="inline">requestId </dt><dd className="inline text-zinc-300">{requestId}</dd></div>}
        </dl>
      </div>

      {result.isPending && <p className="text-xs text-zinc-500">Loading result…</p>}
      {result.isError && data === undefined && <ErrorNote prefix="Could not load the result:" error={result.error} />}
      {processing && <ProcessingPanel progress={progress} pollMs={pollMs} />}
      {data !== undefined && !processing && !isFileResult(data) && <ErrorResult envelope={data} />}
      {isFileResult(data) && (
        <>
          <Panel title="Verdict"><ResultSummary result={data} requested={filesQuery.isPending ? undefined : (summary?.requested ?? null)} /></Panel>
          <ReviewPanel targetKind="file" targetId={btId} />
          {requestId && <SourceIncidents requestId={requestId} kind="file" />}
          {requestId && <FileClips requestId={requestId} />}
          <Panel title={`Frames (${data.frameDetail?.length ?? 0})`}><FrameStrip frames={data.frameDetail ?? []} review={btId ? { targetKind: "file", targetId: btId } : undefined} /></Panel>
          <Panel title={`Audio segments (${data.audioDetail?.length ?? 0})`}><AudioSegments segments={data.audioDetail ?? []} /></Panel>
        </>
      )}
    </div>
  );
}
