// Dashboard nodes share live events over real Redis (#14.5): an event published on node A reaches a browser
// connection on node B, and a session ended on A cuts its connections on B. Two real socket.io servers on two
// HTTP ports in this process, each with its own Redis client; socket.io-client connections. Skipped (with the
// reason printed) when REDIS_URL is unset; `.ci/run` sets it.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { io as connect, type Socket } from "socket.io-client";
import { createHub, createHubBroadcaster, type Hub } from "../../server/hub";
import { STREAMS_ROOM, streamRoom } from "../../lib/events";
import type { StreamHealthUpdate } from "../../lib/stream-health";
import type { StreamEvent } from "../../lib/dashboard-api";
import { waitFor } from "../support/net";

const REDIS_URL = process.env.REDIS_URL;
const skip = REDIS_URL ? false : "REDIS_URL is not set: the Redis adapter test needs a real Redis (e.g. redis://127.0.0.1:6379)";
if (skip) console.log(`# skipped: ${skip}`);

interface Node {
  hub: Hub;
  server: http.Server;
  url: string;
}
const nodes: Node[] = [];
const clients: Socket[] = [];
const streamName = `moderation:hub:test:${crypto.randomBytes(4).toString("hex")}`;

/** A dashboard node: its own HTTP server and hub; every connection is "signed in" as the session in its query. */
async function startNode(): Promise<Node> {
  const server = http.createServer();
  const hub = createHub(
    server,
    async (req) => {
      const q = new URL(req.url ?? "/", "http://x").searchParams;
      return q.get("session") ? { sessionId: q.get("session")!, userId: q.get("user") ?? "u1" } : null;
    },
    { redisUrl: REDIS_URL, redisStreamName: streamName },
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const node = { hub, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  nodes.push(node);
  return node;
}

function client(node: Node, session: string, user = "u1"): Socket {
  const s = connect(node.url, { query: { session, user }, transports: ["websocket"], reconnection: false });
  clients.push(s);
  return s;
}

const subscribe = (s: Socket, room: string) => new Promise<boolean>((resolve) => s.emit("subscribe", room, resolve));

let a: Node;
let b: Node;
before(async () => {
  if (skip) return;
  [a, b] = [await startNode(), await startNode()];
});
after(async () => {
  clients.forEach((c) => c.close());
  for (const n of nodes) {
    await n.hub.close();
    n.server.close();
  }
});

test("a stream event published on node A reaches a browser connected to node B", { skip }, async () => {
  const requestId = crypto.randomBytes(16).toString("hex");
  const onB = client(b, "s-b");
  await waitFor(async () => onB.connected || null, 10_000);
  assert.equal(await subscribe(onB, streamRoom(requestId)), true);
  const got: StreamEvent[] = [];
  onB.on("stream:event", (e: StreamEvent) => got.push(e));
  const event = { id: 1, requestId, kind: "frame", receivedAt: new Date().toISOString() } as unknown as StreamEvent;
  // the adapter's subscription may take a moment to be in place on B: publish until it arrives
  await waitFor(async () => {
    a.hub.streamEvent(event);
    return got.length > 0 || null;
  }, 15_000, 300);
  assert.equal(got[0].requestId, requestId);
  // a browser subscribed to another stream gets nothing of it
  const other = client(b, "s-other");
  await waitFor(async () => other.connected || null, 10_000);
  assert.equal(await subscribe(other, streamRoom(crypto.randomBytes(16).toString("hex"))), true);
  let leaked = 0;
  other.on("stream:event", () => leaked++);
  const before = got.length;
  a.hub.streamEvent(event);
  await waitFor(async () => got.length > before || null, 10_000);
  assert.equal(leaked, 0);
});

test("a session ended on node A cuts its connections on node B; the account's other sessions stay", { skip }, async () => {
  const ended = client(b, "s-ended", "u2");
  const kept = client(b, "s-kept", "u2");
  await waitFor(async () => (ended.connected && kept.connected) || null, 10_000);
  // leaving every room it can name does not save it: connections are found by who they are (#25.3)
  for (const room of ["session:s-ended", "user:u2", ended.id!]) ended.emit("unsubscribe", room);
  assert.equal(await subscribe(ended, STREAMS_ROOM), true);
  a.hub.disconnect({ sessionId: "s-ended" });
  await waitFor(async () => !ended.connected || null, 10_000);
  assert.equal(kept.connected, true);
  // sign-out everywhere but this session (a password change): every other session of the account goes
  const third = client(b, "s-third", "u2");
  await waitFor(async () => third.connected || null, 10_000);
  for (const room of ["session:s-third", "user:u2"]) third.emit("unsubscribe", room);
  assert.equal(await subscribe(third, STREAMS_ROOM), true);
  a.hub.disconnect({ userId: "u2", exceptSessionId: "s-kept" });
  await waitFor(async () => !third.connected || null, 10_000);
  assert.equal(kept.connected, true);
});

test("a worker (no HTTP, no browsers) sends a stream's live health to the browsers on the dashboard nodes", { skip }, async () => {
  const requestId = crypto.randomBytes(16).toString("hex");
  const worker = createHubBroadcaster(REDIS_URL!, { redisStreamName: streamName });
  try {
    const onTimeline = client(b, "s-health");
    const onWall = client(a, "s-wall");
    await waitFor(async () => (onTimeline.connected && onWall.connected) || null, 10_000);
    assert.equal(await subscribe(onTimeline, streamRoom(requestId)), true);
    assert.equal(await subscribe(onWall, STREAMS_ROOM), true);
    const got: { timeline: StreamHealthUpdate[]; wall: StreamHealthUpdate[] } = { timeline: [], wall: [] };
    onTimeline.on("stream:health", (u: StreamHealthUpdate) => got.timeline.push(u));
    onWall.on("stream:health", (u: StreamHealthUpdate) => got.wall.push(u));
    const update = { snapshot: { requestId, pull: { state: "connected" } }, event: null } as unknown as StreamHealthUpdate;
    await waitFor(async () => {
      worker.streamHealth(update);
      return (got.timeline.length > 0 && got.wall.length > 0) || null;
    }, 15_000, 300);
    assert.equal(got.timeline[0].snapshot.requestId, requestId);
    assert.equal(got.wall[0].snapshot.requestId, requestId);
  } finally {
    await worker.close();
  }
});
