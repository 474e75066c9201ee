"use client";

import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { StreamEvent } from "@/lib/dashboard-api";
import Panel from "@/components/ui/Panel";
import ClipList from "./ClipList";
import { dateOf, datedSpan, frameMarks, isHit, mediaTimeOf } from "./marks";
import SeekBar from "./SeekBar";
import { useHls } from "./useHls";
import { isLivePreview, rejectCount } from "./player-state";
import { usePreviewQuery } from "./usePreviewQuery";
import SafeMedia from "@/components/wellness/SafeMedia";

const PENDING_SEEK_MS = 20_000;

/** What the stream page may ask of the player: show the moment a frame was captured. */
export interface PreviewHandle {
  seekToEvent(eventId: number): boolean;
}

/**
 * The stream's live preview (HLS from /api/preview, signed links) near the live edge, a seek bar over the
 * retained minutes with the hits marked, and the evidence clips. `handle` lets frame cards seek it.
 */
export default function PreviewPlayer({ requestId, running, events, handle }: { requestId: string; running: boolean; events: readonly StreamEvent[]; handle?: RefObject<PreviewHandle | null> }) {
  const info = usePreviewQuery(requestId, running);
  const playlistUrl = info.data?.playlistUrl ?? null;
  const latestUrl = useRef<string | null>(null);
  useEffect(() => {
    if (playlistUrl) latestUrl.current = playlistUrl;
  }, [playlistUrl]);
  const video = useRef<HTMLVideoElement | null>(null);
  const { hls, frags, state, error } = useHls(video, playlistUrl, latestUrl);
  const utcOffsetMin = info.data?.utcOffsetMin ?? 0;
  const marks = useMemo(() => frameMarks(events, utcOffsetMin), [events, utcOffsetMin]);
  const hits = useMemo(() => marks.filter(isHit), [marks]);
  const span = useMemo(() => datedSpan(frags), [frags]);
  const [playingAt, setPlayingAt] = useState<number | null>(null);
  const [behindMs, setBehindMs] = useState<number | null>(null);
  const [note, setNote] = useState<string | null>(null);

  // playhead and distance from live, from the video's own clock
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    const update = () => {
      const at = dateOf(frags, el.currentTime);
      setPlayingAt(at);
      setBehindMs(at === null ? null : Math.max(0, Date.now() - at));
    };
    el.addEventListener("timeupdate", update);
    return () => el.removeEventListener("timeupdate", update);
  }, [frags]);

  // a moment newer than what the player has loaded: sought again as the playlist grows (for PENDING_SEEK_MS)
  const pending = useRef<{ atMs: number; until: number } | null>(null);
  const seekTo = (atMs: number): boolean => {
    const el = video.current;
    const t = mediaTimeOf(frags, atMs);
    if (!el || t === null) {
      const clock = new Date(atMs).toLocaleTimeString(undefined, { hour12: false });
      pending.current = null;
      if (!isLivePreview(running, info.data?.live) && span !== null && atMs >= span.endMs) setNote(`${clock} is after the end of the preview recording`);
      else if (span === null || atMs >= span.endMs) {
        pending.current = { atMs, until: Date.now() + PENDING_SEEK_MS };
        setNote(`${clock} is not loaded in the preview yet: it jumps there as soon as it is`);
        // a playlist that stops growing would never run the effect below: the wait ends on its own too
        setTimeout(() => {
          if (pending.current?.atMs !== atMs) return;
          pending.current = null;
          setNote(`${clock} never reached the preview (its recording may have stopped)`);
        }, PENDING_SEEK_MS + 500);
      } else setNote(`${clock} is older than the preview keeps (the last ${info.data?.retentionMin ?? "?"} min)`);
      return false;
    }
    pending.current = null;
    setNote(null);
    el.currentTime = t;
    void el.play().catch(() => undefined);
    return true;
  };
  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    if (Date.now() > p.until) {
      pending.current = null;
      setNote(`${new Date(p.atMs).toLocaleTimeString(undefined, { hour12: false })} never reached the preview (its recording may have stopped)`);
    } else if (mediaTimeOf(frags, p.atMs) !== null) seekTo(p.atMs);
    // only when the loaded fragments change; seekTo reads them
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [frags]);
  // the stream just ended: fetch the preview's final state now (clips, live: false), not in ten minutes
  const { refetch } = info;
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void refetch();
    wasRunning.current = running;
  }, [running, refetch]);
  const goLive = () => {
    const el = video.current;
    const edge = hls.current?.liveSyncPosition;
    if (el && typeof edge === "number") el.currentTime = edge;
  };

  useEffect(() => {
    if (!handle) return;
    handle.current = {
      seekToEvent: (eventId) => {
        const m = marks.find((x) => x.eventId === eventId);
        return m ? seekTo(m.atMs) : false;
      },
    };
  });

  const data = info.data;
  const live = isLivePreview(running, data?.live);
  const atLive = behindMs !== null && behindMs < 8000;
  return (
    <Panel
      title="Live preview"
      actions={
        <div className="flex items-center gap-3 text-[11px]">
          {behindMs !== null && (
            <span data-testid="preview-latency" className={`tabular-nums ${atLive ? "text-zinc-400" : "text-risk-review"}`} title="Wall-clock time minus the capture time of what is playing">
              {live ? `${(behindMs / 1000).toFixed(1)} s behind live` : "recording"}
            </span>
          )}
          {live && state === "playing" && (
            <button type="button" onClick={goLive} className="rounded border border-surface-line px-2 py-0.5 text-zinc-300 hover:border-zinc-500">
              Go live
            </button>
          )}
        </div>
      }
    >
      <div data-testid="preview-player" data-state={data && !data.available ? "unavailable" : state} data-latency-ms={behindMs ?? ""} data-playing-at={playingAt ?? ""} className="space-y-2 p-3">
        {info.isError && <p className="text-xs text-red-300">Preview unavailable: {(info.error as Error).message}</p>}
        {data && !data.available && <p className="text-xs text-zinc-500">No preview yet: {data.reason}</p>}
        {playlistUrl && (
          <SafeMedia className="block w-full max-w-3xl rounded" label="live preview">
            <video ref={video} data-testid="preview-video" muted autoPlay playsInline controls className="aspect-video w-full rounded bg-black" />
          </SafeMedia>
        )}
        {error && <p className="text-xs text-red-300">Player: {error}</p>}
        {span && <SeekBar span={span} marks={hits} playingAt={playingAt} onSeek={seekTo} />}
        {note && (
          <p data-testid="preview-note" className="text-xs text-risk-review">
            {note}
          </p>
        )}
        {data && <ClipList requestId={requestId} clips={data.clips} beforeSec={data.clipBeforeSec} afterSec={data.clipAfterSec} rejectFrames={rejectCount(marks)} running={live} />}
      </div>
    </Panel>
  );
}
