// A dashboard stream's row and what it shows (the wall summary), shared by the receiver, the window counts and the API-task mirror.
import type { ModerationClient } from "../../lib/client";
import type { RiskLevel, StreamEvent, StreamSummary } from "../../lib/dashboard-api";
import type { FrameWindow } from "../../lib/stream-state";
import type { Db } from "../store/db";
import type { dashboardStreams } from "../store/schema";

export type StreamRow = typeof dashboardStreams.$inferSelect;

/** `lastMinute`: frame results of the last minute (stream-window.ts counts them; zero when not counted). */
export function toSummary(r: StreamRow, lastMinute: FrameWindow = { frames: 0, notChecked: 0 }): StreamSummary {
  return {
    requestId: r.requestId,
    kind: r.kind,
    url: r.url,
    title: r.title,
    status: r.status,
    currentRisk: (r.currentRisk as RiskLevel | null) ?? null,
    worstRisk: (r.worstRisk as RiskLevel | null) ?? null,
    lastResultAt: r.lastResultAt?.toISOString() ?? null,
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
    endErrorCode: r.endErrorCode,
    endReason: r.endReason,
    frames: r.frames,
    segments: r.segments,
    framesChecked: r.framesChecked,
    framesNotChecked: r.framesNotChecked,
    framesLastMinute: lastMinute.frames,
    notCheckedLastMinute: lastMinute.notChecked,
    detectStep: r.detectStep,
    origin: r.origin,
    keyName: r.keyName,
    lastFrameUrl: r.lastFrameUrl ?? null,
  };
}

export type StartAnswer = { ok: true; requestId: string } | { ok: false; error: string; code?: number; dupRequestId?: string };

export interface StreamsDeps {
  db: Db;
  client: ModerationClient;
  serviceBaseUrl: string;
  receiverOrigin: string;
  publishEvent: (e: StreamEvent) => void;
  publishSummary: (s: StreamSummary) => void;
  /** Secret the service signs callbacks with (receivers then refuse unsigned ones); null = URL token only. */
  signingSecret?: string | null;
  /** the service runs in this process: its local time (imgTime) is this process's */
  embedded?: boolean;
}
