import type { RiskLevel, StreamSummary } from "@/lib/dashboard-api";
import RiskBadge from "@/components/ui/RiskBadge";
import { worstOf } from "@/lib/stream-state";
import { formatSeconds } from "@/components/ui/format";
import { endReasonText } from "../end-reasons";
import type { EndView } from "./event-view";

type Lane = "frames" | "audio";
/** contentType of a stream-end → the lane it closes (an audio stream's end has none: its only lane is audio) */
const LANE_OF: Readonly<Record<number, Lane>> = { 1: "frames", 2: "audio" };
const laneOf = (e: EndView): Lane | undefined => (e.contentType === undefined ? "audio" : LANE_OF[e.contentType]);
const LANE_TEXT: Readonly<Record<Lane, { name: string; none: string }>> = {
  frames: { name: "image review", none: "no checked frame" },
  audio: { name: "audio review", none: "no segment" },
};

/** The worst level a lane actually saw (frames: checked ones only), under a stable test id. */
function LaneWorst({ lane, level }: { lane: Lane; level: RiskLevel | null }) {
  return (
    <span data-testid="end-lane" data-lane={lane} data-level={level ?? ""} className="inline-flex items-center gap-1.5">
      <span className="text-zinc-300">{LANE_TEXT[lane].name}:</span>
      {level ? <RiskBadge level={level} size="sm" /> : <span className="text-zinc-500">{LANE_TEXT[lane].none}</span>}
    </span>
  );
}

/**
 * Where the stream stopped and why: one marker for the stream, one line per stream-end callback
 * (a video stream with audio sends one per content type), each with the worst its lane saw; the callbacks'
 * riskLevel is the whole stream's verdict (docs/api.md §3.5), shown once as such. Without end callbacks
 * (returnFinishInfo off) the summary's reason stands in.
 */
export default function EndMarker({ ends, stream, worst }: { ends: EndView[]; stream: StreamSummary; worst: Record<Lane, RiskLevel | null> }) {
  if (ends.length === 0 && stream.status !== "ended") return null;
  const code = ends.find((e) => e.errorCode !== undefined)?.errorCode ?? stream.endErrorCode ?? undefined;
  const failed = code !== undefined;
  // a PASS verdict over nothing checked is no verdict: the server's worst (over every result, not only the loaded
  // ones) stays empty then (server/dashboard/callback-batch.ts)
  const said = worstOf(ends.map((e) => e.level ?? null));
  const overall = said === "PASS" && stream.worstRisk === null ? null : said;
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
          {endReasonText(code, stream.endReason)}
          {failed && <span className="font-mono text-zinc-400"> ({code})</span>}
        </span>
      </div>
      {ends.length > 0 ? (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-zinc-400">
          {ends.map((e) => {
            const lane = laneOf(e);
            return (
              <li key={e.id} className="flex flex-wrap items-center gap-1.5">
                {lane ? <LaneWorst lane={lane} level={worst[lane]} /> : <span className="text-zinc-300">content {e.contentType}</span>}
                {e.streamTime !== undefined && <span>moderated {formatSeconds(e.streamTime)}</span>}
                {e.pullStreamSuccess !== undefined && <span>{e.pullStreamSuccess ? "pull ok" : "no frame pulled"}</span>}
                <span className="tabular-nums text-zinc-500">at {e.at}</span>
              </li>
            );
          })}
          {said && (
            <li data-testid="end-overall" data-level={overall ?? ""} className="flex items-center gap-1.5" title="riskLevel of the stream-end callbacks: the worst over all frames and segments (CONTRACT §3.5)">
              <span className="text-zinc-300">stream verdict:</span>
              {overall ? <RiskBadge level={overall} size="sm" /> : <span className="text-zinc-400">none: nothing was checked</span>}
            </li>
          )}
        </ul>
      ) : (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-zinc-400">
          {stream.kind === "video" && <LaneWorst lane="frames" level={worst.frames} />}
          {(stream.kind === "audio" || stream.segments > 0) && <LaneWorst lane="audio" level={worst.audio} />}
        </div>
      )}
    </div>
  );
}
