// Sign-in with OpenID Connect over HTTP: a real provider (npm oidc-provider, in process) and the dashboard's gate,
// OIDC handlers and auth API on a real store, driven with fetch and a cookie jar as a browser would.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { createAuth, type Auth } from "../../server/auth";
import { createAuthApi } from "../../server/auth/api";
import { gate } from "../../server/auth/gate";
import { createOidc, OIDC_CALLBACK_PATH, OIDC_FLOW_COOKIE } from "../../server/auth/oidc/flow";
import { loadOidcSettings } from "../../server/auth/oidc/settings";
import { users } from "../../server/auth/schema";
import { openStore, type Store } from "../../server/store/db";
import { CSRF_HEADER } from "../../lib/roles";
import { browse, CookieJar, IDP_CLIENT, signInAtIdp, startTestIdp, type TestIdp } from "../support/oidc-idp";

let store: Store;
let auth: Auth;
let idp: TestIdp;
let server: http.Server;
let base: string;
let dataDir: string;
const TTL_HOURS = 2;

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "oidc-signin-"));
  store = await openStore({ dataDir });
  auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: TTL_HOURS, initialPassword: "local-admin-password", log: () => undefined });
  await auth.bootstrap();
  idp = await startTestIdp();
  const settings = loadOidcSettings({ OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: IDP_CLIENT.id, OIDC_CLIENT_SECRET: IDP_CLIENT.secret, OIDC_ROLE_MAP: "mod-team=moderator,reviewers=reviewer,t&s-leads=supervisor", OIDC_SCOPES: "openid profile email groups", OIDC_LABEL: "Corp SSO" })!;
  const oidc = createOidc({ settings, auth, store, publicBaseUrl: null, log: () => undefined });
  const api = createAuthApi(auth);
  const opts = { auth, dev: false, trustProxy: false, publicBaseUrl: null, mediaOrigins: [], maxPublicBodyBytes: 64 * 1024 };
  server = http.createServer((req, res) => {
    void gate(opts, req, res).then(async (answered) => {
      if (answered) return;
      // stand-in for Next's route handlers: the same functions they call
      const request = new Request(`${base}${req.url}`, { method: req.method, headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])) });
      const routes: Record<string, (r: Request) => Promise<Response>> = { "/api/auth/oidc/start": oidc.start, "/api/auth/oidc/callback": oidc.callback, "/api/auth/me": api.me, "/api/auth/signout": api.signOut };
      const route = routes[new URL(request.url).pathname];
      const answer = route ? await route(request) : new Response(JSON.stringify({ page: req.url }), { status: 200 });
      const headers: Record<string, string | string[]> = {};
      answer.headers.forEach((v, k) => void (k !== "set-cookie" && (headers[k] = v)));
      headers["set-cookie"] = answer.headers.getSetCookie();
      res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  // a localhost Host: the redirect URI comes from the request's origin (no PUBLIC_BASE_URL)
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
  idp.register(`${base}${OIDC_CALLBACK_PATH}`);
});

after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await idp.close();
  await store.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** GET /api/auth/oidc/start in this browser: the provider's authorization URL. */
async function start(jar: CookieJar, next = "/incidents?open=1"): Promise<URL> {
  const res = await browse(jar, `${base}/api/auth/oidc/start?next=${encodeURIComponent(next)}`);
  assert.equal(res.status, 303);
  return new URL(res.headers.get("location")!);
}

async function callback(jar: CookieJar, url: string): Promise<Response> {
  return browse(jar, url);
}

async function lastAudit() {
  return (await auth.auditPage({ limit: 1, action: "auth.signin" }))[0];
}

describe("sign-in with OpenID Connect", () => {
  test("authorization code + PKCE: the provider signs alice in, she lands where she wanted with a moderator session", async () => {
    const jar = new CookieJar();
    const authz = await start(jar);
    assert.equal(authz.origin, idp.issuer);
    const q = authz.searchParams;
    assert.deepEqual([q.get("response_type"), q.get("client_id"), q.get("code_challenge_method"), q.get("redirect_uri")], ["code", IDP_CLIENT.id, "S256", `${base}${OIDC_CALLBACK_PATH}`]);
    for (const k of ["state", "nonce", "code_challenge"]) assert.ok((q.get(k) ?? "").length >= 43, k);
    const flow = jar.get(base, OIDC_FLOW_COOKIE)!;
    assert.ok(flow && !flow.includes(q.get("state")!) && !Buffer.from(flow.split(".")[1], "base64url").toString("latin1").includes(q.get("state")!), "the flow cookie is sealed");
    const back = await signInAtIdp(jar, authz.href, "alice", `${base}${OIDC_CALLBACK_PATH}`);
    const res = await callback(jar, back);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/incidents?open=1");
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith("mp_session="))!;
    assert.match(session, /HttpOnly/);
    assert.match(session, /SameSite=Lax/);
    assert.ok(Math.abs(Number(/Max-Age=(\d+)/.exec(session)![1]) - TTL_HOURS * 3600) <= 5, "the local session lifetime");
    assert.ok(cookies.some((c) => c.startsWith("mp_csrf=") && !/HttpOnly/.test(c)), "the CSRF token the page reads");
    assert.ok(cookies.some((c) => c.startsWith(`${OIDC_FLOW_COOKIE}=;`) && /Max-Age=0/.test(c)), "the flow cookie is spent");
    const me = await browse(jar, `${base}/api/auth/me`);
    assert.deepEqual(((await me.json()) as { user: { username: string; role: string } }).user, { id: (await userNamed("alice"))!.id, username: "alice", role: "moderator", mustChangePassword: false });
    const a = await lastAudit();
    assert.deepEqual([a.username, a.role, a.outcome, a.detail?.method, a.detail?.created], ["alice", "moderator", "ok", "oidc", true]);
    // the same CSRF rules as a local session: a write without the token is refused, with it it passes
    assert.equal((await fetch(`${base}/api/auth/signout`, { method: "POST", headers: { cookie: jar.header(base) } })).status, 403);
    const signout = await fetch(`${base}/api/auth/signout`, { method: "POST", headers: { cookie: jar.header(base), [CSRF_HEADER]: decodeURIComponent(jar.get(base, "mp_csrf")!) } });
    assert.equal(signout.status, 200);
  });

  test("the external account has no password here: the password form and a password reset refuse it", async () => {
    const alice = (await userNamed("alice"))!;
    assert.equal(alice.external, "oidc");
    await assert.rejects(auth.signIn("alice", "!external", "10.0.0.9", null), /wrong username or password/);
    assert.equal((await lastAudit()).outcome, "external-account");
    const admin = (await userNamed("admin"))!;
    await assert.rejects(auth.updateUser(admin.id, alice.id, { resetPassword: true }), /signs in through the identity provider/);
    await assert.rejects(auth.changePassword(alice.id, "!external", "a-new-password-123"), /signs in through the identity provider/);
  });

  test("a state from another sign-in is refused (login CSRF), as is a callback without the flow cookie", async () => {
    const victim = new CookieJar();
    await start(victim);
    const attacker = new CookieJar();
    const theirs = await signInAtIdp(attacker, (await start(attacker)).href, "alice", `${base}${OIDC_CALLBACK_PATH}`);
    const res = await callback(victim, theirs);
    assert.equal(res.headers.get("location"), "/signin?error=rejected");
    assert.ok(!res.headers.getSetCookie().some((c) => c.startsWith("mp_session=")));
    const a = await lastAudit();
    assert.deepEqual([a.outcome, a.detail?.method, a.detail?.reason], ["failed", "oidc", "rejected"]);
    assert.match(String(a.detail?.message), /state/);
    const none = await callback(new CookieJar(), theirs);
    assert.equal(none.headers.get("location"), "/signin?error=expired");
    // the sealed flow cookie cannot be altered: one changed character and the callback finds no flow
    const jar = new CookieJar();
    const back = await signInAtIdp(jar, (await start(jar)).href, "alice", `${base}${OIDC_CALLBACK_PATH}`);
    const sealed = jar.get(base, OIDC_FLOW_COOKIE)!;
    const i = sealed.indexOf(".") + 3;
    const forged = await fetch(back, { headers: { cookie: `${OIDC_FLOW_COOKIE}=${sealed.slice(0, i)}${sealed[i] === "A" ? "B" : "A"}${sealed.slice(i + 1)}` }, redirect: "manual" });
    assert.equal(forged.headers.get("location"), "/signin?error=expired");
    assert.equal((await callback(jar, back)).status, 303, "the untouched cookie still works");
    assert.ok(jar.get(base, "mp_session"), "and signs in");
  });

  test("the nonce and the issuer are checked: a changed nonce or a mixed-up issuer is refused", async () => {
    const jar = new CookieJar();
    const authz = await start(jar);
    authz.searchParams.set("nonce", "a-nonce-this-browser-never-chose-0123456789abc");
    const back = await signInAtIdp(jar, authz.href, "alice", `${base}${OIDC_CALLBACK_PATH}`);
    const res = await callback(jar, back);
    assert.equal(res.headers.get("location"), "/signin?error=rejected");
    assert.match(String((await lastAudit()).detail?.message), /nonce/);

    const jar2 = new CookieJar();
    const back2 = new URL(await signInAtIdp(jar2, (await start(jar2)).href, "alice", `${base}${OIDC_CALLBACK_PATH}`));
    assert.equal(back2.searchParams.get("iss"), idp.issuer, "the provider names itself (RFC 9207)");
    back2.searchParams.set("iss", "https://other-idp.example");
    const res2 = await callback(jar2, back2.href);
    assert.equal(res2.headers.get("location"), "/signin?error=rejected");
    assert.match(String((await lastAudit()).detail?.message), /iss/);
  });

  test("no mapped group: refused, never a default role, and no account is created", async () => {
    const jar = new CookieJar();
    const res = await callback(jar, await signInAtIdp(jar, (await start(jar)).href, "mark", `${base}${OIDC_CALLBACK_PATH}`));
    assert.equal(res.headers.get("location"), "/signin?error=no-role");
    assert.ok(!res.headers.getSetCookie().some((c) => c.startsWith("mp_session=")));
    const a = await lastAudit();
    assert.deepEqual([a.username, a.outcome, a.detail?.reason, a.detail?.values], ["mark", "no-role", "no-role", ["marketing"]]);
    assert.equal(await userNamed("mark"), undefined);
  });

  test("a provider name equal to a local account's never becomes that account; no open redirect", async () => {
    const jar = new CookieJar();
    const res = await callback(jar, await signInAtIdp(jar, (await start(jar, "//evil.example/x")).href, "admin", `${base}${OIDC_CALLBACK_PATH}`));
    assert.equal(res.headers.get("location"), "/");
    const me = (await (await browse(jar, `${base}/api/auth/me`)).json()) as { user: { username: string; role: string } };
    assert.deepEqual([me.user.username, me.user.role], ["admin-2", "reviewer"]);
    assert.equal((await userNamed("admin"))!.role, "supervisor", "the local break-glass supervisor is untouched");
    await auth.signIn("admin", "local-admin-password", "10.0.0.8", null);
  });

  test("a role change at the provider applies at the next sign-in; a disabled record stays disabled", async () => {
    const jar = new CookieJar();
    await callback(jar, await signInAtIdp(jar, (await start(jar)).href, "rita", `${base}${OIDC_CALLBACK_PATH}`));
    assert.equal((await userNamed("rita"))!.role, "reviewer");
    idp.setGroups("rita", ["t&s-leads"]);
    const jar2 = new CookieJar();
    await callback(jar2, await signInAtIdp(jar2, (await start(jar2)).href, "rita", `${base}${OIDC_CALLBACK_PATH}`));
    assert.equal((await userNamed("rita"))!.role, "supervisor");
    assert.equal((await lastAudit()).detail?.previousRole, "reviewer");
    const admin = (await userNamed("admin"))!;
    await auth.updateUser(admin.id, (await userNamed("rita"))!.id, { disabled: true });
    const jar3 = new CookieJar();
    const res = await callback(jar3, await signInAtIdp(jar3, (await start(jar3)).href, "rita", `${base}${OIDC_CALLBACK_PATH}`));
    assert.equal(res.headers.get("location"), "/signin?error=disabled");
    assert.equal((await userNamed("rita"))!.disabled, true);
    assert.deepEqual([(await lastAudit()).outcome, (await lastAudit()).username], ["disabled", "rita"]);
  });
});

async function userNamed(name: string) {
  return (await store.db.select().from(users).where(eq(users.username, name)).limit(1))[0];
}
