// Scaled mode, files (#14): an API node (no file work) and two `npm run worker` processes as real child processes on
// real Redis (BullMQ) and PostgreSQL, sharing DATA_DIR. Files spread over both workers; a worker killed with -9
// mid-file → the other runs it and it is called back exactly once. Skipped, with the reason, without both URLs.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import { startTestService, TEST_KEY } from "../support/app";
import type { ChildServer } from "../support/child-server";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor } from "../support/net";
import { pgAdmin as admin, scaleSkip as skip, scratchSchema, startScaleWorker } from "../support/scale";
import { deliveries, tasks } from "../../server/store/schema";

const { REDIS_URL } = process.env;
if (skip) console.log(`# skipping scaled-mode file tests: ${skip}`);

let schema = "";
let dropSchema: () => Promise<void> = async () => undefined;
const prefix = `test-${crypto.randomBytes(4).toString("hex")}`;
let dataDir = "";
let dbUrl = "";
let api: Awaited<ReturnType<typeof startTestService>>;
const workers: ChildServer[] = [];
let web: Awaited<ReturnType<typeof startStaticServer>>;
let rx: Awaited<ReturnType<typeof startReceiver>>;

const startWorker = (name: string) => startScaleWorker({ dataDir, databaseUrl: dbUrl, name, env: { QUEUE_PREFIX: prefix, FILE_JOB_LOCK_SEC: "10" } });

/** requestIds a worker says it took from the queue. */
const taken = (w: ChildServer) => [...w.output().matchAll(/file (\S+): taken from the queue/g)].map((m) => m[1]);

before(async () => {
  if (skip) return;
  const db = await scratchSchema();
  [schema, dropSchema, dbUrl] = [db.schema, db.drop, db.url];
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mod-scale-"));
  // the API node: v4 endpoints, no file work (WORKER unset in scaled mode)
  api = await startTestService({ databaseUrl: dbUrl, dataDir, env: { REDIS_URL: REDIS_URL!, QUEUE_PREFIX: prefix, FILE_JOB_LOCK_SEC: "10" } });
  workers.push(...(await Promise.all([startWorker("w1"), startWorker("w2")])));
  // the API node sees both workers on the queue before the first file
  await waitFor(async () => (await api.engine!.files.refusal()) === null || null, 30_000, 100);
  web = await startStaticServer(mediaDir());
  rx = await startReceiver();
});

after(async () => {
  if (skip) return;
  await Promise.all(workers.map((w) => w.stop()));
  await api?.close();
  await web?.close();
  await rx?.close();
  await dropSchema();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const submit = async (file: string, btId: string, extra: Record<string, unknown> = {}) => {
  const ack = await api.post("/video/v4", { accessKey: TEST_KEY, appId: "scale", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback: `${rx.url}/cb`, data: { btId, url: `${web.url}/${path.basename(file)}`, ...extra } });
  assert.equal(ack.code, 1100, JSON.stringify(ack));
  return String(ack.requestId);
};

test("files go through the queue to both workers, none on the API node; each called back once with its result", { skip, timeout: 240_000 }, async () => {
  const file = await makeVideo({ name: "scale-qr-8s", durationSec: 8, audio: "none", qr: { text: "https://spam.example/scale", fromSec: 0, toSec: 8 } });
  const ids = await Promise.all(["a", "b", "c", "d"].map((k) => submit(file, `scale-${k}`)));
  await rx.until((r) => ids.every((id) => r.some((x) => x.body.requestId === id)), 180_000);
  for (const id of ids) {
    const cbs = rx.received.filter((x) => x.body.requestId === id);
    assert.equal(cbs.length, 1, `${id}: ${cbs.length} callbacks`);
    const body = cbs[0].body as { code: number; result?: { frames?: Array<{ riskLevel: string }> } };
    assert.equal(body.code, 1100, JSON.stringify(body).slice(0, 300));
  }
  for (const [k, id] of ids.entries()) {
    const q = await api.post("/video/query/v4", { accessKey: TEST_KEY, btId: `scale-${"abcd"[k]}` });
    assert.equal(q.code, 1100, JSON.stringify(q).slice(0, 300));
    assert.equal(q.requestId, id);
  }
  const byWorker = workers.map((w) => taken(w).filter((id) => ids.includes(id)));
  assert.ok(byWorker.every((list) => list.length >= 1), `spread: ${JSON.stringify(byWorker)}`);
  assert.equal(byWorker.flat().length, ids.length, `each file taken once: ${JSON.stringify(byWorker)}`);
});

test("a worker killed with -9 mid-file: the other takes the job and the file is called back exactly once", { skip, timeout: 240_000 }, async () => {
  // long enough to be mid-run when killed: 40 frames at one a second on one detector thread
  const file = await makeVideo({ name: "scale-long-40s", durationSec: 40, audio: "tone", qr: { text: "https://spam.example/scale-long", fromSec: 30, toSec: 40 } });
  const id = await submit(file, "scale-kill", { detectFrequency: 1 });
  const victim = await waitFor(async () => workers.find((w) => taken(w).includes(id)) ?? null, 60_000, 50);
  // mid-file: it has started extracting frames (the file's media directory holds some) and has not finished
  await waitFor(async () => (await fs.readdir(path.join(dataDir, "media", id)).catch(() => [] as string[])).some((f) => f.endsWith(".jpg")), 60_000, 50);
  assert.ok(!/finished here/.test(victim.output().split(`file ${id}: taken`)[1] ?? ""), "the victim had not finished yet");
  const survivor = workers.find((w) => w !== victim)!;
  await victim.kill9();
  await waitFor(async () => taken(survivor).includes(id), 60_000, 100);
  const [cb] = await rx.until((r) => r.some((x) => x.body.requestId === id), 180_000).then((r) => r.filter((x) => x.body.requestId === id));
  assert.equal(cb.body.code, 1100, JSON.stringify(cb.body).slice(0, 300));
  assert.match(JSON.stringify(cb.body), /spam\.example\/scale-long/, "the QR near the end was detected by the survivor");
  // exactly once: the outbox holds one result delivery for the task, delivered
  const rows = await waitFor(async () => {
    const r = await api.engine!.ctx.store.db.select().from(deliveries).where(eq(deliveries.requestId, id));
    return r.every((d) => d.status === "delivered") && r;
  }, 30_000);
  assert.equal(rows.length, 1, JSON.stringify(rows.map((r) => r.status)));
  assert.equal(rx.received.filter((x) => x.body.requestId === id).length, 1);
  workers.splice(workers.indexOf(victim), 1);
});

test("a run superseded by another (its worker lost the job) stores no result and calls nothing back", { skip, timeout: 240_000 }, async () => {
  const worker = workers[0];
  const file = await makeVideo({ name: "scale-long-40s", durationSec: 40, audio: "tone", qr: { text: "https://spam.example/scale-long", fromSec: 30, toSec: 40 } });
  const id = await submit(file, "scale-superseded", { detectFrequency: 1 });
  await waitFor(async () => taken(worker).includes(id), 60_000, 50);
  await waitFor(async () => (await fs.readdir(path.join(dataDir, "media", id)).catch(() => [] as string[])).some((f) => f.endsWith(".jpg")), 60_000, 50);
  // another run claims the task meanwhile (as a worker that took the job over after this one's lock ran out would)
  await admin(`UPDATE ${schema}.tasks SET run_count = run_count + 1 WHERE request_id = '${id}'`);
  await waitFor(async () => new RegExp(`file ${id}: run \\d+ was superseded by another run`).test(worker.output()), 120_000, 100);
  const [row] = await api.engine!.ctx.store.db.select().from(tasks).where(eq(tasks.requestId, id));
  assert.equal(row.status, "processing", "the superseded run did not store its result");
  assert.equal(row.result, null);
  assert.equal((await api.engine!.ctx.store.db.select().from(deliveries).where(eq(deliveries.requestId, id))).length, 0, "and queued no callback");
  await admin(`UPDATE ${schema}.tasks SET status = 'failed' WHERE request_id = '${id}'`);
});

test("with no worker taking files, a new file is refused with the reason (nothing accepted to wait unseen)", { skip, timeout: 120_000 }, async () => {
  await Promise.all(workers.map((w) => w.stop()));
  workers.length = 0;
  // the API node reads the queue's takers every second
  await waitFor(async () => (await api.engine!.files.refusal()) !== null, 30_000, 100);
  const file = await makeVideo({ name: "scale-qr-8s", durationSec: 8, audio: "none", qr: { text: "https://spam.example/scale", fromSec: 0, toSec: 8 } });
  const ack = await api.post("/video/v4", { accessKey: TEST_KEY, appId: "scale", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "scale-no-worker", url: `${web.url}/${path.basename(file)}` } });
  assert.notEqual(ack.code, 1100, JSON.stringify(ack));
  assert.match(String(ack.message), /no worker takes files/, JSON.stringify(ack));
  assert.equal((await api.engine!.ctx.store.db.select().from(tasks).where(eq(tasks.btId, "scale-no-worker"))).length, 0);
});
