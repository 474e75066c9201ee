// Socket.io event map shared by the hub (server) and the dashboard (browser).
import type { RiskLevel } from "./dashboard-api";

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
}

export interface ClientToServerEvents {
  subscribe: (room: string, ack?: (ok: boolean) => void) => void;
  unsubscribe: (room: string) => void;
}

/** Room names: every file event goes to FILES_ROOM and to fileRoom(requestId). */
export const FILES_ROOM = "files";
export const fileRoom = (requestId: string) => `file:${requestId}`;
