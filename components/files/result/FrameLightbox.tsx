"use client";

import type { KeyboardEvent, MouseEvent, ReactNode } from "react";
import ReviewPanel, { type ReviewTarget } from "@/components/shared/ReviewPanel";
import { RISK_SOURCE_MEANING, type RiskSource } from "@/lib/contract/taxonomy";
import { useModalDialog } from "@/components/hooks/useModalDialog";
import RiskBadge from "@/components/ui/RiskBadge";
import { formatMediaTime, formatPercent } from "@/components/ui/format";
import { asRiskLevel, riskStyles } from "@/components/ui/risk";
import { extraDescription, frameOcr, frameQr, labelName, labelSlugs, sourceName } from "./frame-info";
import HighlightedText, { MatchLegend } from "./HighlightedText";
import type { AllLabel, FrameDetail, ImgRiskDetail } from "./types";
import SafeMedia from "@/components/wellness/SafeMedia";

interface Props {
  frames: FrameDetail[];
  index: number | null;
  onIndex: (i: number | null) => void;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-1.5">
      <h3 className="text-[11px] font-semibold uppercase tracking-wider text-zinc-500">{title}</h3>
      {children}
    </section>
  );
}

function LabelsTable({ frame }: { frame: FrameDetail }) {
  const labels: AllLabel<ImgRiskDetail>[] = frame.allLabels && frame.allLabels.length > 0 ? frame.allLabels : [frame];
  return (
    <table data-testid="frame-labels" className="w-full text-left text-xs">
      <thead className="text-[10px] uppercase tracking-wider text-zinc-500">
        <tr><th className="py-1 pr-2 font-medium">Level</th><th className="py-1 pr-2 font-medium">Label</th><th className="py-1 pr-2 text-right font-medium">Prob.</th><th className="py-1 font-medium">Source</th></tr>
      </thead>
      <tbody>
        {labels.map((l, i) => (
          <tr key={`${l.riskLabel1}:${l.riskLabel2}:${l.riskLabel3}:${i}`} className="border-t border-surface-line align-top">
            <td className="py-1.5 pr-2"><RiskBadge level={asRiskLevel(l.riskLevel)} size="sm" /></td>
            <td className="py-1.5 pr-2">
              <div className="text-zinc-100">{labelName(l)}</div>
              <div className="text-[11px] text-zinc-500">
                {extraDescription(l) ? `${extraDescription(l)} · ` : ""}
                <span className="font-mono">{labelSlugs(l)}</span>
              </div>
            </td>
            <td className="py-1.5 pr-2 text-right font-mono tabular-nums text-zinc-300">{formatPercent(l.probability)}</td>
            <td className="py-1.5 text-[11px] text-zinc-400" title={RISK_SOURCE_MEANING[l.riskDetail?.riskSource as RiskSource]}>{sourceName(l.riskDetail?.riskSource)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function FrameBody({ frame }: { frame: FrameDetail }) {
  const ocr = frameOcr(frame);
  const qr = frameQr(frame);
  const objects = (frame.riskDetail?.objects ?? []).filter((o) => o.name);
  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <SafeMedia className="block rounded" label="frame">
        <img src={frame.imgUrl} alt={`frame at ${formatMediaTime(frame.time)}`} className={`max-h-[70vh] w-full rounded border-2 bg-black object-contain ${riskStyles[asRiskLevel(frame.riskLevel)].border}`} />
      </SafeMedia>
      <div className="space-y-4 overflow-y-auto md:max-h-[70vh]">
        <Section title="Labels"><LabelsTable frame={frame} /></Section>
        {qr.length > 0 && (
          <Section title="QR content">
            {qr.map((q) => <p key={q} data-testid="qr-content" className="break-all rounded bg-surface-sunken px-2 py-1 font-mono text-xs text-sky-300">{q}</p>)}
          </Section>
        )}
        {ocr && (
          <Section title="OCR text">
            <HighlightedText testId="ocr-text" text={ocr.text} matchedLists={ocr.matchedLists} riskSegments={ocr.riskSegments} className="rounded bg-surface-sunken px-2 py-1.5 text-xs text-zinc-200" />
            <MatchLegend matchedLists={ocr.matchedLists} riskSegments={ocr.riskSegments} />
          </Section>
        )}
        {objects.length > 0 && (
          <Section title="Objects">
            <ul className="text-xs text-zinc-300">{objects.map((o, i) => <li key={`${o.name}-${i}`}>{o.name} <span className="text-zinc-500">{formatPercent(o.probability)}</span></li>)}</ul>
          </Section>
        )}
        {(frame.businessLabels ?? []).length > 0 && (
          <Section title="Business labels">
            <ul className="text-xs text-zinc-300">
              {frame.businessLabels!.map((b, i) => <li key={i}>{b.businessDescription ?? [b.businessLabel1, b.businessLabel2, b.businessLabel3].filter(Boolean).join(":")} <span className="text-zinc-500">{formatPercent(b.probability)}</span></li>)}
            </ul>
          </Section>
        )}
        {frame.auxInfo?.similarity !== undefined && (
          <p className="text-[11px] text-zinc-500">Similarity to previous frame: {formatPercent(frame.auxInfo.similarity)}</p>
        )}
      </div>
    </div>
  );
}

/** Modal view of one frame with every label and its evidence; ←/→ step through frames, Esc closes. */
export default function FrameLightbox({ frames, index, onIndex, review }: Props & { review?: ReviewTarget }) {
  const frame = index === null ? undefined : frames[index];
  const ref = useModalDialog(frame !== undefined);

  const step = (delta: number) => {
    if (index === null || frames.length === 0) return;
    onIndex((index + delta + frames.length) % frames.length);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === "ArrowRight") step(1);
    if (e.key === "ArrowLeft") step(-1);
  };
  // A click on the dialog element itself (not its content) is a click on the backdrop.
  const onClick = (e: MouseEvent<HTMLDialogElement>) => {
    if (e.target === e.currentTarget) onIndex(null);
  };

  return (
    <dialog
      ref={ref}
      data-testid="lightbox"
      aria-label={frame ? `Frame at ${formatMediaTime(frame.time)}` : "Frame"}
      onClose={() => onIndex(null)}
      onKeyDown={onKeyDown}
      onClick={onClick}
      className="m-auto w-[min(1100px,95vw)] rounded-lg border border-surface-line bg-surface-raised p-0 text-zinc-200"
    >
      {frame && (
        <div className="p-4">
          <header className="mb-3 flex items-center gap-3">
            <RiskBadge level={asRiskLevel(frame.riskLevel)} size="lg" />
            <span className="font-mono text-sm tabular-nums text-zinc-300">{formatMediaTime(frame.time)}</span>
            <span className="truncate text-sm text-zinc-400">{labelName(frame)}</span>
            <span className="ml-auto text-[11px] text-zinc-500">{index! + 1} / {frames.length}</span>
            <button type="button" onClick={() => step(-1)} className="rounded border border-surface-line px-2 py-0.5 text-xs hover:border-zinc-500" aria-label="Previous frame">←</button>
            <button type="button" onClick={() => step(1)} className="rounded border border-surface-line px-2 py-0.5 text-xs hover:border-zinc-500" aria-label="Next frame">→</button>
            <button type="button" onClick={() => onIndex(null)} className="rounded border border-surface-line px-2 py-0.5 text-xs hover:border-zinc-500" aria-label="Close">Close</button>
          </header>
          <FrameBody frame={frame} />
          {/* a decision on this frame alone (its result's requestId), kept beside the task's */}
          {review && frame.requestId && (
            <div className="mt-3">
              <ReviewPanel {...review} item={frame.requestId} itemLabel={`frame at ${formatMediaTime(frame.time)}`} />
            </div>
          )}
        </div>
      )}
    </dialog>
  );
}
