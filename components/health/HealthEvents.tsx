"use client";

import type { StreamHealthEvent } from "@/lib/stream-health";
import { formatDateTime } from "@/components/ui/format";

const KIND_STYLE: Record<StreamHealthEvent["kind"], string> = {
  connected: "text-risk-pass",
  recovered: "text-risk-pass",
  source_lost: "text-risk-reject",
  retrying: "text-risk-review",
  stalled: "text-risk-review",
  ended: "text-zinc-400",
  handover: "text-risk-review",
  disk_full: "text-risk-reject",
  disk_ok: "text-risk-pass",
};

const KIND_LABEL: Record<StreamHealthEvent["kind"], string> = {
  connected: "connected",
  recovered: "recovered",
  source_lost: "source lost",
  retrying: "retrying",
  stalled: "flagged",
  ended: "ended",
  handover: "moved worker",
  disk_full: "disk full",
  disk_ok: "disk ok",
};

/** The stored health changes of a stream, newest first: why the timeline has a gap. */
export default function HealthEvents({ events }: { events: StreamHealthEvent[] }) {
  if (events.length === 0) return <p className="text-[11px] text-zinc-500">No health changes recorded.</p>;
  return (
    <ol data-testid="health-events" className="max-h-48 space-y-0.5 overflow-y-auto font-mono text-[11px]">
      {[...events].reverse().map((e) => (
        <li key={e.id} data-kind={e.kind} className="flex gap-2">
          <time dateTime={e.at} className="shrink-0 tabular-nums text-zinc-500">{formatDateTime(e.at)}</time>
          <span className={`shrink-0 ${KIND_STYLE[e.kind]}`}>{KIND_LABEL[e.kind]}</span>
          <span className="min-w-0 break-words text-zinc-300">
            {e.message}
            {e.nextAttemptAt && <span className="text-zinc-500"> · next attempt {formatDateTime(e.nextAttemptAt)}</span>}
          </span>
        </li>
      ))}
    </ol>
  );
}
