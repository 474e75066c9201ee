import type http from "node:http";
import { Server } from "socket.io";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { Redis } from "ioredis";
import type { StreamEvent, StreamSummary } from "../../lib/dashboard-api";
import { FILES_ROOM, fileRoom, INCIDENTS_ROOM, STREAMS_ROOM, streamRoom, type ClientToServerEvents, type FileProgressEvent, type ServerToClientEvents } from "../../lib/events";
import type { Incident } from "../../lib/incidents";
import type { QueueCountsEvent } from "../../lib/queues";
import type { StreamHealthUpdate } from "../../lib/stream-health";

/** Who a connection belongs to, so it can be cut when that session or account ends. */
export interface HubIdentity {
  sessionId: string;
  userId: string;
}

export interface Hub {
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  /** Disconnects the live connections of a session, or of every session of an account. */
  disconnect(q: { sessionId?: string; userId?: string; exceptSessionId?: string }): void;
  fileProgress(e: FileProgressEvent): void;
  streamEvent(e: StreamEvent): void;
  streamSummary(s: StreamSummary): void;
  /** to the stream's room and the wall: its health changed, or a live snapshot (embedded engine only) */
  streamHealth(u: StreamHealthUpdate): void;
  /** to INCIDENTS_ROOM: an incident was created, extended, decided or assigned */
  incident(i: Incident): void;
  /** to INCIDENTS_ROOM: review queue counts (server/queues) */
  queues(e: QueueCountsEvent): void;
  close(): Promise<void>;
}

const ROOM_PATTERN = /^(files|streams|incidents|file:[0-9a-f]{32}|stream:[0-9a-f]{32})$/;

export interface HubOptions {
  /**
   * REDIS_URL: events travel between dashboard nodes over a Redis stream (@socket.io/redis-streams-adapter), so a
   * callback received by node A reaches a browser connected to node B; unset = this process only.
   */
  redisUrl?: string | null;
  /** the Redis stream's name (default "moderation:hub"; tests use their own) */
  redisStreamName?: string;
}

const sessionRoom = (id: string) => `session:${id}`;
const userRoom = (id: string) => `user:${id}`;

/** The Redis adapter every hub of a deployment shares (one stream, one channel prefix). */
function redisAdapter(redisUrl: string, streamName = "moderation:hub") {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  redis.on("error", () => undefined); // reconnects on its own; the adapter's reads resume then
  return { redis, adapter: createAdapter(redis, { streamName, channelPrefix: streamName }) };
}

/** Health updates to the rooms that show them: the stream's timeline and the wall. */
const healthTo = (io: Server<ClientToServerEvents, ServerToClientEvents>, u: StreamHealthUpdate) => void io.to([streamRoom(u.snapshot.requestId), STREAMS_ROOM]).emit("stream:health", u);

/**
 * Scaled mode, a worker (no HTTP, no browsers): what it raises for browsers (a stream's live health) is sent through
 * the hubs' Redis stream, so every dashboard node delivers it to its own connections in those rooms.
 */
export function createHubBroadcaster(redisUrl: string, o: { redisStreamName?: string } = {}): Pick<Hub, "streamHealth" | "close"> {
  const io = new Server<ClientToServerEvents, ServerToClientEvents>();
  const { redis, adapter } = redisAdapter(redisUrl, o.redisStreamName);
  io.adapter(adapter);
  return {
    streamHealth: (u) => healthTo(io, u),
    close: async () => {
      // no HTTP server behind it (io.close would close one): stop the adapter's reads, then its connection
      await io.of("/").adapter.close();
      redis.disconnect();
    },
  };
}

/** socket.io on the same HTTP server as Next; clients join named rooms and get typed events. */
export function createHub(server: http.Server, authorize: (req: http.IncomingMessage) => Promise<HubIdentity | null>, opts: HubOptions = {}): Hub {
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(server, {
    serveClient: false,
    cors: { origin: false },
    // no engine.io session at all for a caller without a dashboard session (checked at the handshake)
    allowRequest: (req, fn) => {
      authorize(req).then(
        (who) => fn(who ? null : "sign in required", who !== null),
        () => fn("sign in required", false),
      );
    },
  });
  let redis: Redis | null = null;
  if (opts.redisUrl) {
    const shared = redisAdapter(opts.redisUrl, opts.redisStreamName);
    redis = shared.redis;
    io.adapter(shared.adapter);
  }
  // every connection carries the dashboard's session cookie; checked once per connection
  io.use((socket, next) => {
    authorize(socket.request)
      .then((who) => {
        if (who) socket.data = who;
        next(who ? undefined : new Error("sign in required"));
      })
      .catch(() => next(new Error("sign in required")));
  });
  io.on("connection", (socket) => {
    // rooms of its session and account, so a session ended on any node cuts its connections on every node
    const who = socket.data as HubIdentity;
    void socket.join([sessionRoom(who.sessionId), userRoom(who.userId)]);
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
    streamHealth: (u) => healthTo(io, u),
    incident: (i) => void io.to(INCIDENTS_ROOM).emit("incident", i),
    queues: (e) => void io.to(INCIDENTS_ROOM).emit("queues", e),
    disconnect: (q) => {
      if (q.sessionId) io.in(sessionRoom(q.sessionId)).disconnectSockets(true);
      if (q.userId) (q.exceptSessionId ? io.in(userRoom(q.userId)).except(sessionRoom(q.exceptSessionId)) : io.in(userRoom(q.userId))).disconnectSockets(true);
    },
    close: async () => {
      await new Promise<void>((resolve) => io.close(() => resolve()));
      redis?.disconnect();
    },
  };
}
