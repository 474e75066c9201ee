"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import { useSocketRoom } from "@/components/hooks/useSocket";
import { INCIDENTS_ROOM } from "@/lib/events";
import { incidentQueryString, type Incident } from "@/lib/incidents";

/** Under "incidents", so whatever refreshes every incident query (the review page's rejoin) refreshes these too. */
const openCountKey = (requestId: string) => ["incidents", "open-count", requestId] as const;
const LIMIT = 1000;

/** Open incidents of one stream (GET /api/incidents?requestId=…&status=open); `capped`: there may be more. */
export function useOpenIncidentCount(requestId: string): { count: number; capped: boolean } | undefined {
  const query = useQuery({
    queryKey: openCountKey(requestId),
    queryFn: async ({ signal }) => {
      const r = await apiJson<{ incidents: Incident[] }>(`/api/incidents${incidentQueryString({ requestId, status: "open", kind: "stream", limit: LIMIT })}`, { signal });
      return { count: r.incidents.length, capped: r.incidents.length >= LIMIT };
    },
    staleTime: Infinity, // kept current by the incidents room (useOpenIncidentsLive)
  });
  return query.data;
}

/** The wall: every incident created, extended, merged or decided recounts its stream; a (re)join recounts all. */
export function useOpenIncidentsLive(): void {
  const client = useQueryClient();
  useSocketRoom(
    INCIDENTS_ROOM,
    "incident",
    (i) => {
      if (i.source.kind === "stream") void client.invalidateQueries({ queryKey: openCountKey(i.source.requestId), exact: true });
    },
    () => void client.invalidateQueries({ queryKey: ["incidents", "open-count"] }),
  );
}
