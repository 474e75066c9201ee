// One dashboard node's review-queue work for tests/integration/queues-scale.test.ts: opens the shared PostgreSQL store
// (DATABASE_URL, a scratch schema) with the product's own incidents and queues modules, waits for "go" on stdin, then
// each of its reviewers (USERS) presses Start reviewing on QUEUE_ID and decides every incident it gets until the
// queue is empty, as the Review page does. Prints `claims {"user": [ids]}` and exits.
import os from "node:os";
import path from "node:path";
import { createIncidents } from "../../server/incidents";
import { mediaReader } from "../../server/incidents/media";
import { createQueues } from "../../server/queues";
import { openStore } from "../../server/store/db";

const store = await openStore({ dataDir: path.join(os.tmpdir(), "unused"), databaseUrl: process.env.DATABASE_URL! });
const log = (m: string) => console.error(m);
const incidents = createIncidents({ db: store.db, gapSec: 10, publish: () => undefined, readMedia: mediaReader({ mediaRoot: null, serviceOrigin: null }), log });
const queues = createQueues({ db: store.db, leaseSec: 60, detail: (id) => incidents.get(id), publish: () => undefined, log });
const users = process.env.USERS!.split(",");
const queueId = process.env.QUEUE_ID!;
console.log("ready");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));

const claims: Record<string, string[]> = {};
await Promise.all(
  users.map(async (username) => {
    claims[username] = [];
    for (;;) {
      const r = await queues.next(queueId, { username, role: "reviewer" });
      if (!r.ok) throw new Error(r.error);
      if (!r.incident) return;
      claims[username].push(r.incident.id);
      const d = await incidents.decideMany({ ids: [r.incident.id], decision: "confirmed" }, username);
      if (d.updated.length !== 1) throw new Error(`${username} could not decide ${r.incident.id}: ${JSON.stringify(d)}`);
    }
  }),
);
console.log(`claims ${JSON.stringify(claims)}`);
queues.close();
await store.close();
