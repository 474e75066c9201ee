"use client";

import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { useHls } from "./useHls";
import { usePreviewQuery } from "./usePreviewQuery";

/** True while `el` is at least partly on screen (a wall of 16 cards plays only the ones in view). */
function useInView(el: RefObject<HTMLElement | null>): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const node = el.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver(([entry]) => setInView(entry.isIntersecting), { threshold: 0.1 });
    io.observe(node);
    return () => io.disconnect();
  }, [el]);
  return inView;
}

/**
 * A wall card's live preview: muted, small, playing only while the card is in view (the player is torn down when it
 * scrolls away); until it plays, and when the stream has no preview, `fallback` (the latest captured frame) shows.
 * The wall's "Live previews" switch (useWallPreviews) turns them all off.
 */
export default function CardPreview({ requestId, label, fallback }: { requestId: string; label: string; fallback: ReactNode }) {
  const box = useRef<HTMLDivElement | null>(null);
  const inView = useInView(box);
  const info = usePreviewQuery(requestId, true, inView);
  const playlistUrl = inView && info.data?.available ? info.data.playlistUrl : null;
  const latestUrl = useRef<string | null>(null);
  useEffect(() => {
    if (playlistUrl) latestUrl.current = playlistUrl;
  }, [playlistUrl]);
  const video = useRef<HTMLVideoElement | null>(null);
  const { state } = useHls(video, playlistUrl, latestUrl);
  const playing = playlistUrl !== null && state === "playing";
  return (
    <div ref={box} className="relative h-full w-full" data-testid="card-preview" data-state={playlistUrl === null ? "off" : state}>
      {/* while the preview plays the still is not fetched again and again underneath it */}
      {!playing && fallback}
      <video
        ref={video}
        data-testid="card-preview-video"
        muted
        playsInline
        autoPlay
        aria-label={`live preview of ${label} (muted)`}
        className={`absolute inset-0 h-full w-full bg-black object-contain ${playing ? "" : "invisible"}`}
      />
    </div>
  );
}
