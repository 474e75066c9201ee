"use client";

import type { StreamSummary } from "@/lib/dashboard-api";
import type { StreamHealthSnapshot } from "@/lib/stream-health";
import { useNow } from "@/components/hooks/useNow";
import { mediaStateOf, mediaStateText } from "@/components/health/format";

/**
 * A stream's state in one pill: green "live" only while its media flows; "connecting", "retrying 5 of 12" or
 * "no media for N s" otherwise; "running" while its health is not known (a remote service, or before the first snapshot).
 */
export function StreamStatusPill({ status, health }: { status: StreamSummary["status"]; health: StreamHealthSnapshot | null | undefined }) {
  const now = useNow();
  const state = status === "running" ? mediaStateOf(health) : "ended";
  const base = "inline-flex items-center gap-1.5 rounded px-1.5 py-0.5 text-[11px] font-medium";
  if (state === "live") {
    return (
      <span data-testid="stream-status" data-status={status} data-media="live" className={`${base} bg-risk-pass/10 text-risk-pass`}>
        <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-risk-pass" />
        live
      </span>
    );
  }
  if (state === null || state === "ended") {
    const text = status === "running" ? (state === "ended" ? "ending" : "running") : "ended";
    const title = state === null && status === "running" ? "the pull's health is not known here: whether media flows is not shown" : undefined;
    return <span data-testid="stream-status" data-status={status} data-media={state ?? "unknown"} title={title} className={`${base} bg-zinc-700/30 text-zinc-400`}>{text}</span>;
  }
  return (
    <span data-testid="stream-status" data-status={status} data-media={state} className={`${base} bg-risk-review/10 text-risk-review`}>
      <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-risk-review" />
      {health ? mediaStateText(health, now) : state}
    </span>
  );
}

/** Why NOW is an old level (null: it is current): a running stream whose media is not flowing. */
export function staleNowReason(running: boolean, health: StreamHealthSnapshot | null | undefined): string | null {
  const state = running ? mediaStateOf(health) : null;
  if (state === null || state === "live" || state === "ended") return null;
  if (state === "no-report") return "no health report is coming in: this is the last result known, maybe not a current one";
  return "no media is coming in: this is the last result before it stopped, not a current one";
}
