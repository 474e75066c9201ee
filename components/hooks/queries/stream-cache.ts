// Pure merge rules for the stream caches: events are unique by their monotonic id, summaries never go back in time.
import type { StreamDetail, StreamEvent, StreamSummary } from "@/lib/dashboard-api";

/** Union of two id-sorted event lists, sorted by id, one entry per id (the later copy wins). */
export function mergeEvents(current: readonly StreamEvent[], incoming: readonly StreamEvent[]): StreamEvent[] {
  if (incoming.length === 0) return current as StreamEvent[];
  const last = current.length > 0 ? current[current.length - 1].id : -Infinity;
  // Fast path for the live case: every new event is newer than everything held.
  if (incoming.every((e, i) => e.id > last && (i === 0 || e.id > incoming[i - 1].id))) return [...current, ...incoming];
  const byId = new Map<number, StreamEvent>();
  for (const e of current) byId.set(e.id, e);
  for (const e of incoming) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * Which of two summaries of one stream to keep: "ended" is final, and a copy that counts fewer results
 * is an older snapshot (a slow list fetch racing a live update).
 */
export function newerSummary(held: StreamSummary | undefined, incoming: StreamSummary): StreamSummary {
  if (held === undefined) return incoming;
  if (held.status === "ended" && incoming.status === "running") return held;
  if (held.status === incoming.status && (incoming.frames < held.frames || incoming.segments < held.segments)) return held;
  return incoming;
}

/** Insert or replace one summary in a list, keeping the newest state. */
export function upsertSummary(list: readonly StreamSummary[], s: StreamSummary): StreamSummary[] {
  const i = list.findIndex((x) => x.requestId === s.requestId);
  if (i === -1) return [s, ...list];
  const kept = newerSummary(list[i], s);
  if (kept === list[i]) return list as StreamSummary[];
  return list.map((x, j) => (j === i ? kept : x));
}

/** A fetched detail merged into what the cache already holds, so a refetch never drops a live event. */
export function mergeDetail(held: StreamDetail | undefined, fetched: StreamDetail): StreamDetail {
  const utcOffsetMin = fetched.utcOffsetMin ?? held?.utcOffsetMin;
  if (held === undefined) return { stream: fetched.stream, utcOffsetMin, events: mergeEvents([], [...fetched.events].sort((a, b) => a.id - b.id)) };
  return {
    stream: newerSummary(held.stream, fetched.stream),
    utcOffsetMin,
    events: mergeEvents(held.events, [...fetched.events].sort((a, b) => a.id - b.id)),
  };
}
