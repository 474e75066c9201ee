"use client";

import { useState } from "react";
import type { RiskLevel } from "@/lib/dashboard-api";
import { asRiskLevel, riskStyles } from "@/components/ui/risk";
import FrameCard from "./FrameCard";
import FrameLightbox from "./FrameLightbox";
import type { FrameDetail } from "./types";

const LEVELS: RiskLevel[] = ["REJECT", "REVIEW", "PASS"];

/** Captured frames in time order; a click opens the lightbox, the chips filter by level. */
export default function FrameStrip({ frames }: { frames: FrameDetail[] }) {
  const [hidden, setHidden] = useState<RiskLevel[]>([]);
  const [open, setOpen] = useState<number | null>(null);
  const sorted = [...frames].sort((a, b) => a.time - b.time);
  const visible = sorted.filter((f) => !hidden.includes(asRiskLevel(f.riskLevel)));
  const counts = Object.fromEntries(LEVELS.map((l) => [l, sorted.filter((f) => asRiskLevel(f.riskLevel) === l).length])) as Record<RiskLevel, number>;

  if (frames.length === 0) return <p className="p-3 text-xs text-zinc-500">No frames returned (only risky frames are returned unless “Return all frames” was set).</p>;

  return (
    <div className="p-3">
      <div className="mb-2 flex items-center gap-2 text-xs">
        {LEVELS.filter((l) => counts[l] > 0).map((l) => {
          const on = !hidden.includes(l);
          return (
            <button
              key={l}
              type="button"
              aria-pressed={on}
              onClick={() => setHidden((h) => (on ? [...h, l] : h.filter((x) => x !== l)))}
              className={`rounded border px-2 py-0.5 ${on ? `${riskStyles[l].border} ${riskStyles[l].text}` : "border-surface-line text-zinc-600"}`}
            >
              {l} · {counts[l]}
            </button>
          );
        })}
        <span className="ml-auto text-zinc-500">click a frame for labels, OCR and QR detail</span>
      </div>
      <ul data-testid="frame-strip" className="flex gap-3 overflow-x-auto pb-2">
        {visible.map((f, i) => <FrameCard key={f.requestId || `${f.time}-${i}`} frame={f} onOpen={() => setOpen(i)} />)}
      </ul>
      <FrameLightbox frames={visible} index={open} onIndex={setOpen} />
    </div>
  );
}
