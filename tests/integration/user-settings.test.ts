// Per-user settings on the server (issue 26.2/26.4): GET/PUT /api/me/settings follow the user (not the browser), the
// team default is a supervisor's to set and reaches reviewers, the exposure count counts REJECT incidents once a day.
// The real route handlers behind guard(), a real store, real sessions; no gate in front (the handlers check roles too).
import assert from "node:assert/strict";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { createAuth, type Auth } from "../../server/auth";
import { createAuthApi } from "../../server/auth/api";
import { accessRule } from "../../server/auth/access";
import { createIncidents } from "../../server/incidents";
import { setRegistry, type Registry } from "../../server/registry";
import { createSettingsApi } from "../../server/settings/api";
import { createSettingsStore } from "../../server/settings/store";
import { openStore, type Store } from "../../server/store/db";
import { incidents as incidentsTable } from "../../server/store/schema";
import { CSRF_HEADER, IDENTITY_HEADERS, type Role } from "../../lib/roles";
import type { MySettingsAnswer } from "../../lib/user-settings";

type Handler = (req: Request, ctx: unknown) => Promise<Response>;
type Caller = (method: string, route: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown> }>;

let store: Store;
let auth: Auth;
let dataDir: string;
const handlers = new Map<string, Record<string, Handler>>();

before(async () => {
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "user-settings-"));
  store = await openStore({ dataDir });
  auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: "supervisor-pass-1", log: () => undefined });
  await auth.bootstrap();
  const incidents = createIncidents({ db: store.db, gapSec: 10, publish: () => undefined, readMedia: async () => null, log: () => undefined });
  const settings = createSettingsApi({ store: createSettingsStore(store.db), incidentLevel: async (id) => (await incidents.get(id))?.riskLevel ?? null });
  setRegistry({ auth: createAuthApi(auth), incidents, settings } as unknown as Registry);
  for (const r of ["me/settings", "me/exposure", "settings/team"]) handlers.set(`/api/${r}`, (await import(path.resolve(`app/api/${r}/route.ts`))) as Record<string, Handler>);
  const now = new Date();
  const row = (id: string, riskLevel: "REJECT" | "REVIEW") => ({
    id, sourceKind: "stream" as const, requestId: "r1", sourceRef: "r1", title: "Lobby", url: null, media: "frame" as const, label: "ad", labels: ["Advertising: QR code"], riskLevel,
    timeBase: "epoch" as const, startT: 1, endT: 2, hits: 1, peak: {}, peakScore: 1, status: "open" as const, assignee: null, createdAt: now, updatedAt: now,
  });
  await store.db.insert(incidentsTable).values([row("inc-reject-1", "REJECT"), row("inc-reject-2", "REJECT"), row("inc-review", "REVIEW")]);
});

after(async () => {
  await store.close();
  await fsp.rm(dataDir, { recursive: true, force: true });
});

/** A signed-in user (one-time password replaced) calling the handlers with the identity the gate would hand on. */
async function signedIn(username: string, role: Role): Promise<Caller> {
  let password = "supervisor-pass-1";
  if (username !== "admin") {
    const created = await auth.createUser(username, role);
    const first = await auth.signIn(username, created.password, "127.0.0.1", null);
    password = `${username}-pass-123`;
    await auth.changePassword(first.user.id, created.password, password);
  } else {
    const first = await auth.signIn("admin", password, "127.0.0.1", null);
    if (first.user.mustChangePassword) {
      await auth.changePassword(first.user.id, password, "supervisor-pass-2");
      password = "supervisor-pass-2";
    }
  }
  const s = await auth.signIn(username, password, "127.0.0.1", null);
  const session = (await auth.session(s.cookie))!;
  return async (method, route, body) => {
    const h = handlers.get(route)![method];
    const res = await h(
      new Request(`http://x${route}`, {
        method,
        headers: { cookie: `mp_session=${encodeURIComponent(s.cookie)}`, [IDENTITY_HEADERS.id]: s.user.id, [IDENTITY_HEADERS.session]: session.id, [IDENTITY_HEADERS.role]: role, [IDENTITY_HEADERS.username]: username, [CSRF_HEADER]: s.csrfToken, "content-type": "application/json" },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      }),
      { params: Promise.resolve({}) },
    );
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

let sup: Caller;
let rev: Caller;
let rev2: Caller;
let mod: Caller;

test("each user reads their own settings: reviewers start blurred, a supervisor plain; a PUT merges and is kept per user", async () => {
  sup = await signedIn("admin", "supervisor");
  rev = await signedIn("rev1", "reviewer");
  rev2 = await signedIn("rev2", "reviewer");
  mod = await signedIn("mod1", "moderator");
  const r = (await rev("GET", "/api/me/settings")).json as unknown as MySettingsAnswer;
  assert.equal(r.settings.wellness.blur, true);
  assert.deepEqual(r.settings.alerts.levels, ["REJECT"]);
  assert.equal(((await sup("GET", "/api/me/settings")).json as unknown as MySettingsAnswer).settings.wellness.blur, false);

  const put = await rev("PUT", "/api/me/settings", { alerts: { sound: true, levels: ["REJECT", "REVIEW"], categories: ["ad"] } });
  assert.equal(put.status, 200);
  const put2 = await rev("PUT", "/api/me/settings", { wellness: { breakAfter: 2 } });
  const after = put2.json as unknown as MySettingsAnswer;
  assert.deepEqual(after.own, { alerts: { sound: true, levels: ["REJECT", "REVIEW"], categories: ["ad"] }, wellness: { breakAfter: 2 } });
  assert.equal(after.settings.alerts.sound, true);
  assert.equal(after.settings.wellness.breakAfter, 2);
  // a fresh read (another browser) sees the same; another reviewer is untouched
  assert.deepEqual(((await rev("GET", "/api/me/settings")).json as unknown as MySettingsAnswer).own, after.own);
  assert.equal(((await rev2("GET", "/api/me/settings")).json as unknown as MySettingsAnswer).settings.alerts.sound, false);
});

test("bad settings get a clear 400 and change nothing", async () => {
  for (const bad of [{ alerts: { sound: "loud" } }, { wellness: { breakAfter: -3 } }, { theme: "dark" }, "not json"]) {
    const res = await rev("PUT", "/api/me/settings", bad);
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(typeof res.json.error, "string");
  }
  assert.equal(((await rev("GET", "/api/me/settings")).json as unknown as MySettingsAnswer).settings.wellness.breakAfter, 2);
});

test("the team default: supervisors set it (audited by the gate's table), reviewers get it unless they chose otherwise; others may not set it", async () => {
  assert.equal(accessRule("PUT", "/api/settings/team").access, "users:manage");
  assert.equal(accessRule("PUT", "/api/settings/team").audit, "settings.team");
  assert.equal(accessRule("PUT", "/api/me/settings").audit, "settings.user");
  assert.equal((await rev("PUT", "/api/settings/team", { wellness: { blur: false } })).status, 403);
  assert.equal((await mod("PUT", "/api/settings/team", { wellness: { blur: false } })).status, 403);
  assert.equal((await sup("PUT", "/api/settings/team", { wellness: { blur: false, breakAfter: 30 } })).status, 200);
  assert.deepEqual((await rev2("GET", "/api/settings/team")).json, { team: { wellness: { blur: false, breakAfter: 30 } } });
  const r2 = (await rev2("GET", "/api/me/settings")).json as unknown as MySettingsAnswer;
  assert.equal(r2.settings.wellness.blur, false, "the team default reaches a reviewer");
  assert.equal(r2.settings.wellness.breakAfter, 30);
  await rev2("PUT", "/api/me/settings", { wellness: { blur: true } });
  assert.equal(((await rev2("GET", "/api/me/settings")).json as unknown as MySettingsAnswer).settings.wellness.blur, true, "the user's own choice wins");
  assert.equal((await sup("PUT", "/api/settings/team", { wellness: { blur: "no" } })).status, 400);
});

test("exposure: each REJECT incident counts once a day per user; REVIEW ones and unknown ids do not", async () => {
  const first = await rev("POST", "/api/me/exposure", { incidentId: "inc-reject-1" });
  assert.equal(first.status, 200);
  assert.deepEqual((first.json.exposure as { count: number }).count, 1);
  assert.equal(((await rev("POST", "/api/me/exposure", { incidentId: "inc-reject-1" })).json.exposure as { count: number }).count, 1, "seen again: still one");
  const review = await rev("POST", "/api/me/exposure", { incidentId: "inc-review" });
  assert.equal(review.json.counted, false);
  assert.equal((review.json.exposure as { count: number }).count, 1);
  assert.equal((await rev("POST", "/api/me/exposure", { incidentId: "nope" })).status, 404);
  assert.equal((await rev("POST", "/api/me/exposure", { incidentId: "../x" })).status, 400);
  assert.equal(((await rev("POST", "/api/me/exposure", { incidentId: "inc-reject-2" })).json.exposure as { count: number }).count, 2);
  assert.equal(((await rev("GET", "/api/me/settings")).json as unknown as MySettingsAnswer).exposure.count, 2);
  assert.equal(((await rev2("GET", "/api/me/settings")).json as unknown as MySettingsAnswer).exposure.count, 0, "per user");
});
