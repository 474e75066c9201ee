// Where a live stream is: the numbers, capture times and stream time its state keeps (saved with it, so a task that
// resumes or takes a handed-over stream continues them).
import type { LiveFrame, LiveSegment } from "../ingest/live";
import type { StreamState } from "../store/schema";

export interface CapturedBy {
  /** adopted from a bridge pull (stream-adopt.ts): its stream time counts from the newest one taken */
  bridged: boolean;
  /** the stream time the task's current pull started at */
  pullBase: number;
}

export function advanceByFrame(state: StreamState, f: LiveFrame, { bridged, pullBase }: CapturedBy): void {
  state.nextFrameIndex = Math.max(state.nextFrameIndex, f.index + 1);
  state.gotFrame = true;
  const at = f.capturedAt.getTime();
  if (bridged) state.streamTimeSec += Math.max(0, (at - (state.lastFrameAt ?? at)) / 1000);
  else state.streamTimeSec = Math.max(state.streamTimeSec, pullBase + f.streamTimeSec);
  state.lastFrameAt = Math.max(state.lastFrameAt ?? 0, at);
}

/** `timed`: the segments are the stream's clock (audio streams; a video stream's time is its frames'). */
export function advanceBySegment(state: StreamState, s: LiveSegment, { bridged, pullBase }: CapturedBy, timed: boolean): void {
  state.nextSegmentIndex = Math.max(state.nextSegmentIndex, s.index + 1);
  const end = s.endedAt.getTime();
  if (timed) {
    if (bridged) state.streamTimeSec += Math.max(0, Math.min(s.endSec - s.startSec, (end - (state.lastSegmentEndAt ?? end)) / 1000));
    else state.streamTimeSec = Math.max(state.streamTimeSec, pullBase + s.endSec);
  }
  state.lastSegmentEndAt = Math.max(state.lastSegmentEndAt ?? 0, end);
}
