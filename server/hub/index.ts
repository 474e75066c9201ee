import type http from "node:http";
import { Server } from "socket.io";
import type { StreamEvent, StreamSummary } from "../../lib/dashboard-api";
import { FILES_ROOM, fileRoom, STREAMS_ROOM, streamRoom, type ClientToServerEvents, type FileProgressEvent, type ServerToClientEvents } from "../../lib/events";

export interface Hub {
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  fileProgress(e: FileProgressEvent): void;
  streamEvent(e: StreamEvent): void;
  streamSummary(s: StreamSummary): void;
  close(): Promise<void>;
}

const ROOM_PATTERN = /^(files|streams|file:[0-9a-f]{32}|stream:[0-9a-f]{32})$/;

/** socket.io on the same HTTP server as Next; clients join named rooms and get typed events. */
export function createHub(server: http.Server, authorize: (req: http.IncomingMessage) => Promise<boolean>): Hub {
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(server, { serveClient: false, cors: { origin: false } });
  // every connection carries the dashboard's session cookie; checked once per connection
  io.use((socket, next) => {
    authorize(socket.request)
      .then((ok) => next(ok ? undefined : new Error("sign in required")))
      .catch(() => next(new Error("sign in required")));
  });
  io.on("connection", (socket) => {
    socket.on("subscribe", (room, ack) => {
      const ok = typeof room === "string" && ROOM_PATTERN.test(room);
      if (ok) void socket.join(room);
      if (typeof ack === "function") ack(ok);
    });
    socket.on("unsubscribe", (room) => {
      if (typeof room === "string") void socket.leave(room);
    });
  });
  return {
    io,
    fileProgress: (e) => void io.to([FILES_ROOM, fileRoom(e.requestId)]).emit("file:progress", e),
    streamEvent: (e) => void io.to(streamRoom(e.requestId)).emit("stream:event", e),
    streamSummary: (s) => void io.to(STREAMS_ROOM).emit("stream:summary", s),
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}
