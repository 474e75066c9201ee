"use client";

import { useMemo, useRef } from "react";
import { useSearchParams } from "next/navigation";
import type { StreamDetail } from "@/lib/dashboard-api";
import { ApiRequestError } from "@/components/api/http";
import { useStreamQuery } from "@/components/hooks/queries/useStreamQuery";
import { useStreamLive } from "@/components/hooks/useStreamsLive";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import AudioLane from "./AudioLane";
import EndMarker from "./EndMarker";
import { lanes } from "./event-view";
import FrameLane from "./FrameLane";
import StreamHeader from "./StreamHeader";
import ReviewPanel from "@/components/shared/ReviewPanel";
import { laneWorst, resultFact } from "@/lib/stream-state";
import { DetectionBehind } from "../bits";
import PreviewPlayer, { type PreviewHandle } from "@/components/preview/PreviewPlayer";

function Timeline({ detail }: { detail: StreamDetail }) {
  const { stream, events } = detail;
  const { frames, audio, ends } = useMemo(() => lanes(events, stream.startedAt), [events, stream.startedAt]);
  // what each lane actually saw: the stream-end's riskLevel is the whole stream's (CONTRACT §3.5), not a lane's
  const worst = useMemo(() => laneWorst(events.flatMap((e) => (e.kind === "end" ? [] : [resultFact(e.kind, e.body)]))), [events]);
  const showFrames = stream.kind === "video" || frames.length > 0;
  // ?at=<Unix seconds> (an alert's Open): the frame captured then opens enlarged
  const at = Number(useSearchParams().get("at") ?? NaN);
  const focusTime = Number.isFinite(at) ? at - Date.parse(stream.startedAt) / 1000 : null;
  return (
    <section data-testid="timeline" data-events={events.length} className="space-y-3">
      <EndMarker ends={ends} stream={stream} worst={worst} />
      <DetectionBehind stream={stream} />
      {showFrames && (
        <Panel title={`Frames (${frames.length})`}>
          <FrameLane frames={frames} focusTime={focusTime} />
        </Panel>
      )}
      <Panel title={`Audio segments (${audio.length})`}>
        <AudioLane segments={audio} />
      </Panel>
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
        <Timeline detail={query.data} />
      </div>
      <ReviewPanel targetKind="stream" targetId={requestId} />
    </div>
  );
}
