// Typed access to the parts of node-media-server v4 (CommonJS) the embedded RTMP ingest uses: its RTMP
// and HTTP-FLV session classes, its process-wide stream registry and its logger. The package's own
// NodeMediaServer class is not used: it cannot listen on port 0, calls process.exit() when a port is
// taken, writes a store under ./data and starts recording, relay and stats timers.
import { createRequire } from "node:module";
import type http from "node:http";
import type net from "node:net";

export interface NmsBroadcast {
  publisher: NmsSession | null;
  getPublishStatus(): "publishing" | "reconnecting" | "idle";
  /** Ends a publish held open for a reconnect (30 s grace in v4); internal in NMS, hence optional here. */
  _finishPublish?: () => void;
}

export interface NmsSession {
  id: string;
  isPublisher: boolean;
  streamPath: string;
  broadcast: NmsBroadcast;
  run(): void;
  onData?: (data: Buffer) => void;
  /** RTMP: called when the client asks to play / to publish (run() hands them to the protocol parser) */
  onPlay: () => void;
  onPush: () => void;
  /** the stream name's query (`name?key=…`), parsed by NMS */
  streamQuery?: Record<string, unknown>;
}

interface NmsLogger {
  log(message: string, level?: string): void;
}

interface NmsContext {
  sessions: Map<string, NmsSession>;
  broadcasts: Map<string, NmsBroadcast>;
}

// literal paths (no exports map in the package, so deep requires resolve), kept static for bundlers
const require = createRequire(import.meta.url);
export const nmsContext = require("node-media-server/src/core/context.js") as NmsContext;
export const RtmpSession = require("node-media-server/src/session/rtmp_session.js") as new (socket: net.Socket) => NmsSession;
export const FlvSession = require("node-media-server/src/session/flv_session.js") as new (req: http.IncomingMessage, res: http.ServerResponse) => NmsSession;
const logger = require("node-media-server/src/core/logger.js") as NmsLogger;

// NMS logs through one process-wide logger at debug level to stdout; route it to whoever asked for logs.
const sinks = new Set<(m: string) => void>();
logger.log = (message: string, level = "info") => {
  if (level === "trace" || level === "debug") return;
  for (const sink of sinks) sink(`[nms ${level}] ${message}`);
};

/** Adds a receiver of NMS log lines; returns its removal. */
export function addNmsLogSink(sink: (m: string) => void): () => void {
  sinks.add(sink);
  return () => void sinks.delete(sink);
}
