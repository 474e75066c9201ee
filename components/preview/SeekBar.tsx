"use client";

import { riskStyles } from "@/components/ui/risk";
import type { FrameMark } from "./marks";

const clock = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour12: false });
/** Hits closer than this share of the bar are one mark (the worst level, the first time), so none hides another. */
const MERGE_SHARE = 0.005;

/** Hits in time order, merged when they would overlap on the bar. */
function markGroups(marks: readonly FrameMark[], widthMs: number): Array<FrameMark & { count: number }> {
  const groups: Array<FrameMark & { count: number }> = [];
  for (const m of [...marks].sort((a, b) => a.atMs - b.atMs)) {
    const last = groups.at(-1);
    if (last && m.atMs - last.atMs < widthMs * MERGE_SHARE) {
      last.count++;
      if (m.level === "REJECT") last.level = "REJECT";
    } else groups.push({ ...m, count: 1 });
  }
  return groups;
}

/**
 * The retained preview as a bar of wall-clock time: hits (REVIEW/REJECT frames) marked in their colour, the
 * playhead in white. Clicking the bar or a mark seeks there.
 */
export default function SeekBar({ span, marks, playingAt, onSeek }: { span: { startMs: number; endMs: number }; marks: readonly FrameMark[]; playingAt: number | null; onSeek: (atMs: number) => void }) {
  const width = Math.max(1, span.endMs - span.startMs);
  const pct = (ms: number) => `${(((ms - span.startMs) / width) * 100).toFixed(3)}%`;
  const inside = marks.filter((m) => m.atMs >= span.startMs && m.atMs <= span.endMs);
  const groups = markGroups(inside, width);
  return (
    <div className="space-y-1">
      <div
        data-testid="preview-seekbar"
        data-start={span.startMs}
        data-end={span.endMs}
        role="slider"
        aria-label="Seek in the retained preview"
        aria-valuemin={span.startMs}
        aria-valuemax={span.endMs}
        aria-valuenow={playingAt ?? span.endMs}
        aria-valuetext={playingAt ? clock(playingAt) : "live"}
        tabIndex={0}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          onSeek(span.startMs + ((e.clientX - r.left) / Math.max(1, r.width)) * width);
        }}
        onKeyDown={(e) => {
          const step = e.key === "ArrowLeft" ? -5000 : e.key === "ArrowRight" ? 5000 : 0;
          if (step && playingAt) onSeek(Math.min(span.endMs, Math.max(span.startMs, playingAt + step)));
        }}
        className="relative h-6 cursor-pointer rounded bg-surface-sunken ring-1 ring-surface-line focus:outline-none focus-visible:ring-sky-400"
      >
        {groups.map((m) => (
          <button
            key={m.eventId}
            type="button"
            data-testid="preview-mark"
            data-event-id={m.eventId}
            data-level={m.level ?? ""}
            data-at={m.atMs}
            data-count={m.count}
            title={m.count > 1 ? `${m.count} hits from ${clock(m.atMs)} (worst ${m.level})` : `${m.level} frame${m.index ? ` ${m.index}` : ""} at ${clock(m.atMs)}`}
            aria-label={`Seek to the ${m.level} frame at ${clock(m.atMs)}`}
            onClick={(e) => {
              e.stopPropagation();
              onSeek(m.atMs);
            }}
            style={{ left: pct(m.atMs) }}
            className={`absolute top-0 h-full w-1.5 -translate-x-1/2 rounded-sm ${riskStyles[m.level ?? "REVIEW"].bar} hover:w-2.5`}
          />
        ))}
        {playingAt !== null && <div data-testid="preview-playhead" style={{ left: pct(Math.min(span.endMs, Math.max(span.startMs, playingAt))) }} className="pointer-events-none absolute -top-0.5 h-7 w-0.5 bg-white" />}
      </div>
      <div className="flex justify-between font-mono text-[10px] tabular-nums text-zinc-500">
        <span>{clock(span.startMs)}</span>
        <span>{inside.length} hit{inside.length === 1 ? "" : "s"} marked</span>
        <span>{clock(span.endMs)}</span>
      </div>
    </div>
  );
}
