// Live-update connections end with their session (issue 25.3): a client that leaves every room it can name
// (its session's, its account's, its own socket id's) is still cut when its account is disabled, its session
// signed out, its role changed, its password reset or changed elsewhere, or its session expires; and a session
// ended where no hub heard it (another process, as `npm run users -- reset`) is found by the hub's re-check.
// Real store, real auth, a real socket.io server and socket.io-client connections carrying the session cookie.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { io as connect, type Socket } from "socket.io-client";
import { createAuth, type Auth } from "../../server/auth";
import { hubAccess } from "../../server/auth/hub-access";
import { createHub, type Hub } from "../../server/hub";
import { openStore, type Store } from "../../server/store/db";
import { STREAMS_ROOM } from "../../lib/events";
import { SESSION_COOKIE } from "../../lib/roles";
import type { StreamSummary } from "../../lib/dashboard-api";
import { waitFor } from "../support/net";

let store: Store;
let auth: Auth;
let dataDir: string;
let adminId: string;
const servers: Array<{ hub: Hub; server: http.Server; url: string }> = [];
const clients: Socket[] = [];

async function startHub(o: { recheckMs?: number } = {}) {
  const server = http.createServer();
  const access = hubAccess(auth, { publicBaseUrl: null });
  const hub = createHub(server, access.authorize, o.recheckMs ? { liveSessions: access.liveSessions, recheckMs: o.recheckMs } : {});
  auth.onSessionsEnded((q) => hub.disconnect(q));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const node = { hub, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  servers.push(node);
  return node;
}

/** A moderator account signed in (its one-time password already changed): its cookie, session and user ids. */
async function moderator(name: string, a: Auth = auth) {
  const { user, password } = await auth.createUser(name, "moderator");
  const first = await auth.signIn(name, password, "127.0.0.1", null);
  await auth.changePassword(user.id, password, `${name}-pass-1`, undefined);
  await auth.signOut(first.cookie.split(".")[0]);
  const s = await a.signIn(name, `${name}-pass-1`, "127.0.0.1", null);
  return { userId: user.id, cookie: s.cookie, sessionId: s.cookie.slice(0, s.cookie.lastIndexOf(".")) };
}

/** A connection that joined the wall's room, then left every room it could name to evade being cut. */
async function evader(url: string, who: { cookie: string; sessionId: string; userId: string }) {
  const s = connect(url, { transports: ["websocket"], reconnection: false, extraHeaders: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(who.cookie)}` } });
  clients.push(s);
  const got: StreamSummary[] = [];
  s.on("stream:summary", (e: StreamSummary) => got.push(e));
  await waitFor(async () => s.connected || null, 10_000);
  assert.equal(await new Promise<boolean>((r) => s.emit("subscribe", STREAMS_ROOM, r)), true);
  for (const room of [`session:${who.sessionId}`, `user:${who.userId}`, s.id!]) s.emit("unsubscribe", room);
  // the unsubscribes are handled in order before this answer
  await new Promise<boolean>((r) => s.emit("subscribe", STREAMS_ROOM, r));
  return { socket: s, got };
}

let control: { socket: Socket; got: StreamSummary[] };
let node: Awaited<ReturnType<typeof startHub>>;
let seq = 0;

/** Cuts `victim` with `end`, then proves it is gone and hears nothing more while a standing connection does. */
async function assertCut(victim: { socket: Socket; got: StreamSummary[] }, end: () => Promise<unknown>) {
  const summary = () => ({ requestId: `r${++seq}` }) as unknown as StreamSummary;
  node.hub.streamSummary(summary());
  await waitFor(async () => (victim.got.length > 0 && control.got.length >= seq) || null, 10_000);
  await end();
  await waitFor(async () => !victim.socket.connected || null, 10_000);
  const before = victim.got.length;
  node.hub.streamSummary(summary());
  await waitFor(async () => control.got.length >= seq || null, 10_000);
  assert.equal(victim.got.length, before, "no event after the cut");
  assert.equal(control.socket.connected, true, "another account's connection stays");
}

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "hub-sessions-"));
  store = await openStore({ dataDir });
  auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: "supervisor-pass-1", log: () => undefined });
  await auth.bootstrap();
  adminId = (await auth.listUsers()).find((u) => u.username === "admin")!.id;
  node = await startHub();
  control = await evader(node.url, await moderator("control"));
});

after(async () => {
  clients.forEach((c) => c.close());
  for (const n of servers) {
    await n.hub.close();
    n.server.close();
  }
  await store.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("a client may leave only rooms it may join: its socket id's room stays, so it is still reached", async () => {
  const m = await moderator("rooms");
  const e = await evader(node.url, m);
  const rooms = [...(node.hub.io.of("/").sockets.get(e.socket.id!)?.rooms ?? [])];
  assert.ok(rooms.includes(e.socket.id!), `own room kept: ${rooms.join(", ")}`);
  assert.ok(rooms.includes(STREAMS_ROOM));
  e.socket.emit("unsubscribe", STREAMS_ROOM);
  await waitFor(async () => !node.hub.io.of("/").sockets.get(e.socket.id!)?.rooms.has(STREAMS_ROOM) || null, 10_000);
});

test("account disabled: the evading connection is cut and hears nothing more", async () => {
  const m = await moderator("disabled");
  await assertCut(await evader(node.url, m), () => auth.updateUser(adminId, m.userId, { disabled: true }));
});

test("signed out: the evading connection of that session is cut; the account's other session stays", async () => {
  const m = await moderator("signout");
  const other = await auth.signIn("signout", "signout-pass-1", "127.0.0.1", null);
  const kept = await evader(node.url, { ...m, cookie: other.cookie });
  await assertCut(await evader(node.url, m), () => auth.signOut(m.sessionId));
  assert.equal(kept.socket.connected, true);
});

test("role changed: the account's connections are cut", async () => {
  const m = await moderator("promoted");
  await assertCut(await evader(node.url, m), () => auth.updateUser(adminId, m.userId, { role: "reviewer" }));
});

test("password reset by a supervisor: the account's connections are cut", async () => {
  const m = await moderator("reset");
  await assertCut(await evader(node.url, m), () => auth.updateUser(adminId, m.userId, { resetPassword: true }));
});

test("password changed in another session: this session's connection is cut, the changing one stays", async () => {
  const m = await moderator("changer");
  const keeper = await auth.signIn("changer", "changer-pass-1", "127.0.0.1", null);
  const keepId = keeper.cookie.slice(0, keeper.cookie.lastIndexOf("."));
  const kept = await evader(node.url, { ...m, cookie: keeper.cookie, sessionId: keepId });
  await assertCut(await evader(node.url, m), () => auth.changePassword(m.userId, "changer-pass-1", "changer-pass-2", keepId));
  assert.equal(kept.socket.connected, true);
});

test("session expired: the connection ends at the session's end, and a new one is refused", async () => {
  // a second auth on the same store and secret, with sessions of 4 s
  const shortLived = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 4 / 3600, initialPassword: null, log: () => undefined });
  const m = await moderator("expiring", shortLived);
  await assertCut(await evader(node.url, m), () => waitFor(async () => (await shortLived.session(m.cookie)) === null || null, 15_000));
  const again = connect(node.url, { transports: ["websocket"], reconnection: false, extraHeaders: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(m.cookie)}` } });
  clients.push(again);
  const refused = await new Promise<string>((r) => again.on("connect_error", (e) => r(e.message)));
  assert.match(refused, /sign in required|websocket error/);
});

test("a session ended where no hub heard it (another process) is found by the hub's re-check", async () => {
  const rechecking = await startHub({ recheckMs: 200 });
  const m = await moderator("shell");
  const e = await evader(rechecking.url, m);
  // the shell's `npm run users -- reset`: its own auth instance, no hub listening
  const shell = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: null, log: () => undefined });
  const standing = await evader(rechecking.url, await moderator("standing"));
  await shell.updateUser("cli", m.userId, { resetPassword: true, disabled: false });
  await waitFor(async () => !e.socket.connected || null, 10_000);
  assert.equal(standing.socket.connected, true, "standing sessions are not cut by the re-check");
});
