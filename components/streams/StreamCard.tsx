"use client";

import Link from "next/link";
import type { StreamSummary } from "@/lib/dashboard-api";
import { formatDateTime } from "@/components/ui/format";
import { riskStyles } from "@/components/ui/risk";
import { DetectionBehind, FrameChecks, KindChip, RiskSlot, SinceLast } from "./bits";
import CloseStreamButton from "./CloseStreamButton";
import ApiKeyMarker from "@/components/files/ApiKeyMarker";

export const streamHref = (requestId: string) => `/streams/${encodeURIComponent(requestId)}`;

/** A running stream on the wall: what it is, how risky now and at worst, how fresh, and Close. */
export default function StreamCard({ stream }: { stream: StreamSummary }) {
  const accent = stream.worstRisk && stream.worstRisk !== "PASS" ? riskStyles[stream.worstRisk].border : "border-surface-line";
  const name = stream.title ?? stream.url;
  return (
    <article
      data-testid="stream-card"
      data-request-id={stream.requestId}
      data-status={stream.status}
      className={`flex min-w-0 flex-col gap-2 rounded-md border border-l-4 bg-surface-raised p-3 ${accent}`}
    >
      <header className="flex min-w-0 items-start gap-2">
        <div className="min-w-0 flex-1">
          <Link href={streamHref(stream.requestId)} className="block truncate font-medium text-zinc-100 hover:text-sky-300" title={name}>
            {name}
          </Link>
          {stream.title !== null && <div className="truncate font-mono text-[11px] text-zinc-500" title={stream.url}>{stream.url}</div>}
        </div>
        <KindChip kind={stream.kind} />
        <ApiKeyMarker item={stream} />
      </header>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <RiskSlot testId="current-risk" label="now" level={stream.currentRisk} />
        <RiskSlot testId="worst-risk" label="worst" level={stream.worstRisk} />
      </div>
      <DetectionBehind stream={stream} />
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-[11px] text-zinc-500">
        <dt>last result</dt>
        <dd><SinceLast at={stream.lastResultAt} running={stream.status === "running"} /></dd>
        <dt>results</dt>
        <dd data-testid="stream-counts" className="tabular-nums text-zinc-300">
          {stream.kind === "video" && <><FrameChecks stream={stream} /> · </>}
          {stream.segments} audio segments
        </dd>
        <dt>started</dt>
        <dd className="tabular-nums text-zinc-400">{formatDateTime(stream.startedAt)}</dd>
      </dl>
      <footer className="mt-auto flex items-center justify-between gap-2 border-t border-surface-line pt-2">
        <Link href={streamHref(stream.requestId)} className="text-xs text-sky-300 hover:underline">Timeline →</Link>
        {stream.status === "running" && stream.origin !== "api" && <CloseStreamButton requestId={stream.requestId} name={name} />}
      </footer>
    </article>
  );
}
