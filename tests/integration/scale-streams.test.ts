// Scaled mode, live streams (#14): an API node and two `npm run worker` processes (real child processes) on real
// Redis and PostgreSQL, real RTMP sources. Streams spread over both workers through leases; a holder killed with -9 →
// the other resumes the stream within its lease, frame numbers continue and nothing is called back twice; with every
// worker full a new stream is refused 1904 "at capacity"; Close on the API node ends a stream a worker holds, with its
// stream-end. Skipped, with the reason, without both URLs.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { qrStreamRequest, startTestService, TEST_KEY } from "../support/app";
import type { ChildServer } from "../support/child-server";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { startReceiver, waitFor, type Received } from "../support/net";
import { pgAdmin as admin, scaleSkip as skip, scratchSchema, startScaleWorker } from "../support/scale";

const { REDIS_URL, DATABASE_URL } = process.env;
if (skip) console.log(`# skipping scaled-mode stream tests: ${skip}`);

const LEASE_SEC = 6;
let schema = "";
let dropSchema: () => Promise<void> = async () => undefined;
const prefix = `test-${crypto.randomBytes(4).toString("hex")}`;
let dataDir = "";
let api: Awaited<ReturnType<typeof startTestService>>;
const workers: ChildServer[] = [];
const sources: RtmpSource[] = [];
let rx: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  if (skip) return;
  const db = await scratchSchema();
  [schema, dropSchema] = [db.schema, db.drop];
  const dbUrl = db.url;
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mod-scale-streams-"));
  const shared = { REDIS_URL: REDIS_URL!, QUEUE_PREFIX: prefix, STREAM_LEASE_SEC: String(LEASE_SEC) };
  api = await startTestService({ databaseUrl: dbUrl, dataDir, env: shared });
  const worker = (name: string) => startScaleWorker({ dataDir, databaseUrl: dbUrl, name, env: { ...shared, STREAM_CAPACITY: "2", STREAM_ADMISSION_WINDOW_SEC: "0" } });
  workers.push(...(await Promise.all([worker("w1"), worker("w2")])));
  sources.push(...(await Promise.all(["a", "b", "c"].map((k) => startRtmpSource({ name: `scale-${k}`, audio: "none", qr: { text: `https://spam.example/scale-${k}`, fromSec: 0, toSec: 6 } })))));
  rx = await startReceiver();
});

after(async () => {
  if (skip) return;
  await Promise.all(workers.map((w) => w.stop()));
  await api?.close();
  await Promise.all(sources.map((s) => s.close()));
  await rx?.close();
  await dropSchema();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const holderOf = (id: string) => workers.find((w) => new RegExp(`stream ${id}: taken by`).test(w.output()));
const framesOf = (r: Received[], id: string) => r.filter((x) => String(x.body.requestId).startsWith(`${id}_v`)).map((x) => Number(String(x.body.requestId).slice(id.length + 2)));

test("streams spread over the workers, survive a worker killed with -9, refuse past capacity, close from the API node", { skip, timeout: 300_000 }, async () => {
  const cb = `${rx.url}/cb`;
  const a = await api.post("/videostream/v4", qrStreamRequest(sources[0].rtmpUrl, cb, { tokenId: "a" }));
  const b = await api.post("/videostream/v4", qrStreamRequest(sources[1].rtmpUrl, cb, { tokenId: "b" }));
  assert.equal(a.code, 1100, JSON.stringify(a));
  assert.equal(b.code, 1100, JSON.stringify(b));
  const [idA, idB] = [String(a.requestId), String(b.requestId)];

  // one on each worker (the least loaded with room claims the next stream), both calling back
  const [hA, hB] = await waitFor(async () => {
    const x = holderOf(idA), y = holderOf(idB);
    return x && y ? [x, y] : null;
  }, 60_000);
  assert.notEqual(hA, hB, "the two streams went to different workers");
  await rx.until((r) => framesOf(r, idA).length >= 2 && framesOf(r, idB).length >= 2, 90_000);

  // kill -9 A's holder: the other worker resumes A within the lease (plus a tick), numbers continue
  const before = framesOf(rx.received, idA);
  const killedAt = Date.now();
  await hA.kill9();
  workers.splice(workers.indexOf(hA), 1);
  await waitFor(async () => new RegExp(`stream ${idA}: taken by \\S+ \\(resumed\\)`).test(hB.output()), LEASE_SEC * 1000 + 30_000, 100);
  const takeoverMs = Date.now() - killedAt;
  assert.ok(takeoverMs < 15_000, `taken over in ${takeoverMs} ms`);
  console.log(`# stream taken over ${takeoverMs} ms after kill -9 (lease ${LEASE_SEC} s)`);
  await rx.until((r) => framesOf(r, idA).length >= before.length + 3, 90_000);
  // a callback the killed worker had delivered but not yet marked delivered is sent again by the survivor with the
  // same webhook-id and body (at-least-once, receivers drop it by webhook-id); two different callbacks never share a number
  const messages = new Map<string, Received>();
  for (const x of rx.received) if (String(x.body.requestId).startsWith(`${idA}_v`)) {
    const id = String(x.headers["webhook-id"]);
    const seen = messages.get(id);
    if (seen) assert.deepEqual(x.body, seen.body, "a redelivery is the same callback");
    else messages.set(id, x);
  }
  const all = framesOf([...messages.values()], idA);
  assert.equal(new Set(all).size, all.length, `a frame number used by two callbacks: ${all.join(",")}`);
  assert.ok(Math.min(...all.slice(before.length)) > Math.max(...before), `numbers continue: before ${before.join(",")} after ${all.slice(before.length).join(",")}`);

  // the survivor now holds 2 of its 2: a third stream is refused, saying why
  const c = await api.post("/videostream/v4", qrStreamRequest(sources[2].rtmpUrl, cb, { tokenId: "c" }));
  assert.equal(c.code, 1904, JSON.stringify(c));
  assert.match(String(c.message), /at capacity/);

  // Close on the API node: the holder stops, drains and sends the stream-end
  for (const id of [idA, idB]) {
    const closed = await api.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
    assert.equal(closed.code, 1100, JSON.stringify(closed));
  }
  await rx.until((r) => [idA, idB].every((id) => r.some((x) => x.body.requestId === id && x.body.statCode === 1)), 60_000);
  for (const id of [idA, idB]) assert.equal(rx.received.filter((x) => x.body.requestId === id && x.body.statCode === 1).length, 1, `one stream-end for ${id}`);
  // the duplicate rule holds across processes: after the end, the same stream may start again
  const again = await api.post("/videostream/v4", qrStreamRequest(sources[0].rtmpUrl, cb, { tokenId: "a" }));
  assert.equal(again.code, 1100, JSON.stringify(again));
  assert.equal((again.detail as { errorCode?: number } | undefined)?.errorCode, undefined);
  await api.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: again.requestId });
});

test("a holder whose lease went to another process stops at once and never overwrites the new holder's state", { skip, timeout: 240_000 }, async () => {
  const cb = `${rx.url}/cb`;
  const d = await api.post("/videostream/v4", qrStreamRequest(sources[2].rtmpUrl, cb, { tokenId: "d" }));
  assert.equal(d.code, 1100, JSON.stringify(d));
  const id = String(d.requestId);
  const holder = await waitFor(async () => holderOf(id) ?? null, 60_000, 100);
  await rx.until((r) => framesOf(r, id).length >= 2, 90_000);
  // another process holds it now (as after a pause longer than the lease), with state of its own
  await admin(`UPDATE ${schema}.tasks SET lease_owner = 'intruder', lease_until = now() + interval '120 seconds', state = jsonb_set(state, '{nextFrameIndex}', '100000') WHERE request_id = '${id}'`);
  await waitFor(async () => new RegExp(`stream ${id}: stopped here; its holder has it`).test(holder.output()), 30_000, 100);
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  const { rows } = await c.query(`SELECT lease_owner, status, state->>'nextFrameIndex' AS next FROM ${schema}.tasks WHERE request_id = $1`, [id]);
  assert.deepEqual(rows[0], { lease_owner: "intruder", status: "running", next: "100000" }, "the old holder wrote nothing after losing the lease");
  // the intruder "dies": its lease runs out, and a Close on the API node ends the stream, with its stream-end
  await c.query(`UPDATE ${schema}.tasks SET lease_until = now() - interval '1 second' WHERE request_id = $1`, [id]);
  await c.end();
  const closed = await api.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
  assert.equal(closed.code, 1100, JSON.stringify(closed));
  await rx.until((r) => r.some((x) => x.body.requestId === id && x.body.statCode === 1), 60_000);
});
