"use client";

import { useEffect, useMemo, useState } from "react";
import type { RiskLevel } from "@/lib/dashboard-api";
import FrameLightbox from "@/components/files/result/FrameLightbox";
import LevelChips, { shownBy } from "@/components/shared/LevelChips";
import { frameCounts, type FailedView, type FrameView } from "./event-view";
import { FailedEventTile, FrameEventCard } from "./FrameEventCard";

/** Thumbnails rendered at first; a long stream keeps thousands of frames in memory, not in the DOM. */
const PAGE = 60;

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
export default function FrameLane({ frames, focusTime = null }: { frames: Array<FrameView | FailedView>; focusTime?: number | null }) {
  // "show only" the pressed levels (none pressed: all), "not checked" being a level of its own
  const [only, setOnly] = useState<Array<RiskLevel | "NOT_CHECKED">>([]);
  const [limit, setLimit] = useState(PAGE);
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

  const visible = frames.filter((f) => f.kind === "failed" || shownBy(only, f.level ?? "NOT_CHECKED"));
  const shown = visible.slice(0, limit);
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
        <span className="ml-auto text-zinc-500">newest first · click a frame for labels, OCR and QR</span>
      </div>
      {frames.length === 0 ? (
        <p className="py-4 text-center text-xs text-zinc-500">No frame results yet.</p>
      ) : (
        <ul className="flex gap-2 overflow-x-auto pb-2">
          {shown.map((f) =>
            f.kind === "frame" ? (
              <FrameEventCard key={f.id} frame={f} onOpen={() => setOpenId(f.id)} />
            ) : (
              <FailedEventTile key={f.id} view={f} testId="frame-failed" />
            ),
          )}
          {visible.length > shown.length && (
            <li className="flex shrink-0 items-center">
              <button type="button" onClick={() => setLimit((n) => n + PAGE)} className="rounded border border-surface-line px-3 py-6 text-xs text-zinc-400 hover:border-zinc-500">
                {visible.length - shown.length} older →
              </button>
            </li>
          )}
        </ul>
      )}
      <FrameLightbox
        frames={details}
        index={openIndex === null || openIndex < 0 ? null : openIndex}
        onIndex={(i) => setOpenId(i === null ? null : (chronological[i]?.id ?? null))}
      />
    </div>
  );
}
