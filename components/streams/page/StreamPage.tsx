"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "next/navigation";
import type { StreamDetail } from "@/lib/dashboard-api";
import { ApiRequestError } from "@/components/api/http";
import { useStreamQuery } from "@/components/hooks/queries/useStreamQuery";
import { useStreamHistory, type HistoryState } from "@/components/hooks/queries/useStreamHistory";
import { useStreamLive } from "@/components/hooks/useStreamsLive";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import AudioLane from "./AudioLane";
import EndMarker from "./EndMarker";
import { lanes } from "./event-view";
import FrameLane, { type SeekRequest } from "./FrameLane";
import RiskStrip, { type StripSpan } from "./RiskStrip";
import { nearestIndex, timedItems } from "./timeline-model";
import SourceIncidents from "@/components/review/SourceIncidents";
import { useIncidentsQuery } from "@/components/review/useIncidents";
import type { Incident, IncidentQuery } from "@/lib/incidents";
import StreamHeader from "./StreamHeader";
import ReviewPanel from "@/components/shared/ReviewPanel";
import { laneWorst, resultFact } from "@/lib/stream-state";
import { DetectionBehind } from "../bits";
import PreviewPlayer, { type PreviewHandle } from "@/components/preview/PreviewPlayer";

/** The stream's incidents as spans on the strip (s since the stream started). */
function useIncidentSpans(requestId: string, startedAt: string): { spans: StripSpan[]; offsetOf: (i: Incident) => number } {
  // the same query as the Incidents panel below: one request, one cache entry
  const query: IncidentQuery = useMemo(() => ({ requestId, status: "all", limit: 1000 }), [requestId]);
  const list = useIncidentsQuery(query);
  const t0 = Date.parse(startedAt) / 1000;
  const offsetOf = (i: Incident) => (i.timeBase === "epoch" ? i.start - t0 : i.start);
  const spans = (list.data?.incidents ?? []).map((i) => ({ id: i.id, from: offsetOf(i), to: offsetOf(i) + (i.end - i.start), level: i.riskLevel === "REJECT" ? ("REJECT" as const) : ("REVIEW" as const), label: i.labelName }));
  return { spans, offsetOf };
}

function Timeline({ detail, preview, history }: { detail: StreamDetail; preview: { current: PreviewHandle | null }; history: HistoryState }) {
  const { stream, events } = detail;
  const { frames, audio, ends } = useMemo(() => lanes(events, stream.startedAt, detail.utcOffsetMin), [events, stream.startedAt, detail.utcOffsetMin]);
  // what each lane actually saw: the stream-end's riskLevel is the whole stream's (docs/api.md §3.5), not a lane's
  const worst = useMemo(() => laneWorst(events.flatMap((e) => (e.kind === "end" ? [] : [resultFact(e.kind, e.body)]))), [events]);
  const items = useMemo(() => timedItems(frames, audio), [frames, audio]);
  const ended = stream.endedAt ? (Date.parse(stream.endedAt) - Date.parse(stream.startedAt)) / 1000 : 0;
  const duration = useMemo(() => items.reduce((m, it) => Math.max(m, it.t + 1), Number.isFinite(ended) ? ended : 0), [items, ended]);
  const { spans, offsetOf } = useIncidentSpans(stream.requestId, stream.startedAt);
  const showFrames = stream.kind === "video" || frames.length > 0;
  const [seek, setSeek] = useState<SeekRequest | null>(null);
  const jump = (t: number) => {
    setSeek((s) => ({ t, n: (s?.n ?? 0) + 1 }));
    const i = nearestIndex(frames, t, (f) => (f.kind === "frame" ? f.detail.time : undefined));
    if (i >= 0) preview.current?.seekToEvent(frames[i].id);
  };
  // ?at=<Unix seconds> (an alert's Open): the frame captured then opens enlarged, and the lanes and preview go there
  const at = Number(useSearchParams().get("at") ?? NaN);
  const focusTime = Number.isFinite(at) ? at - Date.parse(stream.startedAt) / 1000 : null;
  const [atDone, setAtDone] = useState(false);
  useEffect(() => {
    if (atDone || focusTime === null || items.length === 0) return;
    setAtDone(true);
    jump(focusTime);
    // once, when the first results are there
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [atDone, focusTime, items.length]);
  return (
    <section data-testid="timeline" data-events={events.length} data-history={history.complete ? "complete" : history.loading ? "loading" : "partial"} className="space-y-3">
      <EndMarker ends={ends} stream={stream} worst={worst} />
      {!history.complete && (
        <p data-testid="history-note" className="text-xs text-zinc-500">
          {history.error ? `Older history could not be loaded (${history.error}): showing the newest ${events.length} results.` : `Loading older history… ${events.length} of about ${stream.frames + stream.segments} results so far.`}
        </p>
      )}
      <DetectionBehind stream={stream} />
      {items.length > 0 && <RiskStrip items={items} duration={duration} spans={spans} cursor={seek?.t ?? null} onSeek={jump} />}
      {showFrames && (
        <Panel title={`Frames (${frames.length})`}>
          <FrameLane frames={frames} focusTime={focusTime} seek={seek} review={{ targetKind: "stream", targetId: stream.requestId }} />
        </Panel>
      )}
      <Panel title={`Audio segments (${audio.length})`}>
        <AudioLane segments={audio} seek={seek} />
      </Panel>
      <SourceIncidents requestId={stream.requestId} kind="stream" onJump={(i) => jump(offsetOf(i))} />
    </section>
  );
}

function seekToCard(target: EventTarget, player: PreviewHandle | null) {
  const id = target instanceof Element ? target.closest("[data-testid=frame-event]")?.getAttribute("data-event-id") : null;
  if (id && player) player.seekToEvent(Number(id));
}

/** /streams/{requestId}: the stream's header and its live timeline (history + socket, merged by event id). */
export default function StreamPage({ requestId }: { requestId: string }) {
  const pollMs = useStreamLive(requestId);
  const query = useStreamQuery(requestId, pollMs);
  const history = useStreamHistory(requestId, query.data !== undefined);
  const preview = useRef<PreviewHandle | null>(null);

  if (query.isPending) return <p className="text-xs text-zinc-500">Loading stream…</p>;
  // A failed refetch keeps the data: the timeline stays, with a note.
  if (query.data === undefined) {
    const missing = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <div className="space-y-2">
        {missing ? <p data-testid="stream-missing" className="text-sm text-zinc-300">No stream {requestId} on this server.</p> : <ErrorNote prefix="Could not load the stream:" error={query.error} />}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <StreamHeader stream={query.data.stream} live={pollMs === false} />
      {query.isError && <ErrorNote prefix="Refresh failed, showing what was loaded:" error={query.error} />}
      {query.data.stream.kind === "video" && <PreviewPlayer requestId={requestId} running={query.data.stream.status === "running"} events={query.data.events} handle={preview} />}
      {/* a frame card also seeks the preview to its capture time (its lightbox opens as before) */}
      <div onClickCapture={(e) => seekToCard(e.target, preview.current)}>
        <Timeline detail={query.data} preview={preview} history={history} />
      </div>
      <ReviewPanel targetKind="stream" targetId={requestId} />
    </div>
  );
}
