"use client";

import Link from "next/link";
import type { StreamSummary } from "@/lib/dashboard-api";
import { useOpenIncidentCount } from "@/components/alerts/useOpenIncidents";
import { formatDateTime } from "@/components/ui/format";
import { riskStyles } from "@/components/ui/risk";
import { DetectionBehind, FrameChecks, KindChip, RiskSlot, SinceLast } from "./bits";
import CloseStreamButton from "./CloseStreamButton";
import ApiKeyMarker from "@/components/files/ApiKeyMarker";
import { HealthBadgeView } from "@/components/health/HealthBadge";
import { mediaStateOf, noPictureText } from "@/components/health/format";
import { useLiveHealth } from "@/components/health/useStreamHealth";
import type { StreamHealthSnapshot } from "@/lib/stream-health";
import { staleNowReason, StreamStatusPill } from "./StreamStatus";
import CardPreview from "@/components/preview/CardPreview";
import SafeMedia from "@/components/wellness/SafeMedia";

export const streamHref = (requestId: string) => `/streams/${encodeURIComponent(requestId)}`;

/** The newest captured frame (it changes with every frame result the stream sends), or why there is none. */
function Thumbnail({ stream, name, health }: { stream: StreamSummary; name: string; health: StreamHealthSnapshot | null }) {
  if (stream.lastFrameUrl === null) {
    const state = stream.status === "running" ? mediaStateOf(health) : null;
    // no report: whether media flows is not known, and the state pill over the picture says so
    const why = stream.kind === "audio" ? "audio only" : state === "no-report" ? "" : state !== null && state !== "live" && state !== "ended" ? noPictureText(health) : "no frame yet";
    return (
      <span data-testid="stream-thumb-empty" className="flex h-full items-center justify-center text-[10px] text-zinc-600">
        {why}
      </span>
    );
  }
  return <img data-testid="stream-thumb" src={stream.lastFrameUrl} alt={`latest frame of ${name}`} className="h-full w-full object-contain" />;
}

function OpenIncidents({ requestId }: { requestId: string }) {
  const open = useOpenIncidentCount(requestId);
  if (open === undefined) return null;
  const n = open.count;
  return (
    <span
      data-testid="open-incidents"
      data-count={n}
      title="open incidents of this stream (decide them on the Review page)"
      className={`rounded px-1 py-0.5 text-[10px] font-semibold tabular-nums ${n > 0 ? "bg-risk-reject/90 text-black" : "bg-black/70 text-zinc-400"}`}
    >
      {n}{open.capped ? "+" : ""} open {n === 1 ? "incident" : "incidents"}
    </span>
  );
}

/** A running stream on the wall: its latest frame, risk now and at worst, open incidents, lag, freshness, and Close. */
export default function StreamCard({ stream, preview = true }: { stream: StreamSummary; preview?: boolean }) {
  const accent = stream.currentRisk && stream.currentRisk !== "PASS" ? riskStyles[stream.currentRisk].border : stream.worstRisk && stream.worstRisk !== "PASS" ? riskStyles[stream.worstRisk].border : "border-surface-line";
  const name = stream.title ?? stream.url;
  const running = stream.status === "running";
  // the wall is subscribed to every stream's health: one snapshot for the state pill, NOW's freshness and the badge
  const health = useLiveHealth(stream.requestId);
  const stale = staleNowReason(running, health);
  return (
    <article
      data-testid="stream-card"
      data-request-id={stream.requestId}
      data-status={stream.status}
      data-current={stream.currentRisk ?? ""}
      data-worst={stream.worstRisk ?? ""}
      data-media={running ? (mediaStateOf(health) ?? "unknown") : "ended"}
      title={`${stream.url}\nstarted ${formatDateTime(stream.startedAt)}`}
      className={`flex min-w-0 flex-col overflow-hidden rounded-md border border-l-4 bg-surface-raised ${accent}`}
    >
      <div className="relative h-24 shrink-0 bg-black">
        <Link href={streamHref(stream.requestId)} aria-label={`Timeline of ${name}`} className="block h-full">
          <SafeMedia hint={false} className="block h-full w-full" label={`picture of ${name}`}>
            {preview && running && stream.kind === "video" ? <CardPreview requestId={stream.requestId} label={name} fallback={<Thumbnail stream={stream} name={name} health={health} />} /> : <Thumbnail stream={stream} name={name} health={health} />}
          </SafeMedia>
        </Link>
        {/* the overlays share one column (top row, centre, bottom row): a badge never lands on another or on a caption */}
        <div className="pointer-events-none absolute inset-1 flex flex-col justify-between gap-0.5">
          <div className="flex min-w-0 items-start justify-between gap-1">
            <span className="pointer-events-auto shrink-0 rounded bg-black/70 px-1 py-0.5">
              <RiskSlot testId="current-risk" label="now" level={stream.currentRisk} size="sm" stale={stale} />
            </span>
            <span className="flex min-w-0 flex-wrap justify-end gap-1">
              <KindChip kind={stream.kind} />
              <OpenIncidents requestId={stream.requestId} />
            </span>
          </div>
          {running && health && mediaStateOf(health) !== "live" && (
            <span className="self-center">
              <StreamStatusPill status={stream.status} health={health} />
            </span>
          )}
          <div className="flex min-w-0 items-end justify-between gap-1">
            <span className="pointer-events-auto min-w-0 truncate rounded bg-black/70 px-1 py-0.5 text-[10px]">
              <SinceLast at={stream.lastResultAt} running={running} />
            </span>
            <DetectionBehind stream={stream} compact className="shrink-0" />
          </div>
        </div>
      </div>
      <div className="min-w-0 space-y-0.5 px-2 pt-1.5">
        <div className="flex min-w-0 items-center gap-2">
          <Link href={streamHref(stream.requestId)} className="min-w-0 flex-1 truncate text-xs font-medium text-zinc-100 hover:text-sky-300">
            {name}
          </Link>
          <RiskSlot testId="worst-risk" label="worst" level={stream.worstRisk} size="sm" />
        </div>
        {stream.origin === "api" && (
          <div className="flex min-w-0">
            <ApiKeyMarker item={stream} />
          </div>
        )}
        <div data-testid="stream-counts" className="truncate text-[11px] tabular-nums text-zinc-500">
          {stream.kind === "video" && <><FrameChecks stream={stream} /> · </>}
          {stream.segments} audio
        </div>
      </div>
      <footer className="mt-auto flex items-center justify-between gap-2 px-2 pb-1.5 pt-1">
        <span className="flex min-w-0 items-center gap-2">
          <Link href={streamHref(stream.requestId)} className="text-[11px] text-sky-300 hover:underline">Timeline →</Link>
          {running && health && <HealthBadgeView snapshot={health} />}
        </span>
        {running && stream.origin !== "api" && <CloseStreamButton requestId={stream.requestId} name={name} />}
      </footer>
    </article>
  );
}
