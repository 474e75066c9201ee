// The Status page's cluster view (server/scale/cluster-status.ts) over a real store (PGlite here; the same SQL runs
// on PostgreSQL in scaled mode): each worker's load and whether its heartbeat is alive, each running live stream's
// holder, lease and state (held, handing over, waiting for a worker, closing), the cluster's queue depths.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { clusterQueues, clusterStatus } from "../../server/scale/cluster-status";
import { openStore, type Store } from "../../server/store/db";
import { dashboardStreams, streamHandovers, streamWorkers, tasks } from "../../server/store/schema";

let store: Store;
let dataDir = "";

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mod-cluster-status-"));
  store = await openStore({ dataDir, databaseUrl: null });
});
after(async () => {
  await store.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const ago = (sec: number) => new Date(Date.now() - sec * 1000);
const task = (requestId: string, kind: "videostream" | "audiostream" | "video", status: string, extra: Partial<typeof tasks.$inferInsert> = {}) => ({
  requestId, kind, keyId: "k", appId: "a", eventId: "e", status, request: { data: {} }, progress: {}, baseUrl: "http://127.0.0.1", createdAt: ago(60), updatedAt: ago(1), expiresAt: new Date(Date.now() + 3600_000), ...extra,
}) as typeof tasks.$inferInsert;

test("workers, every running stream with its holder and state, and the cluster's queues", async () => {
  const db = store.db;
  await db.insert(streamWorkers).values([
    { name: "w1", capacity: 4, held: 2, behind: 0, heartbeatAt: ago(0.5) },
    { name: "w2", capacity: 0, held: 1, behind: 1, heartbeatAt: ago(1) },
    { name: "gone", capacity: 4, held: 1, behind: 0, heartbeatAt: ago(120) },
  ]);
  const lease = (sec: number) => new Date(Date.now() + sec * 1000);
  await db.insert(tasks).values([
    task("held", "videostream", "running", { leaseOwner: "w1", leaseUntil: lease(8) }),
    task("handing", "videostream", "running", { leaseOwner: "w1", leaseUntil: lease(9) }),
    task("waiting", "audiostream", "running", { leaseOwner: "gone", leaseUntil: ago(30) }),
    task("closing", "videostream", "running", { leaseOwner: "w2", leaseUntil: lease(5), closeRequestedAt: ago(1) }),
    task("ended", "videostream", "ended", { leaseOwner: null }),
    task("file-q", "video", "queued"),
    task("file-p", "video", "processing"),
  ]);
  await db.insert(streamHandovers).values({ requestId: "handing", fromOwner: "w1", toOwner: "w2", createdAt: ago(1) });
  await db.insert(dashboardStreams).values({ requestId: "held", kind: "video", url: "rtmp://x/held", title: "Main stage", serviceBaseUrl: "http://127.0.0.1", receiverToken: "t", status: "running", startedAt: ago(60) });

  const c = await clusterStatus(db, 10);
  assert.deepEqual(c.workers.map((w) => [w.name, w.alive, w.held, w.capacity, w.behind]), [["gone", false, 1, 4, 0], ["w1", true, 2, 4, 0], ["w2", true, 1, 0, 1]]);
  const byId = Object.fromEntries(c.streams.map((s) => [s.requestId, s]));
  assert.deepEqual(Object.keys(byId).sort(), ["closing", "handing", "held", "waiting"], "running live streams only");
  assert.deepEqual([byId.held.state, byId.held.holder, byId.held.title, byId.held.kind], ["held", "w1", "Main stage", "video"]);
  assert.ok(byId.held.leaseLeftSec! > 5 && byId.held.leaseLeftSec! <= 8, String(byId.held.leaseLeftSec));
  assert.deepEqual([byId.handing.state, byId.handing.holder, byId.handing.handoverTo], ["handing over", "w1", "w2"]);
  assert.deepEqual([byId.waiting.state, byId.waiting.holder, byId.waiting.leaseLeftSec, byId.waiting.kind, byId.waiting.title], ["waiting for a worker", null, null, "audio", null]);
  assert.equal(byId.closing.state, "closing");

  assert.deepEqual(await clusterQueues(db, c.streams.length), { filesWaiting: 1, filesProcessing: 1, streamsRunning: 4, callbacksPending: 0 });
});
