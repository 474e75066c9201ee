import { formatMediaTime } from "@/components/ui/format";
import { asRiskLevel, riskStyles } from "@/components/ui/risk";
import FrameEvidence from "@/components/shared/FrameEvidence";
import { extraDescription, labelName, labelSlugs } from "./frame-info";
import type { FrameDetail } from "./types";
import SafeMedia from "@/components/wellness/SafeMedia";

/** One captured frame: thumbnail with a risk-coloured frame, time, top label and the evidence in short. */
export default function FrameCard({ frame, onOpen }: { frame: FrameDetail; onOpen: () => void }) {
  const level = asRiskLevel(frame.riskLevel);
  const style = riskStyles[level];
  const risky = level !== "PASS";
  return (
    <li
      data-testid="frame-card"
      data-level={level}
      className={`w-52 shrink-0 overflow-hidden rounded-md border-2 bg-surface-sunken ${style.border} ${risky ? `ring-2 ${style.ring}` : "opacity-80"}`}
    >
      <button type="button" onClick={onOpen} className="block w-full text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400" aria-label={`Open frame at ${formatMediaTime(frame.time)}`}>
        <div className="relative aspect-video bg-black">
          <SafeMedia hint={false} focusable={false} className="block h-full w-full" label="frame">
            <img src={frame.imgUrl} alt={`frame at ${formatMediaTime(frame.time)}`} loading="lazy" className="h-full w-full object-contain" />
          </SafeMedia>
          <span className={`absolute left-1 top-1 rounded px-1.5 py-0.5 text-[10px] font-bold tracking-wide text-black ${style.bar}`}>{level}</span>
          <span className="absolute bottom-1 right-1 rounded bg-black/70 px-1 font-mono text-[10px] tabular-nums text-zinc-100">{formatMediaTime(frame.time)}</span>
        </div>
        <div className="space-y-1 p-2 text-xs">
          <div className={`truncate font-semibold ${style.text}`} title={labelName(frame)}>{labelName(frame)}</div>
          <div className="truncate text-[11px] text-zinc-500" title={frame.riskDescription}>{extraDescription(frame) || <span className="font-mono">{labelSlugs(frame)}</span>}</div>
          <FrameEvidence frame={frame} />
        </div>
      </button>
    </li>
  );
}
