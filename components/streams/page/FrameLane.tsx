"use client";

import { useMemo, useState } from "react";
import type { RiskLevel } from "@/lib/dashboard-api";
import FrameLightbox from "@/components/files/result/FrameLightbox";
import LevelChips, { countLevels } from "@/components/shared/LevelChips";
import type { FailedView, FrameView } from "./event-view";
import { FailedEventTile, FrameEventCard } from "./FrameEventCard";

/** Thumbnails rendered at first; a long stream keeps thousands of frames in memory, not in the DOM. */
const PAGE = 60;

/** Frames newest first (left), so the latest result is always in view; chips filter by level. */
export default function FrameLane({ frames }: { frames: Array<FrameView | FailedView> }) {
  const [hidden, setHidden] = useState<RiskLevel[]>([]);
  const [limit, setLimit] = useState(PAGE);
  const [openId, setOpenId] = useState<number | null>(null);

  const results = useMemo(() => frames.filter((f): f is FrameView => f.kind === "frame"), [frames]);
  // The lightbox walks oldest → newest so indices stay put while new frames arrive.
  const chronological = useMemo(() => [...results].reverse(), [results]);
  const details = useMemo(() => chronological.map((f) => f.detail), [chronological]);
  const counts = useMemo(() => countLevels(results.map((f) => f.level)), [results]);

  const visible = frames.filter((f) => f.kind === "failed" || !hidden.includes(f.level));
  const shown = visible.slice(0, limit);
  const openIndex = openId === null ? null : chronological.findIndex((f) => f.id === openId);

  return (
    <div data-testid="frame-lane" className="p-3">
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
        <LevelChips counts={counts} hidden={hidden} setHidden={setHidden} />
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
