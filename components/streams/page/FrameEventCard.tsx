import { extraDescription, labelName, labelSlugs } from "@/components/files/result/frame-info";
import FrameEvidence from "@/components/shared/FrameEvidence";
import { riskStyles } from "@/components/ui/risk";
import type { RiskLevel } from "@/lib/dashboard-api";
import type { FailedView, FrameView } from "./event-view";
import { formatOffset } from "./timeline-model";
import SafeMedia from "@/components/wellness/SafeMedia";

const NOT_CHECKED_WHY = "The detectors did not look at this frame (auxInfo.detectType 2): skipped by detectStep, or detection fell behind the capture rate";

/** A captured frame nobody checked: shown neutral with its own state, never as PASS, and not opened as a result. */
function NotCheckedFrameCard({ frame, focused }: { frame: FrameView; focused: boolean }) {
  const d = frame.detail;
  const picture = (
    <div className="relative aspect-video bg-black">
      {d.imgUrl ? (
        <SafeMedia hint={false} focusable={false} className="block h-full w-full" label="frame">
          <img src={d.imgUrl} alt={`frame at ${frame.clock}, not checked`} loading="lazy" className="h-full w-full object-contain opacity-40" />
        </SafeMedia>
      ) : (
        <span className="flex h-full items-center justify-center text-[10px] text-zinc-600">no image</span>
      )}
      <span className="absolute left-1 top-1 rounded bg-zinc-700 px-1.5 py-0.5 text-[10px] font-bold tracking-wide text-zinc-200">NOT CHECKED</span>
      <When frame={frame} />
    </div>
  );
  return (
    <li data-testid="frame-event" data-level="NOT_CHECKED" data-event-id={frame.id} data-checked="false" data-focused={focused || undefined} title={NOT_CHECKED_WHY} className={`w-44 shrink-0 overflow-hidden rounded-md border-2 border-dashed border-zinc-700 bg-surface-sunken ${focused ? "outline outline-2 outline-sky-300" : ""}`}>
      {d.imgUrl ? <a href={d.imgUrl} target="_blank" rel="noreferrer" aria-label={`Open the image of the frame captured at ${frame.clock} (not checked)`}>{picture}</a> : picture}
      <div className="space-y-0.5 p-1.5 text-[11px] text-zinc-500">
        <div>captured, not checked</div>
        {frame.dedup && <div>same as a previous frame</div>}
      </div>
    </li>
  );
}

/** One frame result on the live lane: thumbnail framed in its risk colour, capture time, label, evidence. */
export function FrameEventCard({ frame, onOpen, focused = false }: { frame: FrameView; onOpen: () => void; focused?: boolean }) {
  if (frame.level === null) return <NotCheckedFrameCard frame={frame} focused={focused} />;
  return <CheckedFrameCard frame={frame} level={frame.level} onOpen={onOpen} focused={focused} />;
}

/** Capture time as stream offset and clock time. */
function When({ frame }: { frame: FrameView }) {
  return (
    <span data-testid="frame-when" className="absolute bottom-1 right-1 rounded bg-black/70 px-1 font-mono text-[10px] tabular-nums text-zinc-100" title="stream offset · clock time">
      {formatOffset(frame.detail.time)} · {frame.clock}
    </span>
  );
}

function CheckedFrameCard({ frame, level, onOpen, focused }: { frame: FrameView; level: RiskLevel; onOpen: () => void; focused: boolean }) {
  const style = riskStyles[level];
  const risky = level !== "PASS";
  const d = frame.detail;
  return (
    <li
      data-testid="frame-event"
      data-level={level}
      data-event-id={frame.id}
      data-checked="true"
      data-focused={focused || undefined}
      className={`w-44 shrink-0 overflow-hidden rounded-md border-2 bg-surface-sunken ${style.border} ${risky ? `ring-2 ${style.ring}` : ""} ${focused ? "outline outline-2 outline-sky-300" : ""}`}
    >
      <button type="button" onClick={onOpen} className="block w-full text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400" aria-label={`Open frame captured at ${frame.clock}`}>
        <div className="relative aspect-video bg-black">
          {d.imgUrl ? (
            <SafeMedia hint={false} focusable={false} className="block h-full w-full" label="frame">
              <img src={d.imgUrl} alt={`frame at ${frame.clock}`} loading="lazy" className="h-full w-full object-contain" />
            </SafeMedia>
          ) : (
            <span className="flex h-full items-center justify-center text-[10px] text-zinc-600">no image</span>
          )}
          <span className={`absolute left-1 top-1 rounded px-1.5 py-0.5 text-[10px] font-bold tracking-wide text-black ${style.bar}`}>{level}</span>
          <When frame={frame} />
        </div>
        <div className="space-y-0.5 p-1.5 text-xs">
          <div className={`truncate font-semibold ${risky ? style.text : "text-zinc-400"}`} title={labelName(d)}>{labelName(d)}</div>
          {(extraDescription(d) || risky) && (
            <div className="truncate text-[11px] text-zinc-500" title={d.riskDescription}>{extraDescription(d) || <span className="font-mono">{labelSlugs(d)}</span>}</div>
          )}
          {frame.dedup && <div className="text-[11px] text-zinc-500">same as a previous frame</div>}
          <FrameEvidence frame={d} />
        </div>
      </button>
    </li>
  );
}

/** A callback that carried an error code instead of a result. */
export function FailedEventTile({ view, testId }: { view: FailedView; testId: string }) {
  return (
    <li data-testid={testId} data-code={view.code ?? ""} className="flex w-44 shrink-0 flex-col justify-center gap-1 rounded-md border border-dashed border-risk-reject/50 p-2 text-[11px] text-red-200">
      <span className="font-mono">code {view.code ?? "?"}</span>
      <span className="text-zinc-400">{view.message}</span>
      <span className="tabular-nums text-zinc-500">{view.at}</span>
    </li>
  );
}
