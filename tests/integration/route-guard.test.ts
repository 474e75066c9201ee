// Defence in depth (security review #9.1): every dashboard route handler checks the caller's session, role
// and CSRF token itself, from the same role table as the gate, so a gate mistake alone never exposes data
// or an action. The handlers are called directly here, with no gate in front of them.
import assert from "node:assert/strict";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { createAuth, type Auth } from "../../server/auth";
import { createAuthApi } from "../../server/auth/api";
import { accessRule } from "../../server/auth/access";
import { gateMisses } from "../../server/auth/guard";
import { setRegistry, type Registry } from "../../server/registry";
import { openStore, type Store } from "../../server/store/db";
import { CSRF_HEADER, IDENTITY_HEADERS, can } from "../../lib/roles";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (req: Request, ctx: unknown) => Promise<Response>;

/** Every app/api/**\/route.ts with its route path ("/api/streams/[requestId]/close"). */
function routeFiles(): Array<{ file: string; route: string }> {
  return (fs.readdirSync("app/api", { recursive: true }) as string[])
    .filter((f) => f.endsWith("route.ts"))
    .map((f) => ({ file: path.join("app/api", f), route: `/api/${path.dirname(f)}`.replace(/\/\.$/, "") }));
}
const sample = (route: string) => route.replace(/\[[^\]]+\]/g, "x");
const params = (route: string) => ({ params: Promise.resolve(Object.fromEntries([...route.matchAll(/\[([^\]]+)\]/g)].map((m) => [m[1], "x"]))) });

let store: Store;
let auth: Auth;
let dataDir: string;

before(async () => {
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "route-guard-"));
  store = await openStore({ dataDir });
  auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: "supervisor-pass-1", log: () => undefined });
  await auth.bootstrap();
  // only the auth part is reached: a handler that refuses never touches the rest
  setRegistry({ auth: createAuthApi(auth) } as unknown as Registry);
});

after(async () => {
  await store.close();
  await fsp.rm(dataDir, { recursive: true, force: true });
});

test("every exported method of every route handler is wrapped by guard() with its own route path", () => {
  const files = routeFiles();
  assert.ok(files.length >= 20, "found the route handlers");
  for (const { file, route } of files) {
    const src = fs.readFileSync(file, "utf8");
    const exported = [...src.matchAll(/^export (?:async )?(?:const|function) (GET|HEAD|POST|PUT|PATCH|DELETE)\b(.*)$/gm)];
    assert.ok(exported.length > 0, `${file} exports a method`);
    for (const m of exported) assert.ok(m[2].startsWith(` = guard("${route}", `), `${file}: ${m[1]} is not guard("${route}", …)`);
  }
});

test("without a session, no protected handler runs: each refuses by itself (401/404, marked refused-by handler)", async () => {
  let checked = 0;
  const before = gateMisses();
  for (const { file, route } of routeFiles()) {
    const mod = (await import(path.resolve(file))) as Record<string, Handler>;
    for (const method of METHODS) {
      const h = mod[method];
      if (!h) continue;
      const rule = accessRule(method, sample(route));
      if (rule.access === "public") continue;
      const res = await h(new Request(`http://x${sample(route)}`, { method, headers: { "content-type": "application/json", [IDENTITY_HEADERS.role]: "supervisor", [IDENTITY_HEADERS.id]: "forged" }, body: method === "GET" || method === "HEAD" ? undefined : JSON.stringify({ username: "evil", role: "supervisor" }) }), params(route));
      assert.ok([401, 404].includes(res.status), `${method} ${route}: ${res.status}`);
      assert.equal(res.headers.get("x-mp-refused-by"), "handler");
      checked++;
    }
  }
  assert.ok(checked >= 20, `checked ${checked} protected handlers`);
  assert.equal(gateMisses() - before, checked, "each refusal is counted as a gate miss");
  assert.equal((await auth.listUsers()).length, 1, "no account was created");
});

test("with a session: role, one-time password, CSRF token and body size are checked by the handler too", async () => {
  const { password } = await auth.createUser("mod1", "moderator");
  const s = await auth.signIn("mod1", password, "127.0.0.1", null);
  await auth.changePassword(s.user.id, password, "moderator-pass-1");
  const m = await auth.signIn("mod1", "moderator-pass-1", "127.0.0.1", null);
  const session = (await auth.session(m.cookie))!;
  const headers = (extra: Record<string, string> = {}) => ({ cookie: `mp_session=${encodeURIComponent(m.cookie)}`, [IDENTITY_HEADERS.id]: m.user.id, [IDENTITY_HEADERS.session]: session.id, [IDENTITY_HEADERS.role]: "moderator", "content-type": "application/json", ...extra });
  const users = (await import(path.resolve("app/api/users/route.ts"))) as Record<string, Handler>;
  const created = await users.POST(new Request("http://x/api/users", { method: "POST", headers: headers({ [CSRF_HEADER]: m.csrfToken }), body: JSON.stringify({ username: "evil2", role: "supervisor" }) }), params("/api/users"));
  assert.equal(created.status, 403, "a moderator may not create accounts");
  assert.ok(!can("moderator", "users:manage"));
  const close = (await import(path.resolve("app/api/streams/[requestId]/close/route.ts"))) as Record<string, Handler>;
  assert.equal((await close.POST(new Request("http://x/api/streams/x/close", { method: "POST", headers: headers({ [CSRF_HEADER]: m.csrfToken }) }), params("/api/streams/[requestId]/close"))).status, 403, "moderators may not Close");
  const files = (await import(path.resolve("app/api/files/route.ts"))) as Record<string, Handler>;
  const noCsrf = await files.POST(new Request("http://x/api/files", { method: "POST", headers: headers(), body: "{}" }), params("/api/files"));
  assert.equal(noCsrf.status, 403, "no CSRF token");
  assert.match(await noCsrf.text(), /CSRF/);
  const big = await files.POST(new Request("http://x/api/files", { method: "POST", headers: headers({ [CSRF_HEADER]: m.csrfToken, "content-length": String(65 * 1024) }), body: "{}" }), params("/api/files"));
  assert.equal(big.status, 413, "a JSON body over 64 KB is refused");
  // a session whose identity headers are not the gate's reading of this very session
  const forged = await files.GET(new Request("http://x/api/files", { headers: headers({ [IDENTITY_HEADERS.session]: "other" }) }), params("/api/files"));
  assert.equal(forged.status, 401);
  assert.equal((await auth.listUsers()).some((u) => u.username === "evil2"), false);
});
