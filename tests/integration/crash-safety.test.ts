// Crash safety (docs/operations.md "Crash safety"): the real server runs as a child process, is killed with
// SIGKILL while (a) a file is being processed, (b) a callback is failing and being retried, (c) a live stream
// runs, then restarted on the same DATA_DIR / database. Every request accepted before the kill must end in a
// delivered result (or a documented stream-end), duplicates carrying the same webhook-id and body.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { asc } from "drizzle-orm";
import { openStore } from "../../server/store/db";
import { deliveries, tasks } from "../../server/store/schema";
import { initialStreamState } from "../../server/task/stream-task";
import { startTestService, TEST_KEY } from "../support/app";
import { freePort, startChildServer, type ChildServer } from "../support/child-server";
import { startRtmpSource } from "../support/live-sources";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor, type Received } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const fileRequest = (btId: string, url: string, callback: string) => ({ accessKey: TEST_KEY, appId: "crash", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback, data: { btId, url, detectFrequency: 1, returnAllImg: 1 } });
const webhookId = (r: Received) => String(r.headers["webhook-id"]);
const frameIndex = (r: Received) => Number(/_v(\d+)$/.exec(String(r.body.requestId))?.[1]);
const isFrame = (r: Received) => r.body.statCode === 0 && r.body.contentType === 1;
const isEnd = (r: Received) => r.body.statCode === 1;

/** Each distinct delivery once (the first time it arrived); asserts every repeat carried the same body. */
function distinct(received: Received[]): Received[] {
  const seen = new Map<string, Received>();
  for (const r of received) {
    const first = seen.get(webhookId(r));
    if (first) assert.deepEqual(r.body, first.body, `a repeated webhook-id ${webhookId(r)} carries the same body`);
    else seen.set(webhookId(r), r);
  }
  return [...seen.values()];
}

/** A PostgreSQL schema of its own for one run (dropped after), or null for the embedded PGlite. */
async function pgSchemaUrl(databaseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import("pg");
  const schema = `crash_${crypto.randomBytes(5).toString("hex")}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const u = new URL(databaseUrl);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return { url: u.toString(), drop: () => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) };
}

/** Reads the store of a killed server (the process is gone, so opening PGlite here is safe). */
async function inspect(dataDir: string, databaseUrl: string | null) {
  const store = await openStore({ dataDir, databaseUrl });
  try {
    const rows = await store.db.select().from(tasks);
    const outbox = await store.db.select().from(deliveries).orderBy(asc(deliveries.requestId), asc(deliveries.seq));
    return { tasks: new Map(rows.map((r) => [r.requestId, r])), outbox };
  } finally {
    await store.close();
  }
}

// both backends run every case, the live-stream ones included; a backend that is missing is a counted skip
const backends: Array<{ name: string; databaseUrl: string | null; stream: boolean }> = [{ name: "PGlite", databaseUrl: null, stream: true }];
if (process.env.DATABASE_URL) backends.push({ name: "PostgreSQL", databaseUrl: process.env.DATABASE_URL, stream: true });
else test("kill -9 and restart (PostgreSQL)", { skip: "DATABASE_URL is not set" }, () => undefined);

for (const backend of backends) {
  describe(`kill -9 and restart (${backend.name})`, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "crash-"));
    const pg = backend.databaseUrl ? await pgSchemaUrl(backend.databaseUrl) : null;
    const databaseUrl = pg?.url ?? null;
    // one port for both runs: links handed out before the kill (imgUrl) stay valid after the restart
    const env = { PORT: String(await freePort()), CALLBACK_RETRY_TIME_SCALE: "0.05", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
    const web = await startStaticServer(mediaDir());
    const rxFile = await startReceiver();
    const failing = Array.from({ length: 10_000 }, () => 500);
    const rxRetry = await startReceiver(failing);
    const rxStream = await startReceiver();
    const rxClosed = await startReceiver();
    const longFile = await makeVideo({ name: "crash-long", durationSec: 60, width: 480, height: 270, fps: 5, audio: "none" });
    const shortFile = await makeVideo({ name: "crash-short", durationSec: 3, width: 320, height: 240, fps: 10, audio: "none" });
    const src = backend.stream ? await startRtmpSource({ name: "crash-live", audio: "none" }) : null;
    let server: ChildServer | null = await startChildServer({ dataDir, env });
    after(async () => {
      await server?.stop();
      await Promise.all([web.close(), rxFile.close(), rxRetry.close(), rxStream.close(), rxClosed.close(), src?.close()]);
      await pg?.drop().catch(() => undefined);
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    // (b) first: a short file whose callback fails (HTTP 500) and is being retried
    const retryAck = await server.post("/video/v4", fileRequest("crash-retry", `${web.url}/${path.basename(shortFile)}`, rxRetry.url));
    assert.equal(retryAck.code, 1100, JSON.stringify(retryAck));
    // (c) a live stream with every frame called back
    const streamAck = src
      ? await server.post("/videostream/v4", { accessKey: TEST_KEY, appId: "crash", eventId: "live", imgType: "QRCODE", audioType: "NONE", imgCallback: rxStream.url, data: { streamType: "NORMAL", url: src.rtmpUrl, tokenId: "u1", detectFrequency: 1, returnAllImg: 1, returnFinishInfo: 1 } })
      : null;
    if (streamAck) assert.equal(streamAck.code, 1100, JSON.stringify(streamAck));
    // (d) a second stream (the same source over HTTP-FLV), to be closed while the server restarts
    const closedAck = src
      ? await server.post("/videostream/v4", { accessKey: TEST_KEY, appId: "crash", eventId: "live", imgType: "QRCODE", audioType: "NONE", imgCallback: rxClosed.url, data: { streamType: "NORMAL", url: src.flvUrl, tokenId: "u2", detectFrequency: 1, returnAllImg: 1, returnFinishInfo: 1 } })
      : null;
    if (closedAck) assert.equal(closedAck.code, 1100, JSON.stringify(closedAck));
    await rxRetry.until((r) => r.length >= 2, 60_000);
    if (src) await rxStream.until((r) => r.filter(isFrame).length >= 2, 60_000);
    if (src) await rxClosed.until((r) => r.some(isFrame), 60_000);
    // (a) a file long enough (60 frames) to be killed in the middle of its processing
    const fileAck = await server.post("/video/v4", fileRequest("crash-long", `${web.url}/${path.basename(longFile)}`, rxFile.url));
    assert.equal(fileAck.code, 1100, JSON.stringify(fileAck));
    const fileId = fileAck.requestId as string;
    const retryId = retryAck.requestId as string;
    const streamId = streamAck?.requestId as string | undefined;
    const closedId = closedAck?.requestId as string | undefined;
    // the long file is under way: frames are on disk, no result yet
    await waitFor(async () => (await fs.readdir(path.join(dataDir, "media", fileId)).catch(() => [])).filter((f) => f.endsWith(".jpg")).length >= 3, 60_000, 50);
    assert.equal(rxFile.received.length, 0, `killed before the long file finished: ${JSON.stringify(rxFile.received[0]?.body ?? null).slice(0, 300)}`);
    await server.kill9();
    server = null;

    const before = await inspect(dataDir, databaseUrl);
    const framesBefore = distinct(rxStream.received).filter(isFrame);
    const retryFailuresBefore = rxRetry.received.length;

    test("at the kill: the file was processing, the callback pending, the stream running", () => {
      assert.equal(before.tasks.get(fileId)?.status, "processing");
      const pending = before.outbox.filter((d) => d.requestId === retryId);
      assert.equal(pending.length, 1);
      assert.equal(pending[0].status, "pending");
      assert.ok(pending[0].attemptCount >= 1);
      if (streamId) assert.equal(before.tasks.get(streamId)?.status, "running");
      if (closedId) assert.equal(before.tasks.get(closedId)?.status, "running");
    });

    const restarting = startChildServer({ dataDir, env });
    // (d) Close sent as soon as the restarted server accepts connections: it listens before it has loaded its
    // models and resumed its tasks, so this Close usually reaches a stream this process does not run yet
    const closedDuringRestart = closedId
      ? await waitFor(
          () =>
            fetch(`http://127.0.0.1:${env.PORT}/finish_videostream/v4`, { method: "POST", body: JSON.stringify({ accessKey: TEST_KEY, requestId: closedId }) })
              .then((r) => r.json() as Promise<Json>)
              .catch(() => null),
          90_000,
          20,
        )
      : null;
    server = await restarting;
    const live = server;
    // (b) first: its retry schedule keeps running while the others are checked

    test("(b) a callback that was failing at the kill is retried after the restart and delivered once the receiver answers 200", async () => {
      // retries resume after the restart (still failing) …
      await rxRetry.until((r) => r.length > retryFailuresBefore, 30_000);
      failing.length = 0; // … then the receiver recovers
      const all = await rxRetry.until((r) => r.some((x) => x.status === 200), 60_000);
      const ok = all.find((x) => x.status === 200)!;
      assert.equal((ok.body as Json).requestId, retryId);
      assert.equal((ok.body as Json).code, 1100);
      // every attempt, before and after the kill, is the same delivery: same webhook-id, same body
      assert.equal(distinct(all).length, 1);
      assert.ok(all.every((x) => webhookId(x) === webhookId(ok)));
      assert.ok(all.filter((x) => x.status === 500).length >= 2);
    });

    test("(a) a file killed mid-processing finishes after the restart; its result is delivered and queryable", async () => {
      const [cb] = await rxFile.until((r) => r.length >= 1, 60_000);
      const body = cb.body as Json;
      assert.equal(body.code, 1100);
      assert.equal(body.requestId, fileId);
      assert.equal(body.btId, "crash-long");
      assert.ok(body.frameDetail.length >= 55, `every frame of the 60 s file (got ${body.frameDetail.length})`);
      assert.equal((await fetch(body.frameDetail[0].imgUrl)).status, 200);
      const q = (await live.post("/video/query/v4", { accessKey: TEST_KEY, btId: "crash-long" })) as Json;
      assert.equal(q.code, 1100);
      assert.equal(q.requestId, fileId);
      assert.deepEqual(
        q.frameDetail.map((f: Json) => f.imgUrl),
        body.frameDetail.map((f: Json) => f.imgUrl),
      );
      assert.equal(distinct(rxFile.received).length, 1, "one result, one delivery id");
    });

    if (src && streamId) {
      test("(c) a live stream resumes after the restart with consistent frame ids; after Close nothing more", async () => {
        const maxBefore = Math.max(...framesBefore.map(frameIndex));
        await rxStream.until((r) => distinct(r).filter(isFrame).some((x) => frameIndex(x) > maxBefore + 1), 60_000);
        const close = await live.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: streamId });
        assert.equal(close.code, 1100);
        const all = await rxStream.until((r) => r.some(isEnd), 30_000);
        const end = all.find(isEnd)!.body as Json;
        assert.equal(end.requestId, streamId);
        assert.equal(end.pullStreamSuccess, true);
        assert.equal(end.auxInfo.errorCode, undefined, "Close, not a pull failure");

        // frames: one delivery per index, ids strictly increasing in arrival order, across the restart
        const frames = distinct(rxStream.received).filter(isFrame);
        const indexes = frames.map(frameIndex);
        assert.equal(new Set(indexes).size, indexes.length, `no frame index was reused after the restart: ${indexes.join(",")}`);
        assert.deepEqual([...indexes].sort((a, b) => a - b), indexes, "frame ids only grow");
        assert.ok(indexes.some((i) => i > maxBefore), "frames arrived after the restart");
      });

      test("(d) a Close that arrives while the server restarts ends the stream with its stream-end; it is not resumed", async (t) => {
        assert.equal(closedDuringRestart?.code, 1100, JSON.stringify(closedDuringRestart));
        const all = await rxClosed.until((r) => r.some(isEnd), 30_000);
        const end = all.find(isEnd)!.body as Json;
        assert.equal(end.requestId, closedId);
        assert.equal(end.pullStreamSuccess, true);
        assert.equal(end.auxInfo.errorCode, undefined);
        t.diagnostic(/resumed 2 live stream/.test(live.output()) ? "the Close came after resume()" : "the Close came before resume() (the stream was ended without being resumed)");
      });

    }

    test("every request accepted before the kill is settled and delivered; nothing is queued after a stream-end", async () => {
      await live.stop(); // nothing can be sent after this; the outbox then tells what was ever queued
      const after = await inspect(dataDir, databaseUrl);
      for (const id of [fileId, retryId]) {
        assert.equal(after.tasks.get(id)?.status, "done", id);
        assert.ok(after.outbox.filter((d) => d.requestId === id).every((d) => d.status === "delivered"), id);
      }
      if (!streamId || !closedId) return;
      for (const [id, rx] of [[streamId, rxStream], [closedId, rxClosed]] as const) {
        const rows = after.outbox.filter((d) => d.requestId === id);
        assert.equal(after.tasks.get(id)?.status, "ended");
        assert.equal(after.tasks.get(id)?.state?.endReason, "closed");
        const endRows = rows.filter((d) => (JSON.parse(d.body) as Json).statCode === 1);
        assert.equal(endRows.length, 1, "one stream-end");
        assert.equal(rows.at(-1)!.id, endRows[0].id, "the stream-end was the last thing queued for the stream");
        assert.ok(rows.every((d) => d.status === "delivered"), "every frame result and the stream-end were delivered");
        // whatever was received is what was queued (no delivery lost, none invented)
        assert.deepEqual(new Set(distinct(rx.received).map(webhookId)), new Set(rows.map((d) => d.id)));
      }
    });
  });
}

test("interrupted ends: a stream's end is completed at restart without pulling (only the stream-ends not yet queued); a file result stored without its callback gets it queued", async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "crash-end-"));
  const rx = await startReceiver();
  // the store as a crash left it: two tasks still "running" whose end reason was already stored;
  // for "queued" the stream-end was in the outbox too, for "unqueued" not yet
  const store = await openStore({ dataDir });
  const at = new Date();
  for (const id of ["queued", "unqueued"]) {
    await store.db.insert(tasks).values({
      requestId: id,
      kind: "videostream",
      keyId: "k",
      appId: "crash",
      eventId: "live",
      status: "running",
      // a source nobody serves: a pull would fail and end the task a second time, with errorCode 3001
      request: { imgType: "QRCODE", audioType: "NONE", imgCallback: `${rx.url}?task=${id}`, data: { streamType: "NORMAL", url: "rtmp://127.0.0.1:9/live/none", returnFinishInfo: 1 } },
      progress: { framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0 },
      baseUrl: "http://127.0.0.1",
      identity: `NORMAL:${id}`,
      state: { ...initialStreamState(), nextFrameIndex: 7, gotFrame: true, streamTimeSec: 6, endReason: "closed" },
      createdAt: at,
      updatedAt: at,
      expiresAt: new Date(at.getTime() + 3600_000),
    });
  }
  const preBody = JSON.stringify({ code: 1100, message: "ok", requestId: "queued", statCode: 1, contentType: 1, riskLevel: "PASS", pullStreamSuccess: true, auxInfo: { streamTime: 6 } });
  // a file whose result was stored just before the crash, its callback not yet queued
  const stored = { code: 1100, message: "ok", requestId: "lost-cb", btId: "lost", riskLevel: "PASS", frameDetail: [] };
  await store.db.insert(tasks).values({ requestId: "lost-cb", kind: "video", keyId: "k", appId: "crash", eventId: "video", btId: "lost", status: "done", request: { callback: `${rx.url}?task=lost-cb`, data: { btId: "lost" } }, result: stored, resultCode: 1100, progress: { framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0 }, baseUrl: "http://127.0.0.1", runCount: 1, createdAt: at, updatedAt: at, expiresAt: new Date(at.getTime() + 3600_000) });
  await store.db.insert(deliveries).values({ id: "msg_before_crash", requestId: "queued", seq: 1, url: `${rx.url}?task=queued`, body: preBody, schedule: "videostream", status: "pending", attemptCount: 0, nextAttemptAt: at, createdAt: at, updatedAt: at });
  await store.close();

  const svc = await startTestService({ dataDir });
  try {
    const db = svc.engine!.ctx.store.db;
    await waitFor(async () => {
      const rows = await db.select().from(tasks);
      const outbox = await db.select().from(deliveries);
      return rows.every((r) => r.status === "ended" || r.status === "done") && outbox.length === 3 && outbox.every((d) => d.status === "delivered");
    }, 30_000);
    const file = distinct(rx.received).filter((r) => r.body.requestId === "lost-cb");
    assert.equal(file.length, 1);
    assert.deepEqual(file[0].body, stored, "the callback carries the stored result, as Query does");
    const ends = distinct(rx.received).filter((r) => r.body.requestId !== "lost-cb");
    assert.equal(ends.length, 2, "one stream-end per task, no second one");
    assert.ok(ends.every(isEnd), "no frame: nothing was pulled");
    const byTask = new Map(ends.map((r) => [r.body.requestId, r]));
    assert.equal(webhookId(byTask.get("queued")!), "msg_before_crash", "the stream-end queued before the crash is the one delivered");
    const fresh = byTask.get("unqueued")!.body as Json;
    assert.equal(fresh.auxInfo.errorCode, undefined, "the stored reason (closed), not a pull failure");
    assert.equal(fresh.pullStreamSuccess, true);
    assert.equal(fresh.auxInfo.streamTime, 6);
  } finally {
    await svc.close();
    await rx.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
