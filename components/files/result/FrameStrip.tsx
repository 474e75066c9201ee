"use client";

import { useState } from "react";
import type { RiskLevel } from "@/lib/dashboard-api";
import LevelChips, { countLevels, shownBy } from "@/components/shared/LevelChips";
import { asRiskLevel } from "@/components/ui/risk";
import FrameCard from "./FrameCard";
import FrameLightbox from "./FrameLightbox";
import type { FrameDetail } from "./types";
import type { ReviewTarget } from "@/components/shared/ReviewPanel";

/** Captured frames in time order; a click opens the lightbox, the chips filter by level. */
export default function FrameStrip({ frames, review }: { frames: FrameDetail[]; review?: ReviewTarget }) {
  const [only, setOnly] = useState<RiskLevel[]>([]);
  const [open, setOpen] = useState<number | null>(null);
  const sorted = [...frames].sort((a, b) => a.time - b.time);
  const visible = sorted.filter((f) => shownBy(only, asRiskLevel(f.riskLevel)));
  const counts = countLevels(sorted.map((f) => asRiskLevel(f.riskLevel)));

  if (frames.length === 0) return <p className="p-3 text-xs text-zinc-500">No frames returned (only risky frames are returned unless “Return all frames” was set).</p>;

  return (
    <div className="p-3">
      <div className="mb-2 flex items-center gap-2 text-xs">
        <span className="text-zinc-500">Show only</span>
        <LevelChips counts={counts} only={only} setOnly={setOnly} />
        <span className="ml-auto text-zinc-500">click a frame for labels, OCR and QR detail</span>
      </div>
      <ul data-testid="frame-strip" className="flex gap-3 overflow-x-auto pb-2">
        {visible.map((f, i) => <FrameCard key={f.requestId || `${f.time}-${i}`} frame={f} onOpen={() => setOpen(i)} />)}
      </ul>
      <FrameLightbox frames={visible} index={open} onIndex={setOpen} review={review} />
    </div>
  );
}
