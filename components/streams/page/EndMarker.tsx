import type { StreamSummary } from "@/lib/dashboard-api";
import RiskBadge from "@/components/ui/RiskBadge";
import { formatSeconds } from "@/components/ui/format";
import { endReasonText } from "../end-reasons";
import type { EndView } from "./event-view";

const PART: Readonly<Record<number, string>> = { 1: "image review", 2: "audio review" };

/**
 * Where the stream stopped and why: one marker for the stream, one line per stream-end callback
 * (a video stream with audio sends one per content type). Without end callbacks (returnFinishInfo off)
 * the summary's reason stands in.
 */
export default function EndMarker({ ends, stream }: { ends: EndView[]; stream: StreamSummary }) {
  if (ends.length === 0 && stream.status !== "ended") return null;
  const code = ends.find((e) => e.errorCode !== undefined)?.errorCode ?? stream.endErrorCode ?? undefined;
  const failed = code !== undefined;
  return (
    <div
      data-testid="end-marker"
      data-error-code={code ?? ""}
      data-source={ends.length > 0 ? "callback" : "summary"}
      className={`flex flex-wrap items-start gap-x-4 gap-y-1 rounded-md border px-3 py-2 text-xs ${failed ? "border-risk-reject/60 bg-risk-reject/10" : "border-zinc-600 bg-zinc-800/40"}`}
    >
      <div className="flex items-center gap-2">
        <span aria-hidden className={`h-2.5 w-2.5 rounded-sm ${failed ? "bg-risk-reject" : "bg-zinc-400"}`} />
        <span className="font-semibold text-zinc-100">Stream ended</span>
        <span data-testid="end-reason" className={failed ? "text-red-200" : "text-zinc-300"}>
          {endReasonText(code)}
          {failed && <span className="font-mono text-zinc-400"> ({code})</span>}
        </span>
      </div>
      {ends.length > 0 ? (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-zinc-400">
          {ends.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center gap-1.5">
              {e.contentType !== undefined && <span className="text-zinc-300">{PART[e.contentType] ?? `content ${e.contentType}`}:</span>}
              {e.level && <RiskBadge level={e.level} size="sm" />}
              {e.streamTime !== undefined && <span>moderated {formatSeconds(e.streamTime)}</span>}
              {e.pullStreamSuccess !== undefined && <span>{e.pullStreamSuccess ? "pull ok" : "no frame pulled"}</span>}
              <span className="tabular-nums text-zinc-500">at {e.at}</span>
            </li>
          ))}
        </ul>
      ) : (
        stream.endReason && <span className="text-zinc-400">{stream.endReason}</span>
      )}
    </div>
  );
}
