"use client";

import type { RiskLevel, StreamKind, StreamSummary } from "@/lib/dashboard-api";
import { useNow } from "@/components/hooks/useNow";
import RiskBadge from "@/components/ui/RiskBadge";
import { behindNotice } from "@/lib/stream-state";
import type { FrameCounts } from "@/components/health/format";

export function KindChip({ kind }: { kind: StreamKind }) {
  return (
    <span className="rounded bg-zinc-700/40 px-1.5 py-0.5 font-mono text-[10px] uppercase tracking-wider text-zinc-300">{kind}</span>
  );
}

/**
 * A risk badge under a stable test id; "—" until the first result. `stale` (why): the level is an old one (no
 * media is coming), so it is faded and marked, never shown as a fresh result.
 */
export function RiskSlot({ testId, level, label, size = "md", stale }: { testId: string; level: RiskLevel | null; label: string; size?: "sm" | "md" | "lg"; stale?: string | null }) {
  return (
    <span className="inline-flex items-center gap-1.5" title={stale ?? undefined}>
      <span className="text-[10px] uppercase tracking-wider text-zinc-500">{label}</span>
      <span data-testid={testId} data-level={level ?? ""} data-stale={stale ? "1" : "0"} className={stale && level ? "opacity-40" : undefined}>
        {level ? <RiskBadge level={level} size={size} /> : <span className="text-xs text-zinc-600">—</span>}
      </span>
      {stale && level && <span data-testid={`${testId}-stale`} className="text-[10px] text-risk-review">stale</span>}
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

/** "12 frames: 8 checked · 4 not checked": a frame the detectors skipped is never counted as a result. `counts`: the reconciled ones (stream page). */
export function FrameChecks({ stream, counts }: { stream: StreamSummary; counts?: FrameCounts }) {
  const c = counts ?? { captured: stream.frames, checked: stream.framesChecked, notChecked: stream.framesNotChecked };
  return (
    <span data-testid="frame-checks" data-checked={c.checked} data-not-checked={c.notChecked} className="tabular-nums">
      {c.captured} frame{c.captured === 1 ? "" : "s"}: <span data-testid="frames-checked" className="text-zinc-300">{c.checked} checked</span>
      {c.notChecked > 0 && (
        <>
          {" · "}
          <span data-testid="frames-not-checked" className="text-risk-review" title="detectType 2: captured, but the detectors did not look at them (detectStep, or detection fell behind)">{c.notChecked} not checked</span>
        </>
      )}
    </span>
  );
}

/**
 * "detection behind: N of M frames not checked in the last minute" while a running stream's detection lags;
 * `compact` (the wall's tiles) reads "behind N/M", with the full sentence as its title.
 */
export function DetectionBehind({ stream, className = "", compact = false }: { stream: StreamSummary; className?: string; compact?: boolean }) {
  const now = useNow();
  const notice = now === 0 ? null : behindNotice(stream, now);
  if (notice === null) return null;
  const look = compact ? "px-1 py-0.5 text-[10px] bg-black/80" : "px-2 py-1 text-[11px] bg-risk-review/10";
  return (
    <p role="status" data-testid="detection-behind" data-not-checked={notice.notChecked} data-frames={notice.frames} title={notice.text} className={`rounded border border-risk-review/60 text-risk-review ${look} ${className}`}>
      {compact ? `behind ${notice.notChecked}/${notice.frames}` : notice.text}
    </p>
  );
}

/** What the wall's filter looks at: a stream's latest checked result, or its worst so far. */
export type WallBasis = "now" | "worst";
/** A risk level, or "none" for a stream without a checked result yet. */
export type WallLevel = RiskLevel | "none";
export interface WallFilter {
  /** levels to show; empty = every stream */
  only: WallLevel[];
  basis: WallBasis;
}

const WALL_LEVELS: ReadonlyArray<{ level: WallLevel; label: string; on: string }> = [
  { level: "REJECT", label: "REJECT", on: "border-risk-reject bg-risk-reject/15 text-risk-reject" },
  { level: "REVIEW", label: "REVIEW", on: "border-risk-review bg-risk-review/15 text-risk-review" },
  { level: "PASS", label: "PASS", on: "border-risk-pass/60 bg-risk-pass/10 text-risk-pass" },
  { level: "none", label: "no result yet", on: "border-zinc-400 bg-zinc-500/15 text-zinc-200" },
];

/** Whether a stream passes the wall's filter. */
export function shownOnWall(s: StreamSummary, f: WallFilter): boolean {
  if (f.only.length === 0) return true;
  const level = f.basis === "now" ? s.currentRisk : s.worstRisk;
  return f.only.includes(level ?? "none");
}

/** "Show only" chips: pressing a level shows only streams at the pressed levels; none pressed shows all. */
export function WallFilterBar({ filter, onChange, shown, total }: { filter: WallFilter; onChange: (f: WallFilter) => void; shown: number; total: number }) {
  const toggle = (l: WallLevel) => onChange({ ...filter, only: filter.only.includes(l) ? filter.only.filter((x) => x !== l) : [...filter.only, l] });
  return (
    <div role="group" aria-label="Show only streams at these risk levels" data-testid="wall-filter" data-only={filter.only.join(",")} data-basis={filter.basis} className="flex flex-wrap items-center gap-1.5 text-[11px]">
      <span className="text-zinc-400">Show only</span>
      {WALL_LEVELS.map(({ level, label, on }) => {
        const pressed = filter.only.includes(level);
        return (
          <button key={level} type="button" data-testid={`wall-only-${level}`} aria-pressed={pressed} onClick={() => toggle(level)} className={`rounded border px-2 py-0.5 font-medium ${pressed ? on : "border-surface-line text-zinc-500 hover:border-zinc-500 hover:text-zinc-300"}`}>
            {label}
          </button>
        );
      })}
      <label className="ml-1 flex items-center gap-1 text-zinc-400">
        by
        <select data-testid="wall-basis" value={filter.basis} onChange={(e) => onChange({ ...filter, basis: e.target.value as WallBasis })} className="rounded border border-surface-line bg-surface-sunken px-1 py-0.5 text-[11px] text-zinc-200">
          <option value="now">risk now</option>
          <option value="worst">worst so far</option>
        </select>
      </label>
      <span data-testid="wall-shown" className="ml-1 tabular-nums text-zinc-500">
        {filter.only.length === 0 ? `all ${total} shown` : `${shown} of ${total} shown`}
      </span>
      {filter.only.length > 0 && (
        <button type="button" data-testid="wall-show-all" onClick={() => onChange({ ...filter, only: [] })} className="text-sky-300 hover:underline">
          show all
        </button>
      )}
    </div>
  );
}
