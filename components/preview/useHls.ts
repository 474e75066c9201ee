"use client";

import { useEffect, useRef, useState, type RefObject } from "react";
import type Hls from "hls.js";
import type { DatedFragment } from "./marks";

export type PlayerState = "idle" | "loading" | "playing" | "error";

/**
 * Plays `playlistUrl` in `video` with hls.js (loaded on demand), close to the live edge: one target duration
 * behind it, catching up at up to 1.5× after a stall. `latestUrl` holds the newest signed playlist link: every
 * reload uses it, so the player outlives one link's expiry. Returns the fragments (dated) of the newest reload.
 */
export function useHls(video: RefObject<HTMLVideoElement | null>, playlistUrl: string | null, latestUrl: RefObject<string | null>) {
  const hlsRef = useRef<Hls | null>(null);
  const [frags, setFrags] = useState<DatedFragment[]>([]);
  const [state, setState] = useState<PlayerState>("idle");
  const [error, setError] = useState<string | null>(null);
  const started = playlistUrl !== null;

  useEffect(() => {
    const el = video.current;
    if (!started || !el) return;
    let hls: Hls | null = null;
    let cancelled = false;
    setState("loading");
    void import("hls.js").then(({ default: HlsClass }) => {
      if (cancelled) return;
      if (!HlsClass.isSupported()) {
        setState("error");
        setError("this browser cannot play HLS with Media Source Extensions");
        return;
      }
      hls = new HlsClass({
        liveSyncDurationCount: 1, // until the first playlist: then one segment + 0.5 s (LEVEL_UPDATED)
        // no liveMaxLatencyDuration: it would pull a viewer who scrubbed back in the history to the live edge
        maxLiveSyncPlaybackRate: 1.5,
        backBufferLength: 120,
        xhrSetup: (xhr, url) => {
          // the playlist link is re-signed by every /api/preview fetch (keeping hls.js's _HLS_msn blocking-reload
          // parameters); segment links come signed in the playlist
          if (!/\/index\.m3u8\?/.test(url) || !latestUrl.current) return;
          const fresh = new URL(latestUrl.current, window.location.href);
          for (const [k, v] of new URL(url, window.location.href).searchParams) if (k.startsWith("_HLS_")) fresh.searchParams.set(k, v);
          xhr.open("GET", fresh.toString(), true);
        },
      });
      hlsRef.current = hls;
      const { Events, ErrorTypes } = HlsClass;
      hls.on(Events.LEVEL_UPDATED, (_e, data) => {
        const fragments = data.details.fragments;
        setFrags(fragments.map((f) => ({ start: f.start, duration: f.duration, programDateTime: f.programDateTime })));
        // aim one real segment (+ time to fetch it) behind the edge: TARGETDURATION rounds 2.1 s segments up to 3 s
        if (hls && data.details.live) hls.config.liveSyncDuration = Math.max(...fragments.slice(-4).map((f) => f.duration), 1) + 0.5;
      });
      let snapped = false;
      hls.on(Events.FRAG_BUFFERED, () => {
        setState("playing");
        // a slow start (page load, a busy machine) leaves it far behind: begin at the live edge, not catching up at 1.5×
        const edge = hls?.liveSyncPosition;
        const target = hls?.targetLatency;
        if (!snapped && hls && typeof edge === "number" && typeof target === "number" && hls.latency > target + 2 && el.currentTime < edge) el.currentTime = edge;
        snapped = true;
      });
      hls.on(Events.ERROR, (_e, data) => {
        if (!data.fatal) return;
        if (data.type === ErrorTypes.MEDIA_ERROR) return void hls?.recoverMediaError();
        if (data.type === ErrorTypes.NETWORK_ERROR) return void hls?.startLoad();
        setState("error");
        setError(`${data.type}: ${data.details}`);
      });
      hls.loadSource(latestUrl.current ?? (playlistUrl as string));
      hls.attachMedia(el);
      void el.play().catch(() => undefined); // muted autoplay; a browser that refuses waits for the play button
    });
    return () => {
      cancelled = true;
      hls?.destroy();
      hlsRef.current = null;
    };
    // one player per mounted video: a re-signed link is picked up through latestUrl, not by rebuilding
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [started, video]);

  return { hls: hlsRef, frags, state, error };
}
