"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { RiskLevel } from "@/lib/dashboard-api";
import FrameLightbox from "@/components/files/result/FrameLightbox";
import LevelChips, { shownBy } from "@/components/shared/LevelChips";
import { frameCounts, type FailedView, type FrameView } from "./event-view";
import { FailedEventTile, FrameEventCard } from "./FrameEventCard";
import { nearestIndex } from "./timeline-model";
import type { ReviewTarget } from "@/components/shared/ReviewPanel";

/** A card's width (w-44) and the gap between cards: the lane renders only the cards in view (a 3-hour stream has thousands). */
const CARD = 176;
const GAP = 8;

/** A jump to `t` s since the stream started (`n` tells two jumps to the same moment apart). */
export interface SeekRequest {
  t: number;
  n: number;
}

/** The checked frame received nearest after `t` (s since the stream started), a risky one first within 5 s. */
function frameAt(frames: FrameView[], t: number): FrameView | undefined {
  const near = frames.filter((f) => Math.abs(f.detail.time - t) <= 5);
  const pool = near.some((f) => f.level !== "PASS") ? near.filter((f) => f.level !== "PASS") : frames;
  return pool.reduce<FrameView | undefined>((best, f) => (best === undefined || Math.abs(f.detail.time - t) < Math.abs(best.detail.time - t) ? f : best), undefined);
}

/**
 * Frames newest first (left), so the latest result is always in view; chips filter by level and "not checked".
 * `focusTime` (s since the stream started; an alert's Open link) opens the frame captured then, once.
 */
export default function FrameLane({ frames, focusTime = null, seek = null, review }: { frames: Array<FrameView | FailedView>; focusTime?: number | null; seek?: SeekRequest | null; review?: ReviewTarget }) {
  // "show only" the pressed levels (none pressed: all), "not checked" being a level of its own
  const [only, setOnly] = useState<Array<RiskLevel | "NOT_CHECKED">>([]);
  const [openId, setOpenId] = useState<number | null>(null);

  // Only checked frames have a result to enlarge; the lightbox walks oldest → newest so indices stay put.
  const checked = useMemo(() => frames.filter((f): f is FrameView => f.kind === "frame" && f.level !== null), [frames]);
  const chronological = useMemo(() => [...checked].reverse(), [checked]);
  const details = useMemo(() => chronological.map((f) => f.detail), [chronological]);
  const counts = useMemo(() => frameCounts(frames), [frames]);
  const [focused, setFocused] = useState(false);
  useEffect(() => {
    if (focused || focusTime === null || checked.length === 0) return;
    setFocused(true);
    setOpenId(frameAt(checked, focusTime)?.id ?? null);
  }, [focused, focusTime, checked]);

  const visible = useMemo(() => frames.filter((f) => f.kind === "failed" || shownBy(only, f.level ?? "NOT_CHECKED")), [frames, only]);
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtual = useVirtualizer({ horizontal: true, count: visible.length, getScrollElement: () => scroller.current, estimateSize: () => CARD, gap: GAP, overscan: 4, getItemKey: (i) => visible[i].id });
  const [focusedId, setFocusedId] = useState<number | null>(null);
  useEffect(() => {
    if (seek === null) return;
    const i = nearestIndex(visible, seek.t, (f) => (f.kind === "frame" ? f.detail.time : undefined));
    if (i < 0) return;
    setFocusedId(visible[i].id);
    virtual.scrollToIndex(i, { align: "center" });
    // only a new jump moves the lane, not new frames arriving
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seek]);
  const items = virtual.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = Math.max(0, virtual.getTotalSize() - (items.at(-1)?.end ?? 0));
  const openIndex = openId === null ? null : chronological.findIndex((f) => f.id === openId);

  return (
    <div data-testid="frame-lane" className="p-3">
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
        <span className="text-zinc-500">Show only</span>
        <LevelChips counts={counts.levels} only={only} setOnly={setOnly} />
        {counts.notChecked > 0 && (
          <button
            type="button"
            data-testid="not-checked-chip"
            data-count={counts.notChecked}
            aria-pressed={only.includes("NOT_CHECKED")}
            onClick={() => setOnly((o) => (o.includes("NOT_CHECKED") ? o.filter((x) => x !== "NOT_CHECKED") : [...o, "NOT_CHECKED"]))}
            title="Frames the detectors did not check (detectType 2): not counted as PASS"
            className={`rounded border border-dashed px-2 py-0.5 ${only.includes("NOT_CHECKED") ? "border-zinc-300 bg-surface-raised text-zinc-100" : "border-zinc-600 text-zinc-400"}`}
          >
            NOT CHECKED · {counts.notChecked}
          </button>
        )}
        <span className="ml-auto text-zinc-500">newest first · scroll sideways for older · click a frame for labels, OCR and QR</span>
      </div>
      {frames.length === 0 ? (
        <p className="py-4 text-center text-xs text-zinc-500">No frame results yet.</p>
      ) : (
        <div ref={scroller} data-testid="frame-scroller" className="overflow-x-auto pb-2">
          <ul className="flex" style={{ gap: GAP, paddingLeft: before, paddingRight: after }} data-total={visible.length}>
            {items.map((row) => {
              const f = visible[row.index];
              return f.kind === "frame" ? (
                <FrameEventCard key={f.id} frame={f} focused={f.id === focusedId} onOpen={() => setOpenId(f.id)} />
              ) : (
                <FailedEventTile key={f.id} view={f} testId="frame-failed" />
              );
            })}
          </ul>
        </div>
      )}
      <FrameLightbox
        frames={details}
        index={openIndex === null || openIndex < 0 ? null : openIndex}
        onIndex={(i) => setOpenId(i === null ? null : (chronological[i]?.id ?? null))}
        review={review}
      />
    </div>
  );
}
