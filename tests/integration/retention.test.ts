import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { eq } from "drizzle-orm";
import { getRegistry } from "../../server/registry";
import { openStore } from "../../server/store/db";
import { measureDiskUse } from "../../server/store/disk-use";
import { RetentionJob } from "../../server/store/retention";
import { dashboardFiles, dashboardStreams, deliveries, deliveryAttempts, incidentDecisions, incidentHits, incidents, receivedCallbacks, tasks, type TaskRow } from "../../server/store/schema";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startTestService, TEST_KEY } from "../support/app";
import { startReceiver, storeBackends, waitFor } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test("after the retention, Query answers 1902 and media links stop working", async () => {
  // 0.003 h ≈ 11 s of retention
  const svc = await startTestService({ env: { RESULT_RETENTION_HOURS: "0.003" } });
  const web = await startStaticServer(mediaDir());
  try {
    const file = await makeVideo({ name: "plain", durationSec: 12, width: 640, height: 360, audio: "tone" });
    const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "v", imgType: "QRCODE", audioType: "NONE", data: { btId: "short-lived", url: `${web.url}/${path.basename(file)}`, returnAllImg: 1 } });
    assert.equal(ack.code, 1100);
    const done = await waitFor(async () => {
      const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "short-lived" });
      return q.code === 1100 ? (q as Json) : null;
    }, 60_000, 200);
    const img = done.frameDetail[0].imgUrl as string;
    assert.equal((await fetch(img)).status, 200);
    const gone = await waitFor(async () => {
      const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "short-lived" });
      return q.code === 1902 ? q : null;
    }, 30_000, 500);
    assert.match(gone.message as string, /retention|not found/);
    assert.equal((await fetch(img)).status, 403);
  } finally {
    await web.close();
    await svc.close();
  }
});

// ---- the retention job (docs/operations.md "Retention") ----

const HOUR = 3600_000;

/** A task row as the engine writes it; `ageH` hours old (accepted, last updated and expiry all in the past when > retention). */
function taskRow(requestId: string, o: { kind?: "video" | "videostream"; status: TaskRow["status"]; ageH: number; retentionH: number }): typeof tasks.$inferInsert {
  const at = new Date(Date.now() - o.ageH * HOUR);
  return {
    requestId,
    kind: o.kind ?? "video",
    keyId: "k",
    appId: "a",
    eventId: "e",
    btId: requestId,
    status: o.status,
    request: { callback: "http://127.0.0.1:9/cb" },
    result: o.status === "done" ? { code: 1100 } : null,
    progress: { framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0 },
    baseUrl: "http://127.0.0.1",
    createdAt: at,
    updatedAt: at,
    expiresAt: new Date(at.getTime() + o.retentionH * HOUR),
  };
}

async function mediaOf(dataDir: string, requestId: string, past = false): Promise<string> {
  const dir = path.join(dataDir, "media", requestId);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, "frame-00001.jpg"), Buffer.alloc(2048, 1));
  await fs.writeFile(path.join(dir, "seg001.wav"), Buffer.alloc(4096, 2));
  if (past) await fs.utimes(dir, new Date(Date.now() - 5 * HOUR), new Date(Date.now() - 5 * HOUR));
  return dir;
}

const exists = (p: string) => fs.stat(p).then(() => true, () => false);

for (const backend of storeBackends()) {
  test(`retention sweep (${backend.name}): expired, settled tasks go with everything stored for them; running, pending and fresh ones stay`, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "retention-"));
    const pgSchema = backend.databaseUrl ? `ret_${crypto.randomBytes(5).toString("hex")}` : undefined;
    const store = await openStore({ dataDir, databaseUrl: backend.databaseUrl, pgSchema });
    const db = store.db;
    try {
      const R = 1; // retention hours
      await db.insert(tasks).values([
        taskRow("old-done", { status: "done", ageH: 3, retentionH: R }),
        taskRow("old-ended", { kind: "videostream", status: "ended", ageH: 3, retentionH: R }),
        taskRow("old-pending-cb", { status: "done", ageH: 3, retentionH: R }),
        taskRow("old-running", { kind: "videostream", status: "running", ageH: 3, retentionH: R }),
        taskRow("old-processing", { status: "processing", ageH: 3, retentionH: R }),
        taskRow("fresh-done", { status: "done", ageH: 0, retentionH: R }),
      ]);
      const now = new Date();
      const past = new Date(Date.now() - 3 * HOUR);
      await db.insert(deliveries).values([
        { id: "msg_old", requestId: "old-done", seq: 1, url: "http://x/cb", body: "{}", schedule: "video", status: "delivered", attemptCount: 1, createdAt: past, updatedAt: past },
        { id: "msg_end", requestId: "old-ended", seq: 1, url: "http://x/cb", body: "{}", schedule: "videostream", status: "exhausted", attemptCount: 13, createdAt: past, updatedAt: past },
        { id: "msg_pending", requestId: "old-pending-cb", seq: 1, url: "http://x/cb", body: "{}", schedule: "video", status: "pending", attemptCount: 3, nextAttemptAt: now, createdAt: past, updatedAt: past },
        { id: "msg_fresh", requestId: "fresh-done", seq: 1, url: "http://x/cb", body: "{}", schedule: "video", status: "delivered", attemptCount: 1, createdAt: now, updatedAt: now },
      ]);
      await db.insert(deliveryAttempts).values(["msg_old", "msg_end", "msg_pending", "msg_fresh"].map((deliveryId) => ({ deliveryId, attempt: 1, at: past, httpStatus: 500, durationMs: 3 })));
      await db.insert(receivedCallbacks).values(["old-done", "old-ended", "fresh-done", "remote-old"].map((requestId) => ({ deliveryId: null, kind: "video", requestId, receivedAt: requestId.startsWith("fresh") ? now : past, body: {} })));
      const dashFile = (requestId: string, createdAt: Date) => ({ requestId, btId: requestId, url: "http://x/v.mp4", serviceBaseUrl: "http://x", receiverToken: `t-${requestId}`, status: "done" as const, createdAt });
      // remote-*: records of a remote service's tasks (no task row here)
      await db.insert(dashboardFiles).values([dashFile("old-done", past), dashFile("fresh-done", now), dashFile("remote-old", past), dashFile("remote-fresh", now)]);
      await db.insert(dashboardStreams).values({ requestId: "old-ended", kind: "video", url: "rtmp://x/live/a", serviceBaseUrl: "http://x", receiverToken: "t-s", status: "ended", startedAt: past, endedAt: past });
      // incidents of a deleted task, a deleted remote record and a kept task; decisions outlive them
      const incident = (requestId: string) => ({ id: `inc-${requestId}`, sourceKind: "file" as const, requestId, sourceRef: requestId, media: "frame" as const, label: "AD", labels: ["AD"], riskLevel: "REJECT" as const, timeBase: "offset" as const, startT: 0, endT: 5, hits: 1, peak: {}, peakScore: 0.9, status: "confirmed" as const, createdAt: past, updatedAt: past });
      await db.insert(incidents).values(["old-done", "remote-old", "fresh-done"].map(incident));
      await db.insert(incidentHits).values(["old-done", "remote-old", "fresh-done"].map((requestId) => ({ incidentId: `inc-${requestId}`, requestId, media: "frame", label: "AD", itemId: "1", t: 0, hit: {}, body: {} })));
      await db.insert(incidentDecisions).values(["old-done", "remote-old", "fresh-done"].map((requestId) => ({ incidentId: `inc-${requestId}`, decision: "confirmed", username: "rev", at: past })));
      const dirs = Object.fromEntries(await Promise.all(["old-done", "old-ended", "old-pending-cb", "old-running", "old-processing", "fresh-done"].map(async (id) => [id, await mediaOf(dataDir, id)] as const)));
      const orphanOld = await mediaOf(dataDir, "orphan-old", true);
      const orphanFresh = await mediaOf(dataDir, "orphan-fresh");

      const job = new RetentionJob({ store, mediaRoot: path.join(dataDir, "media"), retentionHours: R, sweepMinutes: 60 });
      const report = await job.sweep();
      assert.equal(report.error, undefined);
      assert.equal(report.tasks, 2);
      assert.equal(report.dashboardRecords, 1, "remote-old");
      assert.equal(report.mediaDirs, 3, "old-done, old-ended, orphan-old");
      assert.equal(report.bytes, 3 * (2048 + 4096));

      const ids = async <T>(rows: Promise<T[]>, key: keyof T) => new Set((await rows).map((r) => String(r[key])));
      assert.deepEqual(await ids(db.select().from(tasks), "requestId"), new Set(["old-pending-cb", "old-running", "old-processing", "fresh-done"]));
      assert.deepEqual(await ids(db.select().from(deliveries), "id"), new Set(["msg_pending", "msg_fresh"]));
      assert.deepEqual(await ids(db.select().from(deliveryAttempts), "deliveryId"), new Set(["msg_pending", "msg_fresh"]));
      assert.deepEqual(await ids(db.select().from(receivedCallbacks), "requestId"), new Set(["fresh-done"]));
      assert.deepEqual(await ids(db.select().from(dashboardFiles), "requestId"), new Set(["fresh-done", "remote-fresh"]));
      assert.equal((await db.select().from(dashboardStreams)).length, 0);
      assert.deepEqual(await ids(db.select().from(incidents), "requestId"), new Set(["fresh-done"]), "incidents go with their task or record");
      assert.deepEqual(await ids(db.select().from(incidentHits), "requestId"), new Set(["fresh-done"]));
      assert.equal((await db.select().from(incidentDecisions)).length, 3, "decisions are kept");
      for (const id of ["old-done", "old-ended"]) assert.equal(await exists(dirs[id]), false, `${id} media removed`);
      for (const id of ["old-pending-cb", "old-running", "old-processing", "fresh-done"]) assert.equal(await exists(path.join(dirs[id], "frame-00001.jpg")), true, `${id} media kept`);
      assert.equal(await exists(orphanOld), false);
      assert.equal(await exists(orphanFresh), true, "a media dir younger than the retention is kept even without a task");
      assert.deepEqual(job.status().lastSweep, report);

      // disk use by category sees what is left: 5 task dirs (frames + clips)
      const disk = await measureDiskUse(dataDir, store);
      assert.equal(disk.bytes.frames, 5 * 2048);
      assert.equal(disk.bytes.audioClips, 5 * 4096);
      assert.ok(disk.bytes.database > 0, "the database is counted");
      assert.ok(disk.volume && disk.volume.freeBytes > 0 && disk.volume.sizeBytes >= disk.volume.freeBytes);

      // the callback settles: the task goes at the next sweep
      await db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.id, "msg_pending"));
      const second = await job.sweep();
      assert.equal(second.tasks, 1);
      assert.equal(await exists(dirs["old-pending-cb"]), false);
    } finally {
      await store.close();
      if (pgSchema) {
        const { default: pg } = await import("pg");
        const c = new pg.Client({ connectionString: backend.databaseUrl! });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
        await c.end();
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}

test("the scheduled sweep deletes a finished file past the retention (rows, frames on disk), and the status reports it", async () => {
  // 0.0003 h ≈ 1 s of retention, a sweep every 0.6 s
  const svc = await startTestService({ env: { RESULT_RETENTION_HOURS: "0.0003", RETENTION_SWEEP_MINUTES: "0.01" } });
  const web = await startStaticServer(mediaDir());
  const rx = await startReceiver();
  try {
    const file = await makeVideo({ name: "plain", durationSec: 12, width: 640, height: 360, audio: "tone" });
    const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "v", imgType: "QRCODE", audioType: "NONE", callback: rx.url, data: { btId: "swept", url: `${web.url}/${path.basename(file)}`, returnAllImg: 1 } });
    assert.equal(ack.code, 1100);
    const requestId = ack.requestId as string;
    const dir = path.join(svc.dataDir, "media", requestId);
    const [cb] = await rx.until((r) => r.length >= 1, 60_000);
    assert.equal(cb.body.code, 1100, "processed and delivered while sweeps ran: in-progress work is never deleted");
    assert.ok((await fs.readdir(dir)).some((f) => f.endsWith(".jpg")));
    const db = svc.engine!.ctx.store.db;
    await waitFor(async () => (await db.select().from(tasks).where(eq(tasks.requestId, requestId))).length === 0 && !(await exists(dir)), 30_000, 200);
    assert.equal((await db.select().from(deliveries).where(eq(deliveries.requestId, requestId))).length, 0);
    const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "swept" });
    assert.equal(q.code, 1902);
    const status = await getRegistry().status.report();
    assert.equal(status.retention.retentionHours, 0.0003);
    assert.ok(status.retention.lastSweep && status.retention.nextSweepAt);
    assert.equal(status.disk.bytes.frames, 0, "no frame left on disk");
    assert.deepEqual(status.queues, { filesWaiting: 0, filesProcessing: 0, streamsRunning: 0, callbacksPending: 0 });
  } finally {
    await rx.close();
    await web.close();
    await svc.close();
  }
});
