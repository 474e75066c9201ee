"use client";

import type { RiskLevel, StreamKind, StreamSummary } from "@/lib/dashboard-api";
import { useNow } from "@/components/hooks/useNow";
import RiskBadge from "@/components/ui/RiskBadge";
import { behindNotice } from "@/lib/stream-state";

export function KindChip({ kind }: { kind: StreamKind }) {
  return (
    <span className="rounded bg-zinc-700/40 px-1.5 py-0.5 font-mono text-[10px] uppercase tracking-wider text-zinc-300">{kind}</span>
  );
}

export function StreamStatusPill({ status }: { status: StreamSummary["status"] }) {
  return status === "running" ? (
    <span data-testid="stream-status" data-status={status} className="inline-flex items-center gap-1.5 rounded bg-risk-pass/10 px-1.5 py-0.5 text-[11px] font-medium text-risk-pass">
      <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-risk-pass" />
      live
    </span>
  ) : (
    <span data-testid="stream-status" data-status={status} className="inline-flex rounded bg-zinc-700/30 px-1.5 py-0.5 text-[11px] font-medium text-zinc-400">
      ended
    </span>
  );
}

/** A risk badge under a stable test id; "—" until the first result. */
export function RiskSlot({ testId, level, label, size = "md" }: { testId: string; level: RiskLevel | null; label: string; size?: "sm" | "md" | "lg" }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className="text-[10px] uppercase tracking-wider text-zinc-500">{label}</span>
      <span data-testid={testId} data-level={level ?? ""}>
        {level ? <RiskBadge level={level} size={size} /> : <span className="text-xs text-zinc-600">—</span>}
      </span>
    </span>
  );
}

/** "4 s ago", "3 min ago", "2 h ago". */
export function formatAgo(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s ago`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min ago`;
}

/** Time since the last result, ticking every second; a long silence on a live stream turns amber. */
export function SinceLast({ at, running, staleAfterSec = 30 }: { at: string | null; running: boolean; staleAfterSec?: number }) {
  const now = useNow();
  if (at === null) return <span data-testid="since-last" className="text-zinc-500">no results yet</span>;
  const then = Date.parse(at);
  if (now === 0 || Number.isNaN(then)) return <span data-testid="since-last" className="text-zinc-500">—</span>;
  const stale = running && now - then > staleAfterSec * 1000;
  return (
    <time data-testid="since-last" dateTime={at} title={new Date(then).toLocaleString()} className={`tabular-nums ${stale ? "text-risk-review" : "text-zinc-300"}`}>
      {formatAgo(now - then)}
    </time>
  );
}

/** "12 frames: 8 checked · 4 not checked": a frame the detectors skipped is never counted as a result. */
export function FrameChecks({ stream }: { stream: StreamSummary }) {
  return (
    <span data-testid="frame-checks" data-checked={stream.framesChecked} data-not-checked={stream.framesNotChecked} className="tabular-nums">
      {stream.frames} frames: <span data-testid="frames-checked" className="text-zinc-300">{stream.framesChecked} checked</span>
      {stream.framesNotChecked > 0 && (
        <>
          {" · "}
          <span data-testid="frames-not-checked" className="text-risk-review" title="detectType 2: captured, but the detectors did not look at them (detectStep, or detection fell behind)">{stream.framesNotChecked} not checked</span>
        </>
      )}
    </span>
  );
}

/** "detection behind: N of M frames not checked in the last minute" while a running stream's detection lags. */
export function DetectionBehind({ stream, className = "" }: { stream: StreamSummary; className?: string }) {
  const now = useNow();
  const notice = now === 0 ? null : behindNotice(stream, now);
  if (notice === null) return null;
  return (
    <p role="status" data-testid="detection-behind" data-not-checked={notice.notChecked} data-frames={notice.frames} className={`rounded border border-risk-review/60 bg-risk-review/10 px-2 py-1 text-[11px] text-risk-review ${className}`}>
      {notice.text}
    </p>
  );
}
