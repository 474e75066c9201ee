"use client";

import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";

export interface DemoInfo {
  /** where users can push their own stream (OBS/ffmpeg); null when the server runs no ingest */
  rtmpIngestUrl: string | null;
  /** WHIP publish URL (OBS 30+: Service "WHIP"); null when the ingest has no WHIP endpoint */
  whipIngestUrl?: string | null;
  /** the ingest's WHEP playback of a WHIP publish (moderated with streamType WEBRTC); null without WHIP */
  whepPlayUrl?: string | null;
  sampleRunning: boolean;
  /** a font the sample's ad needs is missing here: what it shows instead and how to install it */
  fontNote?: string | null;
}

/** GET /api/demo: the sample stream's state and the RTMP ingest address. */
export function useDemoQuery() {
  return useQuery({
    queryKey: queryKeys.demo,
    queryFn: ({ signal }) => apiJson<DemoInfo>("/api/demo", { signal }),
    staleTime: 10_000,
  });
}
