"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { StreamStartInput } from "@/lib/dashboard-api";
import { ApiRequestError, apiFetch, apiJson } from "@/components/api/http";
import { queryKeys } from "./keys";

/** Service code for "this stream is already being moderated" (docs/api.md §1.4). */
export const DUPLICATE_STREAM = 1001;

/** A rejected start; on a duplicate, `dupRequestId` names the stream already running. */
export class StreamStartError extends ApiRequestError {
  constructor(
    message: string,
    status: number,
    code: number | undefined,
    readonly dupRequestId: string | undefined,
  ) {
    super(message, status, code);
    this.name = "StreamStartError";
  }
}

export interface StreamStarted {
  requestId: string;
}

type StartBody = { requestId?: unknown; error?: unknown; code?: unknown; dupRequestId?: unknown };

/** POST /api/streams; the ApiError body may carry `dupRequestId`, which apiJson would drop. */
async function startStream(input: StreamStartInput): Promise<StreamStarted> {
  const res = await apiFetch("/api/streams", {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  const text = await res.text();
  let body: StartBody | null = null;
  try {
    body = text === "" ? null : (JSON.parse(text) as StartBody);
  } catch {
    body = null;
  }
  if (res.ok && body !== null && typeof body.requestId === "string" && body.error === undefined) return { requestId: body.requestId };
  const message = typeof body?.error === "string" ? body.error : `HTTP ${res.status}${text && text.length < 200 ? `: ${text}` : ""}`;
  const code = typeof body?.code === "number" ? body.code : undefined;
  const dup = typeof body?.dupRequestId === "string" ? body.dupRequestId : undefined;
  throw new StreamStartError(message, res.status, code, dup);
}

/** Start moderating a stream; the wall's list is refreshed so the card shows at once. */
export function useStartStreamMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startStream,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.streams, exact: true }),
  });
}

/** POST /api/demo/start: starts (or finds) the sample stream. */
export function useStartSampleMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<StreamStarted>("/api/demo/start", { method: "POST", body: {} }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.demo, exact: true });
      void client.invalidateQueries({ queryKey: queryKeys.streams, exact: true });
    },
  });
}

/** POST /api/streams/{requestId}/close; the end itself arrives live (summary + stream-end event). */
export function useCloseStreamMutation(requestId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<{ ok: true }>(`/api/streams/${encodeURIComponent(requestId)}/close`, { method: "POST", body: {} }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.streams, exact: true });
      void client.invalidateQueries({ queryKey: queryKeys.stream(requestId), exact: true });
    },
  });
}
