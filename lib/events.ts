// Socket.io event map shared by the hub (server) and the dashboard (browser).
import type { RuleHit } from "./rules";
import type { RiskLevel, StreamEvent, StreamSummary } from "./dashboard-api";
import type { Incident } from "./incidents";
import type { QueueCountsEvent } from "./queues";
import type { StreamHealthUpdate } from "./stream-health";

export interface FileProgressEvent {
  requestId: string;
  btId: string;
  status: "queued" | "processing" | "done" | "failed";
  framesDone: number;
  framesTotal: number;
  segmentsDone: number;
  segmentsTotal: number;
  riskLevel?: RiskLevel;
  code?: number;
}

export interface ServerToClientEvents {
  "file:progress": (e: FileProgressEvent) => void;
  /** to streamRoom(requestId): every accepted callback of that stream */
  "stream:event": (e: StreamEvent) => void;
  /** to STREAMS_ROOM: the wall's row of a stream changed */
  "stream:summary": (s: StreamSummary) => void;
  /** to streamRoom(requestId) and STREAMS_ROOM: a stream's health (every change, and a snapshot every few seconds) */
  "stream:health": (u: StreamHealthUpdate) => void;
  /** to INCIDENTS_ROOM: an incident was created, extended, decided or assigned */
  incident: (i: Incident) => void;
  /** to INCIDENTS_ROOM: review queue counts changed (server/queues) */
  queues: (e: QueueCountsEvent) => void;
  /** to INCIDENTS_ROOM: a live rule raised a priority alert (server/rules) */
  "rule:alert": (a: RuleAlert) => void;
}

/** A live rule's priority alert: which rule, on which source, with the hits that made it fire. */
export interface RuleAlert {
  ruleId: string;
  ruleName: string;
  requestId: string;
  title: string | null;
  message: string;
  hits: RuleHit[];
  at: string;
}

export interface ClientToServerEvents {
  subscribe: (room: string, ack?: (ok: boolean) => void) => void;
  unsubscribe: (room: string) => void;
}

/** Room names: every file event goes to FILES_ROOM and to fileRoom(requestId). */
export const FILES_ROOM = "files";
export const fileRoom = (requestId: string) => `file:${requestId}`;
export const STREAMS_ROOM = "streams";
export const streamRoom = (requestId: string) => `stream:${requestId}`;
export const INCIDENTS_ROOM = "incidents";
