// Review queue claims across dashboard nodes (issue #26.3/#26.7): two real processes on one PostgreSQL store (a scratch
// schema), each with four reviewers working one queue at once (claim, decide, next) until it is empty: every incident
// is handed to exactly one reviewer and decided exactly once. Skipped, with the reason, without DATABASE_URL.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { sql } from "drizzle-orm";
import { scratchSchema } from "../support/scale";
import { feedHits, seedStreamSource } from "../support/seed-incidents";
import { createIncidents } from "../../server/incidents";
import { mediaReader } from "../../server/incidents/media";
import { createQueues } from "../../server/queues";
import { openStore, type Store } from "../../server/store/db";

const skip = process.env.DATABASE_URL ? false : "DATABASE_URL is not set: claims across nodes need a real PostgreSQL (.ci/run sets it)";
if (skip) console.log(`# skipping review queue claims across nodes: ${skip}`);
const INCIDENTS = 40;

let db: { url: string; drop: () => Promise<void> };
let store: Store;

before(async () => {
  if (skip) return;
  db = await scratchSchema("q");
  store = await openStore({ dataDir: path.join(os.tmpdir(), "unused"), databaseUrl: db.url });
});
after(async () => {
  if (skip) return;
  await store?.close();
  await db?.drop();
});

/** One node: resolves with its reviewers' claims once it has emptied the queue. */
function node(users: string[], queueId: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/queue-node.ts"], { env: { ...process.env, DATABASE_URL: db.url, USERS: users.join(","), QUEUE_ID: queueId }, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (b: Buffer) => void (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => void (out += b.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => (out.includes("ready\n") ? resolve() : undefined);
    child.stdout.on("data", check);
    child.once("exit", (code) => reject(new Error(`node exited (${code}) before ready: ${out}`)));
  });
  const done = new Promise<Record<string, string[]>>((resolve, reject) => {
    child.once("exit", (code) => {
      const m = /claims (\{.*\})/.exec(out);
      if (code === 0 && m) resolve(JSON.parse(m[1]) as Record<string, string[]>);
      else reject(new Error(`node exited (${code}): ${out.slice(-2000)}`));
    });
  });
  return { ready, done, go: () => child.stdin.end("go\n") };
}

test("two dashboard nodes, four reviewers each, one queue: every incident is claimed by one reviewer and decided once", { skip }, async () => {
  // wired as server/app.ts wires them: new incidents are routed by the queues
  const route = { to: async (_ids: string[]) => undefined as void };
  const incidents = createIncidents({ db: store.db, gapSec: 10, publish: () => undefined, readMedia: mediaReader({ mediaRoot: null, serviceOrigin: null }), log: () => undefined, route: (ids) => route.to(ids) });
  const queues = createQueues({ db: store.db, leaseSec: 60, detail: (id) => incidents.get(id), publish: () => undefined, log: () => undefined });
  route.to = queues.route;
  try {
    const made = await queues.create({ name: "Race", rule: { appIds: ["race-app"] }, order: "worst", roles: [], users: [] }, "lead");
    assert.ok(made.ok);
    const src = await seedStreamSource(store.db, { appId: "race-app" });
    await feedHits(incidents.feed, src, Array.from({ length: INCIDENTS }, (_, k) => ({ level: k % 4 === 0 ? "REJECT" : "REVIEW", label1: "ad", probability: 0.5 + (k % 10) / 20 })));
    assert.equal((await queues.counts())[made.queue.id]?.open, INCIDENTS);

    const a = node(["a1", "a2", "a3", "a4"], made.queue.id);
    const b = node(["b1", "b2", "b3", "b4"], made.queue.id);
    await Promise.all([a.ready, b.ready]);
    a.go();
    b.go();
    const claims = { ...(await a.done), ...(await b.done) };
    const all = Object.values(claims).flat();
    assert.equal(all.length, INCIDENTS, JSON.stringify(claims));
    assert.equal(new Set(all).size, INCIDENTS, "no incident handed to two reviewers");
    assert.ok(Object.entries(claims).filter(([u]) => u.startsWith("a")).some(([, ids]) => ids.length > 0) && Object.entries(claims).filter(([u]) => u.startsWith("b")).some(([, ids]) => ids.length > 0), `both nodes worked the queue: ${JSON.stringify(claims)}`);
    const decided = (await store.db.execute(sql`SELECT incident_id, count(*)::int AS n FROM incident_decisions GROUP BY incident_id`)) as unknown as { rows: Array<{ incident_id: string; n: number }> };
    assert.equal(decided.rows.length, INCIDENTS);
    assert.ok(decided.rows.every((r) => Number(r.n) === 1), "each decided once");
    assert.deepEqual((await queues.counts())[made.queue.id] ?? { open: 0 }, { open: 0 });
  } finally {
    queues.close();
  }
});
