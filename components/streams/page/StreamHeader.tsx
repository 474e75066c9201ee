"use client";

import Link from "next/link";
import type { StreamSummary } from "@/lib/dashboard-api";
import { formatDateTime } from "@/components/ui/format";
import { FrameChecks, KindChip, RiskSlot, SinceLast } from "../bits";
import { staleNowReason, StreamStatusPill } from "../StreamStatus";
import CloseStreamButton from "../CloseStreamButton";
import ApiKeyMarker from "@/components/files/ApiKeyMarker";
import HealthStrip from "@/components/health/HealthStrip";
import { useStreamHealth } from "@/components/health/useStreamHealth";
import { reconcileFrameCounts } from "@/components/health/format";

/** Title, address, state and the two risk levels a moderator watches; Close for a supervisor. */
export default function StreamHeader({ stream, live }: { stream: StreamSummary; live: boolean }) {
  const name = stream.title ?? stream.url;
  const running = stream.status === "running";
  const health = useStreamHealth(stream.requestId, running);
  const snapshot = health.report?.snapshot;
  // one set of counts for the header and the health strip (the stored results and the engine's snapshot, reconciled)
  const frameCounts = reconcileFrameCounts(stream, snapshot?.frames);
  return (
    <div data-testid="stream-header" data-status={stream.status} className="space-y-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link href="/streams" className="text-xs text-sky-300 hover:underline">← Streams</Link>
        <h1 className="min-w-0 truncate text-lg font-semibold text-zinc-100" title={name}>{name}</h1>
        <KindChip kind={stream.kind} />
        <ApiKeyMarker item={stream} />
        <StreamStatusPill status={stream.status} health={snapshot} />
        {!live && stream.status === "running" && (
          <span className="text-[11px] text-risk-review" title="The live connection is down; the timeline refreshes every few seconds">polling</span>
        )}
        <div className="ml-auto">{stream.status === "running" && stream.origin !== "api" && <CloseStreamButton requestId={stream.requestId} name={name} size="md" />}</div>
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2 rounded-md border border-surface-line bg-surface-raised px-3 py-2">
        <RiskSlot testId="current-risk" label="now" level={stream.currentRisk} size="lg" stale={staleNowReason(running, snapshot)} />
        <RiskSlot testId="worst-risk" label="worst" level={stream.worstRisk} size="lg" />
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-[11px] text-zinc-500">
          <div><dt className="inline">last result </dt><dd className="inline"><SinceLast at={stream.lastResultAt} running={running} /></dd></div>
          {stream.kind === "video" && <div><dt className="sr-only">frames</dt><dd className="inline text-zinc-400"><FrameChecks stream={stream} counts={frameCounts} /></dd></div>}
          <div><dt className="inline">segments </dt><dd className="inline tabular-nums text-zinc-300">{stream.segments}</dd></div>
          <div><dt className="inline">started </dt><dd className="inline tabular-nums text-zinc-300">{formatDateTime(stream.startedAt)}</dd></div>
          {stream.endedAt && <div><dt className="inline">ended </dt><dd className="inline tabular-nums text-zinc-300">{formatDateTime(stream.endedAt)}</dd></div>}
        </dl>
      </div>
      <HealthStrip health={health} kind={stream.kind} frameCounts={frameCounts} />
      <dl className="flex flex-wrap gap-x-4 font-mono text-[11px] text-zinc-500">
        <div className="min-w-0"><dt className="inline">url </dt><dd className="inline break-all text-zinc-300">{stream.url}</dd></div>
        <div><dt className="inline">requestId </dt><dd className="inline text-zinc-300">{stream.requestId}</dd></div>
      </dl>
    </div>
  );
}
