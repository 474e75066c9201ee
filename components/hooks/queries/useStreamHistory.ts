"use client";

import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { StreamDetail, StreamEvent } from "@/lib/dashboard-api";
import { apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";
import { mergeEvents } from "./stream-cache";

/** Events per older page: the first fetch brings the newest 500 fast, the rest of a long stream follows in big pages. */
const PAGE = 5000;
const MERGE_EVERY = 25_000;

export interface HistoryState {
  /** older pages still being fetched */
  loading: boolean;
  /** every event of the stream is in the cache */
  complete: boolean;
  error: string | null;
}

/**
 * A long stream's older history: once the first page is cached, fetches `?before=<oldest id>` pages until none is
 * older, merging each into the same cache entry the live events go to (merge by id: nothing doubled or lost).
 */
export function useStreamHistory(requestId: string, firstLoaded: boolean): HistoryState {
  const client = useQueryClient();
  const [state, setState] = useState<HistoryState>({ loading: false, complete: false, error: null });
  useEffect(() => {
    if (!firstLoaded) return;
    const key = queryKeys.stream(requestId);
    const abort = new AbortController();
    void (async () => {
      setState({ loading: true, complete: false, error: null });
      try {
        // pages are merged in batches: every merge re-renders the whole timeline, so not one per page
        let pending: StreamEvent[] = [];
        const flush = () => {
          const older = pending;
          pending = [];
          if (older.length) client.setQueryData<StreamDetail>(key, (held) => (held ? { ...held, events: mergeEvents(older, held.events) } : held));
        };
        let oldest = client.getQueryData<StreamDetail>(key)?.events[0]?.id;
        while (oldest !== undefined) {
          const page = await apiJson<StreamDetail & { hasOlder: boolean }>(`/api/streams/${encodeURIComponent(requestId)}?before=${oldest}&limit=${PAGE}`, { signal: abort.signal });
          pending = [...page.events, ...pending];
          if (pending.length >= MERGE_EVERY) flush();
          if (!page.hasOlder || page.events.length === 0) break;
          oldest = page.events[0].id;
        }
        flush();
        setState({ loading: false, complete: true, error: null });
      } catch (err) {
        if (!abort.signal.aborted) setState({ loading: false, complete: false, error: (err as Error).message });
      }
    })();
    return () => abort.abort();
  }, [client, requestId, firstLoaded]);
  return state;
}
