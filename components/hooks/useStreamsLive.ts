"use client";

import { useEffect, useState } from "react";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { StreamDetail, StreamEvent, StreamSummary } from "@/lib/dashboard-api";
import { STREAMS_ROOM, streamRoom } from "@/lib/events";
import { queryKeys } from "./queries/keys";
import { mergeEvents, newerSummary, upsertSummary } from "./queries/stream-cache";
import { dropHeldEvents, holdEvents, markResync } from "./queries/useStreamQuery";
import type { StreamsResponse } from "./queries/useStreamsQuery";
import { useSocketConnected, useSocketRoom } from "./useSocket";

/** Refetch cadence while live updates are unavailable (socket down or room refused). */
export const STREAM_FALLBACK_POLL_MS = 5_000;

/** One `stream:summary`: into the wall's list and, if cached, the stream page's header. */
function applySummary(client: QueryClient, s: StreamSummary): void {
  client.setQueryData<StreamsResponse>(queryKeys.streams, (old) =>
    old === undefined ? old : { ...old, streams: upsertSummary(old.streams, s) },
  );
  client.setQueryData<StreamDetail>(queryKeys.stream(s.requestId), (old) =>
    old === undefined ? old : { ...old, stream: newerSummary(old.stream, s) },
  );
}

/** Whether live updates for a room are flowing: connected and acknowledged by the server. */
function useRoomLive() {
  const connected = useSocketConnected();
  const [refused, setRefused] = useState(false);
  return { live: connected && !refused, setRefused };
}

/**
 * The wall: `stream:summary` from the "streams" room merged into the list; the list is refetched each
 * time the room is (re)joined, since summaries sent while disconnected are lost. Returns a poll
 * interval for the list query while live updates are down.
 */
export function useStreamsLive(): number | false {
  const client = useQueryClient();
  const { live, setRefused } = useRoomLive();
  useSocketRoom(
    STREAMS_ROOM,
    "stream:summary",
    (s) => applySummary(client, s),
    (ok) => {
      setRefused(!ok);
      void client.invalidateQueries({ queryKey: queryKeys.streams, exact: true });
    },
  );
  return live ? false : STREAM_FALLBACK_POLL_MS;
}

const belongsTo = (e: StreamEvent, requestId: string) => e.requestId === requestId || e.requestId.startsWith(`${requestId}_`);

/**
 * One stream's timeline: `stream:event` from its room appended by id, summaries from the wall's room
 * applied to the header. Each (re)join refetches the history, merged by id: no gap, no duplicate.
 * Events that arrive before the first fetch has landed are held and merged by that fetch.
 * Returns a poll interval for the stream query while live updates are down.
 */
export function useStreamLive(requestId: string): number | false {
  const client = useQueryClient();
  const { live, setRefused } = useRoomLive();
  const key = queryKeys.stream(requestId);

  useEffect(() => () => dropHeldEvents(requestId), [requestId]);

  useSocketRoom(
    streamRoom(requestId),
    "stream:event",
    (e) => {
      if (!belongsTo(e, requestId)) return;
      let cached = false;
      client.setQueryData<StreamDetail>(key, (old) => {
        if (old === undefined) return old;
        cached = true;
        return { ...old, events: mergeEvents(old.events, [e]) };
      });
      if (!cached) holdEvents(requestId, [e]);
      // The end event changes the summary (status, reason); fetch it rather than guess.
      if (e.kind === "end") {
        void client.invalidateQueries({ queryKey: key, exact: true });
        void client.invalidateQueries({ queryKey: queryKeys.streams, exact: true });
      }
    },
    (ok) => {
      setRefused(!ok);
      // Acks arrive in order with events: the cache holds no post-join event yet, so it is complete up to here.
      markResync(requestId, client.getQueryData<StreamDetail>(key)?.events.at(-1)?.id);
      void client.invalidateQueries({ queryKey: key, exact: true });
    },
  );
  useSocketRoom(STREAMS_ROOM, "stream:summary", (s) => {
    if (s.requestId === requestId) applySummary(client, s);
  });
  return live ? false : STREAM_FALLBACK_POLL_MS;
}
