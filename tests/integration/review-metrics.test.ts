// Team review metrics (issue 26 items 6–7): a known history (tests/support/seed-review-history.ts) on a real store
// (PGlite, or PostgreSQL with DATABASE_URL), read through the real route handlers of GET /api/metrics/review and
// /api/metrics/review.csv with real sessions: every figure is checked against the hand-worked values; a reviewer
// sees only their own decisions; a moderator is refused; bad parameters are a 400 naming the field.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { createAuth } from "../../server/auth";
import { createAuthApi } from "../../server/auth/api";
import { createReviewMetrics } from "../../server/metrics/review";
import { setRegistry, type Registry } from "../../server/registry";
import { openStore, type Store } from "../../server/store/db";
import { IDENTITY_HEADERS, type Role } from "../../lib/roles";
import type { ReviewMetrics } from "../../lib/review-metrics";
import { seedReviewHistory } from "../support/seed-review-history";

type Handler = (req: Request, ctx: unknown) => Promise<Response>;
const T0 = Date.parse("2026-11-20T08:00:00Z");
const H = 3_600_000;
const RANGE = `since=${new Date(T0).toISOString()}&until=${T0 / 1000 + 3 * 3600}&bucket=hour`;

describe("team review metrics over a seeded history", () => {
  let store: Store;
  let dataDir: string;
  let pgSchema: string | undefined;
  const headers = new Map<string, Record<string, string>>();
  let json: Handler;
  let csv: Handler;

  before(async () => {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "review-metrics-"));
    pgSchema = process.env.DATABASE_URL ? `t_${crypto.randomBytes(6).toString("hex")}` : undefined;
    store = await openStore({ dataDir, databaseUrl: process.env.DATABASE_URL ?? null, pgSchema });
    const auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: "supervisor-pass-1", log: () => undefined });
    await auth.bootstrap();
    setRegistry({ auth: createAuthApi(auth), reviewMetrics: createReviewMetrics({ db: store.db }) } as unknown as Registry);
    const signIn = async (username: string, password: string, role: Role) => {
      const s = await auth.signIn(username, password, "127.0.0.1", null);
      const info = (await auth.session(s.cookie))!;
      headers.set(username, { cookie: `mp_session=${encodeURIComponent(s.cookie)}`, [IDENTITY_HEADERS.id]: s.user.id, [IDENTITY_HEADERS.session]: info.id, [IDENTITY_HEADERS.role]: role, [IDENTITY_HEADERS.username]: username });
    };
    await signIn("admin", "supervisor-pass-1", "supervisor");
    for (const [name, role] of [["alice", "reviewer"], ["bob", "reviewer"], ["mod", "moderator"]] as const) {
      const { user, password } = await auth.createUser(name, role);
      await auth.changePassword(user.id, password, `${name}-pass-0001`);
      await signIn(name, `${name}-pass-0001`, role);
    }
    await seedReviewHistory(store.db, T0);
    json = ((await import(path.resolve("app/api/metrics/review/route.ts"))) as { GET: Handler }).GET;
    csv = ((await import(path.resolve("app/api/metrics/review.csv/route.ts"))) as { GET: Handler }).GET;
  });
  after(async () => {
    await store?.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
    if (pgSchema) {
      const { default: pg } = await import("pg");
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
      await c.end();
    }
  });

  const call = (h: Handler, who: string, query: string) => h(new Request(`http://x/api/metrics/review?${query}`, { headers: headers.get(who) }), {});
  const get = async (who: string, query = RANGE) => {
    const res = await call(json, who, query);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as ReviewMetrics;
  };
  const series = (s: ReviewMetrics["opened"]) => s.map((x) => [x.label, x.level, x.counts]);

  test("a supervisor sees the team's figures, each as worked out by hand", async () => {
    const m = await get("admin");
    assert.deepEqual(m.range, { since: "2026-11-20T08:00:00.000Z", until: "2026-11-20T11:00:00.000Z", bucket: "hour", buckets: ["2026-11-20T08:00:00.000Z", "2026-11-20T09:00:00.000Z", "2026-11-20T10:00:00.000Z"] });
    assert.deepEqual(m.scope, { kind: "team" });
    // opened: A, D (ad REVIEW), B (ad REJECT), C, E (porn REJECT); F and G before the range
    assert.deepEqual(series(m.opened), [["ad", "REVIEW", [1, 1, 0]], ["porn", "REJECT", [0, 1, 1]], ["ad", "REJECT", [1, 0, 0]]]);
    assert.equal(m.opened[0].labelName, "Advertising");
    // decided = first decision in the range: A 08:20, B 09:10, C 09:15 (bob; alice's later one does not count again), D 10:30
    assert.deepEqual(series(m.decided), [["ad", "REVIEW", [1, 0, 1]], ["ad", "REJECT", [0, 1, 0]], ["porn", "REJECT", [0, 1, 0]]]);
    // time to first decision: A 600 s, B 2400 s, C 600 s, D 3600 s → nearest-rank p50 600, p95 3600
    assert.deepEqual(m.timeToFirstDecision, {
      count: 4, p50Sec: 600, p95Sec: 3600,
      buckets: [{ count: 1, p50Sec: 600, p95Sec: 600 }, { count: 2, p50Sec: 600, p95Sec: 2400 }, { count: 1, p50Sec: 3600, p95Sec: 3600 }],
    });
    // backlog at 09:00 {F, B}, 10:00 {F, D}, 11:00 {F, E}; F (06:00) is the oldest throughout; E open since 10:10;
    // per queue at 11:00: the ads queue holds F, the default queue (never routed) E
    assert.deepEqual(m.backlog, {
      groupBy: "queue",
      groups: [{ key: "q-ads", name: "Advertising queue", open: 1, oldestOpenAgeSec: 5 * 3600 }, { key: "default", name: "Default", open: 1, oldestOpenAgeSec: 50 * 60 }],
      open: [2, 2, 2],
      oldestOpenAgeSec: [3 * 3600, 4 * 3600, 5 * 3600],
    });
    // decisions in the range (G's at 07:30 is before it)
    assert.deepEqual(m.reviewers, [
      { username: "alice", total: 3, confirmed: 2, cleared: 1, escalated: 0, counts: [1, 1, 1] },
      { username: "bob", total: 2, confirmed: 0, cleared: 1, escalated: 1, counts: [0, 1, 1] },
    ]);
    // overturn per hit: A's 3 REVIEW cleared; B one REJECT frame cleared on its own (bob), the other confirmed with
    // the incident; C confirmed (alice's latest decision overrides bob's clear); D escalated (no verdict); E/F open
    assert.deepEqual(
      m.overturn.map((o) => [o.label, o.level, o.judged, o.confirmed, o.cleared, o.escalated, o.rate]),
      [
        ["ad", "ALL", 5, 1, 4, 2, 0.8],
        ["ad", "REJECT", 2, 1, 1, 0, 0.5],
        ["ad", "REVIEW", 3, 0, 3, 2, 1],
        ["porn", "ALL", 2, 2, 0, 0, 0],
        ["porn", "REJECT", 1, 1, 0, 0, 0],
        ["porn", "REVIEW", 1, 1, 0, 0, 0],
      ],
    );
  });

  test("a reviewer sees only their own decisions; the shared intake and backlog stay the team's", async () => {
    const alice = await get("alice");
    assert.deepEqual(alice.scope, { kind: "reviewer", username: "alice" });
    assert.deepEqual(series(alice.decided), [["ad", "REJECT", [0, 1, 0]], ["ad", "REVIEW", [1, 0, 0]]]);
    assert.deepEqual(alice.reviewers.map((r) => r.username), ["alice"]);
    assert.deepEqual([alice.timeToFirstDecision.count, alice.timeToFirstDecision.p50Sec, alice.timeToFirstDecision.p95Sec], [2, 600, 2400]);
    assert.deepEqual(alice.overturn.filter((o) => o.level === "ALL").map((o) => [o.label, o.judged, o.cleared, o.rate]), [["ad", 4, 3, 0.75], ["porn", 2, 0, 0]]);
    assert.deepEqual(alice.opened, (await get("admin")).opened, "opened is the team's intake");
    const bob = await get("bob");
    assert.deepEqual(bob.reviewers, [{ username: "bob", total: 2, confirmed: 0, cleared: 1, escalated: 1, counts: [0, 1, 1] }]);
    assert.deepEqual(bob.overturn.map((o) => [o.label, o.level, o.judged, o.cleared, o.escalated, o.rate]), [["ad", "ALL", 1, 1, 2, 1], ["ad", "REJECT", 1, 1, 0, 1], ["ad", "REVIEW", 0, 0, 2, null]]);
    // asking for someone else's figures is refused; a supervisor may look at one reviewer
    const other = await call(json, "alice", `${RANGE}&reviewer=bob`);
    assert.equal(other.status, 403);
    assert.match(await other.text(), /only their own figures/);
    assert.deepEqual((await get("admin", `${RANGE}&reviewer=bob`)).reviewers, bob.reviewers);
    // a moderator has no review rights: refused by the handler's own check
    const mod = await call(json, "mod", RANGE);
    assert.equal(mod.status, 403);
  });

  test("bad parameters are a 400 naming the field; day buckets sum the same history", async () => {
    for (const [q, re] of [
      ["since=last-week", /since: an ISO 8601 time/],
      ["bucket=minute", /bucket: hour or day/],
      ["since=2026-01-01T00:00:00Z&until=2026-03-01T00:00:00Z&bucket=hour", /1416 hour buckets, at most 744/],
      [`since=${T0 / 1000}&until=${T0 / 1000}`, /since: must be before until/],
    ] as const) {
      const res = await call(json, "admin", q);
      assert.equal(res.status, 400, q);
      assert.match(((await res.json()) as { error: string }).error, re);
    }
    const day = await get("admin", `since=${T0 / 1000}&until=${(T0 + 3 * H) / 1000}&bucket=day`);
    assert.deepEqual(day.range.buckets, ["2026-11-20T00:00:00.000Z"]);
    assert.deepEqual(series(day.opened), [["ad", "REVIEW", [2]], ["porn", "REJECT", [2]], ["ad", "REJECT", [1]]]);
    assert.deepEqual(day.backlog.open, [2]);
  });

  test("CSV of each series: an attachment, one row per bucket and group; series required", async () => {
    const res = await call(csv, "admin", `${RANGE}&series=reviewers`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
    assert.match(res.headers.get("content-disposition") ?? "", /attachment; filename="review-reviewers-2026-11-20T08h\.csv"/);
    assert.equal(await res.text(), ["bucket_start,reviewer,decisions", "2026-11-20T08:00:00.000Z,alice,1", "2026-11-20T08:00:00.000Z,bob,0", "2026-11-20T09:00:00.000Z,alice,1", "2026-11-20T09:00:00.000Z,bob,1", "2026-11-20T10:00:00.000Z,alice,1", "2026-11-20T10:00:00.000Z,bob,1", ""].join("\r\n"));
    const overturn = await (await call(csv, "admin", `${RANGE}&series=overturn`)).text();
    assert.equal(overturn.split("\r\n")[1], "ad,Advertising,ALL,5,1,4,2,0.8");
    const ttd = await (await call(csv, "admin", `${RANGE}&series=time-to-decision`)).text();
    assert.equal(ttd.split("\r\n")[4], "all,4,600,3600");
    const backlog = await (await call(csv, "admin", `${RANGE}&series=backlog`)).text();
    assert.equal(backlog.split("\r\n")[3], "2026-11-20T11:00:00.000Z,all,All incidents,2,18000");
    for (const s of ["opened", "decided"]) assert.equal((await call(csv, "admin", `${RANGE}&series=${s}`)).status, 200);
    // a reviewer's CSV holds only their own decisions
    assert.doesNotMatch(await (await call(csv, "alice", `${RANGE}&series=reviewers`)).text(), /bob/);
    const missing = await call(csv, "admin", RANGE);
    assert.equal(missing.status, 400);
    assert.match(await missing.text(), /series: required/);
    assert.equal((await call(csv, "admin", `${RANGE}&series=all`)).status, 400);
  });
});
