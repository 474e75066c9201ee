"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import { useSocketRoom } from "@/components/hooks/useSocket";
import { INCIDENTS_ROOM } from "@/lib/events";
import type { IncidentContext } from "@/lib/incident-context";
import { incidentQueryString, type Incident, type IncidentDecision, type IncidentDetail, type IncidentQuery } from "@/lib/incidents";

export const incidentKeys = {
  all: ["incidents"] as const,
  list: (q: IncidentQuery) => ["incidents", "list", q] as const,
  one: (id: string) => ["incidents", "one", id] as const,
};

/** GET /api/incidents with the page's filters. */
export function useIncidentsQuery(q: IncidentQuery) {
  return useQuery({
    queryKey: incidentKeys.list(q),
    queryFn: ({ signal }) => apiJson<{ incidents: Incident[] }>(`/api/incidents${incidentQueryString(q)}`, { signal }),
    placeholderData: (prev) => prev,
  });
}

/** GET /api/incidents/<id>: every hit and every decision. */
export function useIncidentQuery(id: string | null) {
  return useQuery({
    queryKey: incidentKeys.one(id ?? ""),
    queryFn: ({ signal }) => apiJson<{ incident: IncidentDetail; context: IncidentContext | null }>(`/api/incidents/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** Live: every `incident` event (created, extended, decided, assigned) refreshes the lists and that incident. */
export function useIncidentsLive(): void {
  const client = useQueryClient();
  useSocketRoom(
    INCIDENTS_ROOM,
    "incident",
    (i) => {
      void client.invalidateQueries({ queryKey: ["incidents", "list"] });
      void client.invalidateQueries({ queryKey: incidentKeys.one(i.id), exact: true });
      // an open detail whose history lists it (same source, same end user) shows its new decision too
      for (const [key, data] of client.getQueriesData<{ incident?: Incident; context?: IncidentContext | null }>({ queryKey: ["incidents", "one"] })) {
        const c = data?.context;
        const related = data?.incident?.source.requestId === i.source.requestId || c?.sameUser.some((x) => (x.type === "incident" ? x.id === i.id : x.requestId === i.source.requestId));
        if (c && related) void client.invalidateQueries({ queryKey: key, exact: true });
      }
    },
    () => void client.invalidateQueries({ queryKey: incidentKeys.all }),
  );
}

/** Puts changed incidents into every cached list at once (a list filtered by status drops the ones that left it). */
function applyChanged(client: QueryClient, changed: Incident[]) {
  const byId = new Map(changed.map((i) => [i.id, i]));
  for (const [key, data] of client.getQueriesData<{ incidents: Incident[] }>({ queryKey: ["incidents", "list"] })) {
    if (!data) continue;
    const q = key[2] as IncidentQuery;
    const incidents = data.incidents
      .map((i) => byId.get(i.id) ?? i)
      .filter((i) => !byId.has(i.id) || !q.status || q.status === "all" || i.status === q.status)
      .filter((i) => !byId.has(i.id) || !q.assignee || q.assignee === "me" || (q.assignee === "none" ? i.assignee === null : i.assignee === q.assignee));
    client.setQueryData(key, { incidents });
  }
  for (const i of changed) void client.invalidateQueries({ queryKey: incidentKeys.one(i.id), exact: true });
  void client.invalidateQueries({ queryKey: ["incidents", "list"] });
}

export function useDecide() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { ids: string[]; decision: IncidentDecision; note: string }) =>
      v.ids.length === 1
        ? apiJson<{ incident: Incident }>(`/api/incidents/${v.ids[0]}/decision`, { method: "POST", body: { decision: v.decision, note: v.note || null } }).then((r) => [r.incident])
        : apiJson<{ incidents: Incident[] }>("/api/incidents/decisions", { method: "POST", body: { ids: v.ids, decision: v.decision, note: v.note || null } }).then((r) => r.incidents),
    onSuccess: (changed) => applyChanged(client, changed),
  });
}

export function useAssign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; assignee?: string | null }) => apiJson<{ incident: Incident }>(`/api/incidents/${v.id}/assign`, { method: "POST", body: v.assignee === undefined ? {} : { assignee: v.assignee } }),
    onSuccess: (r) => applyChanged(client, [r.incident]),
  });
}
