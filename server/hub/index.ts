import type http from "node:http";
import { Server } from "socket.io";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { Redis } from "ioredis";
import type { StreamEvent, StreamSummary } from "../../lib/dashboard-api";
import { FILES_ROOM, fileRoom, INCIDENTS_ROOM, STREAMS_ROOM, streamRoom, type ClientToServerEvents, type FileProgressEvent, type ServerToClientEvents } from "../../lib/events";
import type { Incident } from "../../lib/incidents";
import type { QueueCountsEvent } from "../../lib/queues";
import type { StreamHealthUpdate } from "../../lib/stream-health";

/** Who a connection belongs to (kept on `socket.data`), so it can be cut when that session or account ends. */
export interface HubIdentity {
  sessionId: string;
  userId: string;
  /** when the session ends (ms since the epoch): the connection is cut then */
  expiresAt?: number;
}

/** Which connections to cut: a session's, or every session's of an account (but `exceptSessionId`). */
export interface HubCut {
  sessionId?: string;
  userId?: string;
  exceptSessionId?: string;
}

/** Between dashboard nodes (the Redis adapter): cut these connections wherever they are. */
interface InterServerEvents {
  "hub:cut": (q: HubCut) => void;
}

export interface Hub {
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  /** Disconnects the live connections of a session, or of every session of an account. */
  disconnect(q: HubCut): void;
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
  /**
   * Which of these sessions still stand (not ended, expired or of a disabled account). Every `recheckMs` the
   * sessions of this node's connections are checked, so a session ended where no hub heard it (the shell, a
   * node that was down) also loses its connections. Unset: no re-check (the expiry timer and `disconnect` only).
   */
  liveSessions?: (sessionIds: string[]) => Promise<Set<string>>;
  /** default 60 s */
  recheckMs?: number;
}

/** The longest delay setTimeout keeps (about 24.8 days); a later expiry is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

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

/**
 * socket.io on the same HTTP server as Next; clients join named rooms and get typed events. A client may join and
 * leave only the rooms of ROOM_PATTERN; connections are cut by who they are (`socket.data`), never by a room the
 * client could leave.
 */
export function createHub(server: http.Server, authorize: (req: http.IncomingMessage) => Promise<HubIdentity | null>, opts: HubOptions = {}): Hub {
  const io = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, HubIdentity>(server, {
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
  /** This node's connections of that session or account, found by their identity. */
  const cutHere = (q: HubCut) => {
    const sessionId = text(q?.sessionId);
    const userId = text(q?.userId);
    const except = text(q?.exceptSessionId);
    if (!sessionId && !userId) return;
    for (const socket of io.of("/").sockets.values()) {
      const who = socket.data;
      if (!who) continue;
      if ((sessionId && who.sessionId === sessionId) || (userId && who.userId === userId && who.sessionId !== except)) socket.disconnect(true);
    }
  };
  // a session ended on another node: its connections on this one go too
  io.on("hub:cut", (q) => cutHere(q));
  io.on("connection", (socket) => {
    const who = socket.data;
    // the session's own end: the connection goes with it, whether or not anything is said
    let timer: NodeJS.Timeout | null = null;
    const arm = () => {
      const left = (who.expiresAt ?? Infinity) - Date.now();
      if (left === Infinity) return;
      if (left <= 0) return void socket.disconnect(true);
      timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      timer.unref();
    };
    arm();
    socket.on("disconnect", () => timer && clearTimeout(timer));
    socket.on("subscribe", (room, ack) => {
      const ok = typeof room === "string" && ROOM_PATTERN.test(room);
      if (ok) void socket.join(room);
      if (typeof ack === "function") ack(ok);
    });
    // only rooms a client may join; never its own socket id's room (how a single socket is reached)
    socket.on("unsubscribe", (room) => {
      if (typeof room === "string" && ROOM_PATTERN.test(room)) void socket.leave(room);
    });
  });
  // sessions that ended where no hub heard it, or expired: re-checked as a batch, never cut when the check fails
  let rechecking = false;
  const recheck = opts.liveSessions
    ? setInterval(() => {
        if (rechecking) return;
        const sockets = [...io.of("/").sockets.values()].filter((s) => s.data?.sessionId);
        if (sockets.length === 0) return;
        rechecking = true;
        opts.liveSessions!([...new Set(sockets.map((s) => s.data.sessionId))])
          .then((live) => sockets.forEach((s) => !live.has(s.data.sessionId) && s.disconnect(true)))
          .catch(() => undefined)
          .finally(() => (rechecking = false));
      }, opts.recheckMs ?? 60_000)
    : null;
  recheck?.unref();
  return {
    io,
    fileProgress: (e) => void io.to([FILES_ROOM, fileRoom(e.requestId)]).emit("file:progress", e),
    streamEvent: (e) => void io.to(streamRoom(e.requestId)).emit("stream:event", e),
    streamSummary: (s) => void io.to(STREAMS_ROOM).emit("stream:summary", s),
    streamHealth: (u) => healthTo(io, u),
    incident: (i) => void io.to(INCIDENTS_ROOM).emit("incident", i),
    queues: (e) => void io.to(INCIDENTS_ROOM).emit("queues", e),
    disconnect: (q) => {
      cutHere(q);
      // and on every other dashboard node (fire and forget: a node that misses it re-checks its sessions)
      if (redis) void Promise.resolve(io.of("/").adapter.serverSideEmit(["hub:cut", { ...q }])).catch(() => undefined);
    },
    close: async () => {
      if (recheck) clearInterval(recheck);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      redis?.disconnect();
    },
  };
}
