// The dashboard's front door (server/auth/gate.ts) on a real HTTP server and a real store, with a
// stand-in for Next that echoes what the gate handed it: sessions, roles, CSRF, audit, throttling.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { createAuth, type Auth } from "../../server/auth";
import { createAuthApi } from "../../server/auth/api";
import { gate } from "../../server/auth/gate";
import { openStore, type Store } from "../../server/store/db";
import { CSRF_HEADER, IDENTITY_HEADERS } from "../../lib/roles";
import { waitFor } from "../support/net";

let store: Store;
let auth: Auth;
let api: ReturnType<typeof createAuthApi>;
let server: http.Server;
let base: string;
let dataDir: string;
let adminPassword: string;

interface Client {
  cookie: string;
  csrf: string;
}

async function call(p: string, o: { method?: string; client?: Client; csrf?: string | null; origin?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.client) headers.cookie = o.client.cookie;
  const csrf = o.csrf === undefined ? o.client?.csrf : o.csrf;
  if (csrf) headers[CSRF_HEADER] = csrf;
  if (o.origin) headers.origin = o.origin;
  const res = await fetch(`${base}${p}`, { method: o.method ?? "GET", headers, body: o.body === undefined ? undefined : JSON.stringify(o.body), redirect: "manual" });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // pages and redirects are not JSON
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** Signs in through the real API handler (as the Next route would), returning the cookies a browser would keep. */
async function signIn(username: string, password: string, ip = "10.0.0.1"): Promise<{ status: number; client: Client; body: Record<string, unknown> }> {
  const res = await api.signIn(new Request("http://x/api/auth/signin", { method: "POST", body: JSON.stringify({ username, password }), headers: { [IDENTITY_HEADERS.ip]: ip } }));
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  const csrf = cookies.find((c) => c.startsWith("mp_csrf="))?.slice("mp_csrf=".length) ?? "";
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, client: { cookie: cookies.join("; "), csrf: decodeURIComponent(csrf) } };
}

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "auth-gate-"));
  store = await openStore({ dataDir });
  auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: null, log: () => undefined });
  api = createAuthApi(auth);
  const first = await auth.bootstrap();
  assert.ok(first?.password, "first start prints a one-time password");
  adminPassword = first.password;
  assert.equal(await auth.bootstrap(), null, "bootstrap runs once");
  const opts = { auth, dev: false, trustProxy: false, publicBaseUrl: null, mediaOrigins: [], maxPublicBodyBytes: 64 * 1024 };
  server = http.createServer((req, res) => {
    void gate(opts, req, res).then((answered) => {
      if (answered) return;
      // stand-in for Next: echo the identity the gate passed on, and a created id for audited POSTs
      const echo = { role: req.headers[IDENTITY_HEADERS.role] ?? null, username: req.headers[IDENTITY_HEADERS.username] ?? null, requestId: req.method === "POST" ? "req-123" : undefined };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(echo));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await store.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("dashboard gate", () => {
  let admin: Client;

  test("without a session: API answers 401, pages redirect to sign-in, public paths pass", async () => {
    assert.equal((await call("/api/streams")).status, 401);
    const page = await call("/streams?x=1");
    assert.equal(page.status, 303);
    assert.equal(page.headers.get("location"), `/signin?next=${encodeURIComponent("/streams?x=1")}`);
    assert.equal((await call("/api/health")).status, 200);
    assert.equal((await call("/signin")).status, 200);
    assert.equal((await call("/api/receiver/file/some-token", { method: "POST", body: {} })).status, 200, "receivers authenticate themselves");
    assert.equal((await call("/api/streams", { method: "POST", headers: { [IDENTITY_HEADERS.role]: "supervisor", [IDENTITY_HEADERS.id]: "x" } })).status, 401, "forged identity headers are ignored");
  });

  test("Next's image optimizer is never reachable; strangers' bodies are bounded before they are read", async () => {
    for (const method of ["GET", "POST", "PATCH"]) assert.equal((await call("/_next/image?url=/api/streams/abc/close&w=64&q=75", { method })).status, 404, method);
    assert.equal((await call("/_next/static/chunks/x.js")).status, 200, "static assets stay public");
    assert.equal((await call("/_next/static/chunks/x.js", { method: "POST" })).status, 303, "but only to read: a write needs a session");
    const big = await fetch(`${base}/api/receiver/file/tok`, { method: "POST", body: "x".repeat(70 * 1024) });
    assert.equal(big.status, 413);
    const chunked = await new Promise<number>((resolve, reject) => {
      const r = http.request(`${base}/api/auth/signin`, { method: "POST", headers: { "transfer-encoding": "chunked" } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      r.on("error", reject);
      r.write("{");
      r.end("}");
    });
    assert.equal(chunked, 411);
  });

  test("every dashboard response carries the security headers, with a fresh CSP nonce", async () => {
    const a = await call("/signin");
    const b = await call("/signin");
    const csp = a.headers.get("content-security-policy") ?? "";
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    assert.match(csp, /object-src 'none'/);
    const host = new URL(base).host;
    assert.match(csp, new RegExp(`connect-src 'self' ws://${host.replace(/[.[\]]/g, "\\$&")} wss://${host.replace(/[.[\]]/g, "\\$&")};`), "the WebSocket only to the page's own host");
    assert.doesNotMatch(csp, /connect-src[^;]* ws: /);
    assert.notEqual(csp, b.headers.get("content-security-policy"), "nonce differs per response");
    assert.equal(a.headers.get("x-frame-options"), "DENY");
    assert.equal(a.headers.get("referrer-policy"), "same-origin");
    assert.equal(a.headers.get("x-content-type-options"), "nosniff");
  });

  test("the one-time password must be replaced before anything else", async () => {
    const s = await signIn("admin", adminPassword);
    assert.equal(s.status, 200);
    assert.equal((s.body.user as { mustChangePassword: boolean }).mustChangePassword, true);
    assert.equal((await call("/api/streams", { client: s.client })).status, 403);
    assert.equal((await call("/streams", { client: s.client })).headers.get("location"), "/account");
    assert.equal((await call("/account", { client: s.client })).status, 200);
    const id = (s.body.user as { id: string }).id;
    await assert.rejects(auth.changePassword(id, adminPassword, "short"), /at least 10/);
    await auth.changePassword(id, adminPassword, "supervisor-pass-1");
    admin = (await signIn("admin", "supervisor-pass-1")).client;
    const ok = await call("/api/streams", { client: admin });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.role, "supervisor");
  });

  test("roles: moderators start but cannot close or manage; reviewers review but cannot submit", async () => {
    const mod = await auth.createUser("mod1", "moderator");
    const rev = await auth.createUser("rev1", "reviewer");
    for (const [u, p] of [[mod, "moderator-pass"], [rev, "reviewer-pass1"]] as const) await auth.changePassword(u.user.id, u.password, p);
    const m = (await signIn("mod1", "moderator-pass")).client;
    const r = (await signIn("rev1", "reviewer-pass1")).client;
    const started = await call("/api/streams", { method: "POST", client: m, body: {} });
    assert.equal(started.status, 200);
    assert.equal(started.json.role, "moderator", "the route handler learns the role from the gate");
    assert.equal((await call("/api/streams/abc/close", { method: "POST", client: m })).status, 403);
    assert.equal((await call("/api/lists/faces", { method: "POST", client: m })).status, 403);
    assert.equal((await call("/api/users", { client: m })).status, 403);
    const usersPage = await call("/users", { client: m });
    assert.equal(usersPage.status, 403);
    assert.match(usersPage.text, /Not allowed/);
    assert.equal((await call("/api/reviews", { method: "POST", client: r, body: {} })).status, 200);
    assert.equal((await call("/api/files", { method: "POST", client: r, body: {} })).status, 403);
    assert.equal((await call("/api/streams", { method: "POST", client: r, body: {} })).status, 403);
    assert.equal((await call("/api/streams/abc/close", { method: "POST", client: admin })).status, 200);
    assert.equal((await call("/api/unknown-thing", { method: "POST", client: m })).status, 403, "unlisted writes are supervisors' only");
    // a trailing slash is folded (Next redirects it): the rule of the path without it applies
    for (const p of ["/users/", "/USERS", "/Api/Users"]) assert.equal((await call(p, { client: m })).status, 403, p);
    assert.equal((await call("/api/streams/abc/close/", { method: "POST", client: m })).status, 403);
    // any target the gate and the router could read differently is refused before anything runs
    for (const p of ["/%75sers", "//users", "/api/%75sers", "/api//users", "/api/users;x"]) assert.equal((await call(p, { client: m })).status, 400, p);
    for (const p of ["/api/streams//abc/close", "/api/%6Cists/faces"]) assert.equal((await call(p, { method: "POST", client: m })).status, 400, p);
    assert.equal((await call("/api/streams/%E0%A4%A", { client: m })).status, 400, "a malformed escape is refused");
    assert.equal((await call("/api/streams/x%2F..%2F..%2Freceiver/close", { method: "POST", client: m })).status, 400, "an encoded slash is refused");
    assert.equal((await call("/api/users", { method: "HEAD", client: m })).status, 403, "HEAD needs what GET needs");
  });

  test("security review #9.1: a fragment cannot fold a protected path into a public one", async () => {
    // fetch() drops fragments: send the raw request target as the reviewer's curl did
    const raw = (target: string, method = "POST") =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ username: "evil1", role: "supervisor" });
        const r = http.request(`${base}/`, { method, path: target, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        r.on("error", reject);
        r.end(body);
      });
    for (const target of ["/api/users#/../../api/receiver/x", "/api/streams/abc/close#/../../../../api/receiver/x", "/api/audit#/../../api/receiver/x", "/api/receiver/x/../../users", "/api/receiver/x/%2e%2e/%2e%2e/users", "http://evil.example/api/users", "/api/receiver\\..\\..\\users"]) {
      assert.equal(await raw(target), 400, target);
    }
    assert.equal(await raw("/api/users#x", "GET"), 400);
    assert.equal((await auth.listUsers()).some((u) => u.username === "evil1"), false, "no account was created");
  });

  test("CSRF: state-changing requests need the session's token and a same-site origin", async () => {
    assert.equal((await call("/api/streams", { method: "POST", client: admin, csrf: null })).status, 403);
    assert.equal((await call("/api/streams", { method: "POST", client: admin, csrf: "forged-token" })).status, 403);
    const cross = await call("/api/streams", { method: "POST", client: admin, origin: "https://evil.example" });
    assert.equal(cross.status, 403);
    assert.match(String(cross.json.error), /CSRF/);
    assert.equal((await call("/api/streams", { method: "POST", client: admin, origin: base })).status, 200);
    assert.equal((await call("/api/streams", { client: admin, csrf: null })).status, 200, "reads need no token");
  });

  test("tampered or signed-out sessions are refused", async () => {
    const s = (await signIn("admin", "supervisor-pass-1")).client;
    const tampered = { ...s, cookie: s.cookie.replace(/mp_session=([^;.]+)/, "mp_session=AAAA$1") };
    assert.equal((await call("/api/streams", { client: tampered })).status, 401);
    const signedOut = await api.signOut(new Request("http://x", { method: "POST", headers: { [IDENTITY_HEADERS.id]: "x", [IDENTITY_HEADERS.session]: decodeURIComponent(s.cookie.match(/mp_session=([^;]+)/)![1]).split(".")[0] } }));
    assert.match(signedOut.headers.getSetCookie().join(), /mp_session=;/);
    assert.equal((await call("/api/streams", { client: s })).status, 401);
  });

  test("disabling or demoting an account ends its sessions at once; the last supervisor stays", async () => {
    const u = await auth.createUser("mod2", "moderator");
    await auth.changePassword(u.user.id, u.password, "moderator-two");
    const c = (await signIn("mod2", "moderator-two")).client;
    assert.equal((await call("/api/streams", { client: c })).status, 200);
    const adminId = (await auth.listUsers()).find((x) => x.username === "admin")!.id;
    await auth.updateUser(adminId, u.user.id, { disabled: true });
    assert.equal((await call("/api/streams", { client: c })).status, 401);
    assert.equal((await signIn("mod2", "moderator-two")).status, 401, "a disabled account cannot sign in");
    await assert.rejects(auth.updateUser(adminId, adminId, { role: "moderator" }), /own account/);
    const reset = await auth.updateUser(adminId, u.user.id, { disabled: false, resetPassword: true });
    assert.ok(reset.password && reset.password !== "moderator-two");
    assert.equal((await signIn("mod2", "moderator-two")).status, 401, "the old password no longer works");
  });

  test("parallel wrong passwords cannot slip past the throttle; changing a password ends the account's other sessions", async () => {
    const tries = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn("mod1", `guess-${i}`, "10.7.7.7")));
    assert.equal(tries.filter((t) => t.status === 401).length, 5, tries.map((t) => t.status).join());
    assert.equal(tries.filter((t) => t.status === 429).length, 15);
    const first = await signIn("rev1", "reviewer-pass1", "10.6.6.6");
    const second = await signIn("rev1", "reviewer-pass1", "10.6.6.6");
    const sessionOf = (c: Client) => decodeURIComponent(c.cookie.match(/mp_session=([^;]+)/)![1]).split(".")[0];
    const id = (first.body.user as { id: string }).id;
    const res = await api.changePassword(new Request("http://x", { method: "POST", body: JSON.stringify({ current: "reviewer-pass1", next: "reviewer-pass2" }), headers: { [IDENTITY_HEADERS.id]: id, [IDENTITY_HEADERS.session]: sessionOf(second.client) } }));
    assert.equal(res.status, 200);
    assert.equal((await call("/api/streams", { client: first.client })).status, 401, "the other session ended");
    assert.equal((await call("/api/streams", { client: second.client })).status, 200, "the caller's session stays");
  });

  test("a session's guesses at its current password are throttled like sign-ins (5 in 15 min, in parallel too), per account", async () => {
    const u = await auth.createUser("mod3", "moderator");
    await auth.changePassword(u.user.id, u.password, "moderator-three");
    const other = await auth.createUser("mod4", "moderator");
    // the route handler, as the gate hands it a signed-in request
    const change = (current: string, next = "moderator-three-b") => api.changePassword(new Request("http://x", { method: "POST", body: JSON.stringify({ current, next }), headers: { [IDENTITY_HEADERS.id]: u.user.id, [IDENTITY_HEADERS.session]: "s" } }));
    const tries = await Promise.all(Array.from({ length: 12 }, (_, i) => change(`guess-${i}`)));
    assert.equal(tries.filter((t) => t.status === 400).length, 5, tries.map((t) => t.status).join());
    assert.equal(tries.filter((t) => t.status === 429).length, 7);
    assert.match(String(((await tries.find((t) => t.status === 429)!.json()) as { error: string }).error), /too many wrong current passwords/);
    assert.equal((await change("moderator-three")).status, 429, "even the right one, until the window has passed");
    await auth.changePassword(other.user.id, other.password, "moderator-four"); // another account is not affected
  });

  test("sign-in is throttled after repeated failures, even with the right password", async () => {
    for (let i = 0; i < 5; i++) assert.equal((await signIn("admin", `wrong-${i}`, "10.9.9.9")).status, 401);
    const blocked = await signIn("admin", "supervisor-pass-1", "10.9.9.9");
    assert.equal(blocked.status, 429);
    assert.match(String(blocked.body.error), /too many/);
    assert.equal((await signIn("admin", "supervisor-pass-1", "10.9.9.10")).status, 200, "another address is not blocked");
  });

  test("the audit log records who did what, from where, and what it created", async () => {
    const rows = await waitFor(async () => {
      const r = await auth.auditPage({ limit: 200 });
      return r.some((e) => e.action === "stream.close" && e.outcome === "denied") ? r : null;
    });
    const start = rows.find((e) => e.action === "stream.start" && e.username === "mod1" && e.outcome === "ok");
    assert.ok(start, "stream start by mod1 recorded");
    assert.equal(start.ip, "127.0.0.1");
    assert.equal(start.detail?.requestId, "req-123", "the created id is kept");
    assert.ok(rows.some((e) => e.action === "auth.signin" && e.outcome === "failed" && e.ip === "10.9.9.9"));
    assert.ok(rows.some((e) => e.action === "auth.signin" && e.outcome === "throttled"));
    assert.ok(rows.some((e) => e.action === "stream.close" && e.username === "mod1" && e.outcome === "denied"));
    assert.ok(rows.some((e) => e.action === "review.record" && e.username === "rev1"));
    assert.ok(rows.some((e) => e.action === "stream.start" && e.outcome === "csrf-refused"));
    const page = await call("/api/audit", { client: admin });
    assert.equal(page.status, 200, "supervisors read the audit log");
  });

  test("strangers cannot flood the audit log: at most 20 refusals an address per 10 min, the last saying so; targets are bounded", async () => {
    await Promise.all(Array.from({ length: 60 }, (_, i) => call(`/api/users?flood=${i}&pad=${"x".repeat(2000)}`, { method: "POST", headers: { "content-length": "0" } })));
    const rows = await auth.auditPage({ limit: 1000 });
    const mine = rows.filter((e) => e.outcome === "unauthenticated" && e.ip === "127.0.0.1");
    assert.ok(mine.length <= 20, `${mine.length} rows`);
    assert.equal(mine.filter((e) => /not written one by one/.test(String(e.detail?.note))).length, 1, "the last one says so");
    assert.ok(mine.every((e) => (e.target ?? "").length <= 513), "each target is cut");
    // a signed-in user's entries are never dropped
    for (let i = 0; i < 25; i++) await auth.audit({ username: "admin", role: "supervisor", action: "test.entry", outcome: "ok", ip: "127.0.0.1", target: `/t/${i}` });
    assert.equal((await auth.auditPage({ limit: 1000, action: "test.entry" })).length, 25);
  });

  test("passwords are stored as argon2id hashes, never in clear", async () => {
    const { users } = await import("../../server/auth/schema");
    const rows = await store.db.select().from(users);
    for (const r of rows) assert.match(r.passwordHash, /^\$argon2id\$/);
    assert.ok(!rows.some((r) => r.passwordHash.includes("supervisor-pass-1")));
  });
});
