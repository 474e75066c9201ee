import http from "node:http";
import net from "node:net";
import { loopbackOnly, type IngestAccess } from "./ingest-access";
import { randomBytes } from "node:crypto";
import { addNmsLogSink, FlvSession, nmsContext, RtmpSession, type NmsSession } from "./nms";
import { sameSecret } from "../net/constant-time";
import { createWhepPlay, type WhepPlay } from "./whep-play";
import { createWhip, type Whip } from "./whip";
import type { WebrtcNetwork } from "../ingest/webrtc/network";

/** The app's embedded RTMP ingest: moderators push OBS/ffmpeg streams here; served back as RTMP and HTTP-FLV. */
export interface RtmpServer {
  rtmpPort: number;
  httpPort: number;
  /** rtmp://127.0.0.1:PORT/live/KEY */
  rtmpUrl(key: string): string;
  /** http://127.0.0.1:HTTPPORT/live/KEY.flv */
  flvUrl(key: string): string;
  /** A publisher connected to this server is pushing /live/KEY right now. */
  isPublishing(key: string): boolean;
  /** The WHIP endpoint on the HTTP port, null when not enabled. */
  whip: Whip | null;
  /** WHEP playback of the WHIP publishes (with `whip`), else null */
  whep: WhepPlay | null;
  close(): Promise<void>;
}

export interface RtmpServerOptions {
  /** 0 = any free port. */
  rtmpPort: number;
  httpPort: number;
  /** Default 0.0.0.0. */
  host?: string;
  /** NMS's own log lines (info and up); silent when absent. */
  log?: (m: string) => void;
  /** Who may publish and play (default: this machine only, ingest-access.ts). */
  access?: IngestAccess;
  /** Accept WHIP publishes on the HTTP port (`POST /whip/<name>`, whip.ts) and play them back over WHEP (`POST /whep/<name>`, whep-play.ts); default false. */
  whip?: boolean;
  /** WHIP peers' STUN/TURN servers and UDP ports (WEBRTC_*); default none: host candidates only */
  webrtc?: WebrtcNetwork;
}

export const RTMP_APP = "live";
const NAME = /^[A-Za-z0-9_-]+$/;
const FLV_PATH = /^\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\.flv$/;

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/** The path of a request target, "" when it is none (`//`, a bad escape): a client's mistake answers 404, it never throws. */
function pathOf(target: string): string {
  try {
    return new URL(target, "http://x").pathname;
  } catch {
    return "";
  }
}

const closeServer = (server: net.Server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

/**
 * Starts node-media-server v4's RTMP and HTTP-FLV protocol handling on our own listeners (so port 0 works
 * and a busy port rejects instead of exiting the process). NMS keeps one stream registry per process:
 * two servers in one process share stream keys, so give concurrent streams distinct keys.
 */
export async function startRtmpServer(o: RtmpServerOptions): Promise<RtmpServer> {
  const host = o.host ?? "0.0.0.0";
  const log = o.log ?? (() => {});
  const removeSink = o.log ? addNmsLogSink(o.log) : () => {};
  const access = o.access ?? loopbackOnly();
  const sockets = new Set<net.Socket>();
  const sessions = new Set<{ session: NmsSession; socket: net.Socket }>();
  // the WHIP relay's own publishes to this ingest present it (whatever INGEST_PUBLISH_ALLOW says); never leaves the process
  const internalKey = randomBytes(24).toString("base64url");

  /** Publish and play go through the access policy first (NMS has no hook of its own: its callbacks are wrapped). */
  const guard = (session: NmsSession, socket: net.Socket) => {
    const { onPlay, onPush } = session;
    session.onPlay = () => {
      if (access.mayPlay(socket.remoteAddress)) return onPlay();
      log(`[rtmp] play of ${session.streamPath} refused to ${socket.remoteAddress}: not in INGEST_PLAY_ALLOW`);
      socket.destroy();
    };
    session.onPush = () => {
      const key = session.streamQuery?.key;
      if (typeof key === "string" && sameSecret(key, internalKey) && socket.remoteAddress && /^(::ffff:)?127\./.test(socket.remoteAddress)) return onPush();
      const refused = access.publishRefusal(socket.remoteAddress, session.streamQuery);
      if (refused === null) return onPush();
      // the key itself is never logged, right or wrong
      log(`[rtmp] publish of ${session.streamPath} refused to ${socket.remoteAddress}: ${refused}`);
      socket.destroy();
    };
  };

  const rtmp = net.createServer((socket) => {
    sockets.add(socket);
    let session: NmsSession;
    try {
      session = new RtmpSession(socket);
      guard(session, socket);
      // malformed input from a client must not take the whole service down
      const parse = session.onData;
      if (parse) {
        session.onData = (data: Buffer) => {
          try {
            parse(data);
          } catch (err) {
            log(`[rtmp] dropping ${socket.remoteAddress}: ${(err as Error).message}`);
            socket.destroy();
          }
        };
      }
      session.run();
    } catch (err) {
      log(`[rtmp] session failed to start: ${(err as Error).message}`);
      socket.destroy();
      return;
    }
    const entry = { session, socket };
    sessions.add(entry);
    nmsContext.sessions.set(session.id, session);
    socket.on("close", () => {
      sockets.delete(socket);
      sessions.delete(entry);
    });
    socket.on("error", () => {}); // the session logs it; a reset must not become an uncaught error
  });

  let whip: Whip | null = null;
  let whep: WhepPlay | null = null;
  const flv = http.createServer((req, res) => {
    if (whip?.handle(req, res) || whep?.handle(req, res)) return;
    const m = FLV_PATH.exec(pathOf(req.url ?? "/"));
    if (!m || req.method !== "GET") {
      res.writeHead(m ? 405 : 404, { "content-type": "text/plain" }).end(m ? "method not allowed" : "not found");
      return;
    }
    if (!access.mayPlay(req.socket.remoteAddress)) {
      log(`[flv] play refused to ${req.socket.remoteAddress}: not in INGEST_PLAY_ALLOW`);
      res.writeHead(403, { "content-type": "text/plain" }).end("forbidden: this network may not play from the ingest (INGEST_PLAY_ALLOW)");
      return;
    }
    // FlvSession was written for express: it reads params, query and hostname off the request
    Object.assign(req, { params: { app: m[1], name: m[2] }, query: {}, hostname: req.headers.host?.split(":")[0] ?? "" });
    res.writeHead(200, { "content-type": "video/x-flv", "cache-control": "no-cache" });
    try {
      const session = new FlvSession(req, res);
      session.run();
      nmsContext.sessions.set(session.id, session);
    } catch (err) {
      log(`[flv] session failed: ${(err as Error).message}`);
      res.destroy();
    }
  });
  flv.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  let rtmpPort: number;
  let httpPort: number;
  try {
    rtmpPort = await listen(rtmp, o.rtmpPort, host);
    httpPort = await listen(flv, o.httpPort, host);
  } catch (err) {
    await Promise.all([closeServer(rtmp), closeServer(flv)]);
    removeSink();
    throw err;
  }
  // after listen, a server error must not be an uncaught exception
  for (const server of [rtmp, flv]) server.on("error", (err) => log(`[rtmp] server error: ${err.message}`));
  if (o.whip) {
    const play = createWhepPlay({ access, source: (name) => whip?.source(name) ?? null, network: o.webrtc, log });
    whep = play;
    whip = createWhip({
      access,
      onEnded: (name) => play.publishEnded(name),
      publishUrl: (name) => `rtmp://127.0.0.1:${rtmpPort}/${RTMP_APP}/${checkKey(name)}?key=${internalKey}`,
      isPublishing: (name) => isPublishing(name),
      network: o.webrtc,
      log,
    });
  }
  log(`[rtmp] ingest on rtmp://${host}:${rtmpPort}/${RTMP_APP}/<key>, HTTP-FLV on http://${host}:${httpPort}/${RTMP_APP}/<key>.flv`);

  const checkKey = (key: string) => {
    if (!NAME.test(key)) throw new Error(`invalid stream key ${JSON.stringify(key)}: use letters, digits, _ and -`);
    return key;
  };
  let closed: Promise<void> | null = null;
  function isPublishing(key: string): boolean {
    const streamPath = `/${RTMP_APP}/${key}`;
    for (const { session, socket } of sessions) {
      if (session.isPublisher && session.streamPath === streamPath && !socket.destroyed && session.broadcast.publisher === session) return true;
    }
    return false;
  }

  return {
    rtmpPort,
    httpPort,
    rtmpUrl: (key) => `rtmp://127.0.0.1:${rtmpPort}/${RTMP_APP}/${checkKey(key)}`,
    flvUrl: (key) => `http://127.0.0.1:${httpPort}/${RTMP_APP}/${checkKey(key)}.flv`,
    isPublishing,
    get whip() {
      return whip;
    },
    get whep() {
      return whep;
    },
    close() {
      closed ??= (async () => {
        await whep?.close();
        await whip?.close();
        const ours = [...sessions].map((e) => e.session);
        const done = Promise.all([closeServer(rtmp), closeServer(flv)]);
        for (const socket of sockets) socket.destroy();
        // release publishes NMS holds open for a reconnect, so a later server in this process can reuse the keys
        for (const s of ours) if (s.isPublisher && s.broadcast.publisher === s) s.broadcast._finishPublish?.();
        await done;
        removeSink();
      })();
      return closed;
    },
  };
}
