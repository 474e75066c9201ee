"use client";

import { useState } from "react";
import { useNow } from "@/components/hooks/useNow";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { STREAMS_ROOM, streamRoom } from "@/lib/events";
import { markUnreported, type StreamHealthEvent, type StreamHealthReport, type StreamHealthSnapshot, type StreamHealthUpdate } from "@/lib/stream-health";
import { apiJson, ApiRequestError } from "@/components/api/http";
import { useSocketConnected, useSocketRoom } from "@/components/hooks/useSocket";

const healthKey = (requestId: string) => ["stream-health", requestId] as const;
const POLL_MS = 5_000;

function mergeEvents(old: StreamHealthEvent[], add: StreamHealthEvent[]): StreamHealthEvent[] {
  const byId = new Map(old.map((e) => [e.id, e]));
  for (const e of add) if (e.id > 0) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** A newer update replaces the snapshot; its event joins the list (by id). */
export function applyHealthUpdate(old: StreamHealthReport | undefined, u: StreamHealthUpdate): StreamHealthReport | undefined {
  if (old === undefined) return old;
  const newer = !old.snapshot || Date.parse(u.snapshot.at) >= Date.parse(old.snapshot.at);
  return { snapshot: newer ? u.snapshot : old.snapshot, live: true, events: u.event ? mergeEvents(old.events, [u.event]) : old.events };
}

/**
 * GET /api/streams/<id>/health, kept current by `stream:health` from the stream's room (refetched at every
 * (re)join; polled while the socket is down). `unavailable`: a remote service, which has no health API.
 */
export function useStreamHealth(requestId: string, running: boolean) {
  const client = useQueryClient();
  const connected = useSocketConnected();
  const key = healthKey(requestId);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiJson<StreamHealthReport>(`/api/streams/${encodeURIComponent(requestId)}/health`, { signal }),
    retry: (n, err) => !(err instanceof ApiRequestError && (err.status === 501 || err.status === 404)) && n < 2,
    refetchInterval: running && !connected ? POLL_MS : false,
  });
  useSocketRoom(
    streamRoom(requestId),
    "stream:health",
    (u) => {
      if (u.snapshot.requestId === requestId) client.setQueryData<StreamHealthReport>(key, (old) => applyHealthUpdate(old, u));
    },
    () => void client.invalidateQueries({ queryKey: key, exact: true }),
  );
  const unavailable = query.error instanceof ApiRequestError && query.error.status === 501;
  // a snapshot not renewed for a while is marked, not shown as current (a stored one, `live: false`, as any other:
  // in scaled mode a node's answer is always the stored one, and the worker's live snapshots follow within 2 s)
  const now = useNow();
  const data = query.data;
  const report = data?.snapshot && running ? { ...data, snapshot: markUnreported(data.snapshot, query.dataUpdatedAt, now) } : data;
  return { report, error: unavailable ? null : query.error, unavailable };
}

/**
 * The wall: the newest snapshot of one stream from `stream:health` in the streams room (no fetch per card),
 * marked unreported once none has come for HEALTH_UNREPORTED_MS.
 */
export function useLiveHealth(requestId: string): StreamHealthSnapshot | null {
  const [latest, setLatest] = useState<{ snapshot: StreamHealthSnapshot; receivedAt: number } | null>(null);
  useSocketRoom(STREAMS_ROOM, "stream:health", (u) => {
    if (u.snapshot.requestId === requestId) setLatest((old) => (old && Date.parse(old.snapshot.at) > Date.parse(u.snapshot.at) ? old : { snapshot: u.snapshot, receivedAt: Date.now() }));
  });
  const now = useNow();
  return latest && markUnreported(latest.snapshot, latest.receivedAt, now);
}
