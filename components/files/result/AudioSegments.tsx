import RiskBadge from "@/components/ui/RiskBadge";
import { formatMediaTime } from "@/components/ui/format";
import { asRiskLevel, riskStyles } from "@/components/ui/risk";
import { extraDescription, labelName } from "./frame-info";
import HighlightedText from "./HighlightedText";
import type { AudioDetail } from "./types";
import TrackMatch from "@/components/shared/TrackMatch";
import { SafeAudio } from "@/components/wellness/SafeMedia";

function segmentText(seg: AudioDetail): string {
  return seg.audioText || seg.riskDetail?.audioText || "";
}

export default function AudioSegments({ segments }: { segments: AudioDetail[] }) {
  if (segments.length === 0) return <p className="p-3 text-xs text-zinc-500">No audio segments returned.</p>;
  const sorted = [...segments].sort((a, b) => (a.audioStarttime ?? 0) - (b.audioStarttime ?? 0));
  return (
    <ul className="divide-y divide-surface-line">
      {sorted.map((seg, i) => {
        const level = asRiskLevel(seg.riskLevel);
        const text = segmentText(seg);
        return (
          <li key={seg.requestId || i} data-testid="audio-segment" data-level={level} className={`grid gap-2 border-l-2 px-3 py-2 md:grid-cols-[9rem_minmax(0,1fr)_18rem] md:items-center ${level === "PASS" ? "border-transparent" : riskStyles[level].border}`}>
            <div className="flex items-center gap-2">
              <RiskBadge level={level} size="sm" />
              <span className="font-mono text-[11px] tabular-nums text-zinc-400">
                {formatMediaTime(seg.audioStarttime)}–{formatMediaTime(seg.audioEndtime)}
              </span>
            </div>
            <div className="min-w-0 text-xs">
              <div className={`font-medium ${level === "PASS" ? "text-zinc-300" : riskStyles[level].text}`}>
                {labelName(seg)} {extraDescription(seg) && <span className="font-normal text-zinc-500">· {extraDescription(seg)}</span>}
              </div>
              {text !== "" ? (
                <HighlightedText text={text} matchedLists={seg.riskDetail?.matchedLists} riskSegments={seg.riskDetail?.riskSegments} className="text-zinc-300" testId="audio-text" />
              ) : (
                <p className="text-zinc-600">no transcript</p>
              )}
              <TrackMatch detail={seg.riskDetail} />
            </div>
            {seg.audioUrl ? <SafeAudio preload="none" src={seg.audioUrl} className="h-8 w-full" /> : <span className="text-[11px] text-zinc-600">no audio clip</span>}
          </li>
        );
      })}
    </ul>
  );
}
