"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import { useSocketRoom } from "@/components/hooks/useSocket";
import { INCIDENTS_ROOM } from "@/lib/events";
import type { IncidentDetail } from "@/lib/incidents";
import type { IncidentQueueInfo, Queue, QueueInput, QueuePatch } from "@/lib/queues";

export const queueKeys = { all: ["queues"] as const };
export type ClaimedIncident = IncidentDetail & IncidentQueueInfo;

/** GET /api/queues: every queue in routing order with its counts. */
export function useQueuesQuery() {
  return useQuery({ queryKey: queueKeys.all, queryFn: ({ signal }) => apiJson<{ queues: Queue[] }>("/api/queues", { signal }) });
}

/** Live: `queues` events carry every queue's counts (merged in place); a change of the queues themselves refetches. */
export function useQueuesLive(): void {
  const client = useQueryClient();
  useSocketRoom(
    INCIDENTS_ROOM,
    "queues",
    (e) => {
      if (e.definitions) return void client.invalidateQueries({ queryKey: queueKeys.all });
      client.setQueryData<{ queues: Queue[] }>(queueKeys.all, (d) => d && { queues: d.queues.map((q) => ({ ...q, counts: e.counts[q.id] ?? { open: 0, claimed: 0, oldestOpenAt: null } })) });
    },
    () => void client.invalidateQueries({ queryKey: queueKeys.all }),
  );
}

export function useSaveQueue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string | null; body: QueueInput | QueuePatch }) =>
      v.id ? apiJson<{ queue: Queue }>(`/api/queues/${v.id}`, { method: "PATCH", body: v.body }) : apiJson<{ queue: Queue }>("/api/queues", { method: "POST", body: v.body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queueKeys.all }),
  });
}

export function useDeleteQueue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<{ deleted: string }>(`/api/queues/${id}`, { method: "DELETE" }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queueKeys.all }),
  });
}

export const nextInQueue = (queueId: string, skip: string[]) => apiJson<{ incident: ClaimedIncident | null }>(`/api/queues/${queueId}/next`, { method: "POST", body: { skip } });
export const renewClaim = (id: string) => apiJson<{ claimExpiresAt: string }>(`/api/incidents/${id}/claim`, { method: "POST", body: { renew: true } });
export const releaseClaim = (id: string) => apiJson<{ released: boolean }>(`/api/incidents/${id}/release`, { method: "POST", body: {} });
