// Issue #30 item 2: PostgreSQL restarted mid-work in scaled mode. One API node and one `npm run worker` (real child
// processes) on a private PostgreSQL cluster and a private Redis (never the machine's shared services), two live RTMP
// streams calling back every frame and a video file under way. PostgreSQL is stopped (-m fast: pooled connections
// are terminated) for OUTAGE_MS and started again. The worker must not exit; both streams deliver new frames after
// the outage with numbers that continue; the file's result is delivered once; nothing is called back twice with two
// bodies; an API request during the outage gets a documented retryable answer (HTTP 200 with a code, never a bare
// 5xx, never an accepted task that is then lost).
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { qrStreamRequest, TEST_KEY } from "../support/app";
import { startChildServer, type ChildServer } from "../support/child-server";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor, type Received } from "../support/net";
import { privatePgSkip, startPrivatePg, type PrivatePg } from "../support/private-pg";
import { privateRedisSkip, startPrivateRedis, type PrivateRedis } from "../support/private-redis";
import { startScaleWorker } from "../support/scale";

const skip = privatePgSkip || privateRedisSkip;
const OUTAGE_MS = 20_000;
const LEASE_SEC = 6;

let pg: PrivatePg | null = null;
let redis: PrivateRedis | null = null;
let dataDir = "";
let node: ChildServer | null = null;
let worker: ChildServer | null = null;
let web: Awaited<ReturnType<typeof startStaticServer>> | null = null;
const sources: RtmpSource[] = [];
let rx: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  if (skip) return;
  [pg, redis] = await Promise.all([startPrivatePg(), startPrivateRedis()]);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "fault-pg-"));
  const env = { REDIS_URL: redis.url, DATABASE_URL: pg.url, QUEUE_PREFIX: `f-${crypto.randomBytes(3).toString("hex")}`, STREAM_LEASE_SEC: String(LEASE_SEC), CALLBACK_RETRY_TIME_SCALE: "0.05" };
  node = await startChildServer({ dataDir, timeoutMs: 120_000, env });
  worker = await startScaleWorker({ dataDir, databaseUrl: pg.url, name: "w1", env: { ...env, STREAM_CAPACITY: "4", STREAM_ADMISSION_WINDOW_SEC: "0" } });
  sources.push(...(await Promise.all(["a", "b"].map((k) => startRtmpSource({ name: `fault-pg-${k}`, audio: "none", qr: { text: `https://spam.example/pg-${k}`, fromSec: 0, toSec: 6 } })))));
  web = await startStaticServer(mediaDir());
  rx = await startReceiver();
});

after(async () => {
  if (skip) return;
  await Promise.all([worker?.stop(), node?.stop()]);
  await Promise.all([...sources.map((s) => s.close()), web?.close(), rx?.close()]);
  pg?.destroy();
  await redis?.destroy();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const framesOf = (r: Received[], id: string) => r.filter((x) => String(x.body.requestId).startsWith(`${id}_v`) && x.body.statCode === 0).map((x) => Number(String(x.body.requestId).slice(id.length + 2)));
const fileRequest = (btId: string, url: string, callback: string) => ({ accessKey: TEST_KEY, appId: "fault", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback, data: { btId, url, detectFrequency: 1, returnAllImg: 1 } });

/** Posts and returns the HTTP status with the parsed body (a bare 5xx or a non-JSON answer shows as such). */
async function postRaw(base: string, p: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> | string }> {
  const res = await fetch(`${base}${p}`, { method: "POST", body: JSON.stringify(body) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, body: text };
  }
}

test("PostgreSQL stopped 20 s and started: the worker lives on, streams continue, callbacks and files are delivered once", { skip, timeout: 300_000 }, async (t) => {
  const n = node!;
  const w = worker!;
  const cb = rx.url;
  const ids: string[] = [];
  for (const [i, s] of sources.entries()) {
    const ack = await n.post("/videostream/v4", qrStreamRequest(s.rtmpUrl, cb, { tokenId: `pg-${i}`, returnAllImg: 1 }));
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    ids.push(String(ack.requestId));
  }
  await rx.until((r) => ids.every((id) => framesOf(r, id).length >= 2), 90_000);
  // a 40 s file at 2 fps: still being processed when PostgreSQL goes away
  const long = await makeVideo({ name: "fault-pg-long", durationSec: 40, width: 320, height: 240, fps: 2, audio: "none" });
  const fileAck = await n.post("/video/v4", fileRequest("pg-file", `${web!.url}/${path.basename(long)}`, cb));
  assert.equal(fileAck.code, 1100, JSON.stringify(fileAck));
  const fileId = String(fileAck.requestId);

  const maxBefore = ids.map((id) => Math.max(...framesOf(rx.received, id)));
  pg!.stop("fast");
  const stoppedAt = Date.now();
  // during the outage: a new request gets a documented answer (HTTP 200, code 1901/1903), never an accepted task
  const during = await postRaw(n.url, "/video/v4", fileRequest("pg-during", `${web!.url}/${path.basename(long)}`, cb));
  const duringStream = await postRaw(n.url, "/videostream/v4", qrStreamRequest(sources[0].flvUrl, cb, { tokenId: "pg-during" }));
  for (const d of [during, duringStream]) {
    assert.equal(d.status, 200, `an answer with a code, not a bare HTTP error: ${JSON.stringify(d)}`);
    const body = d.body as Record<string, unknown>;
    assert.ok(body.code === 1903 || body.code === 1901, `a retryable documented code during the outage: ${JSON.stringify(body)}`);
    assert.match(String(body.message), /retry|unavailable|temporar/i, JSON.stringify(body));
  }
  // the outage lasts OUTAGE_MS (the fault itself, not a wait for a result); the processes must stay up through it
  await waitFor(async () => Date.now() - stoppedAt >= OUTAGE_MS, OUTAGE_MS + 5000, 500);
  for (const p of [n, w]) assert.doesNotThrow(() => process.kill(p.pid, 0), `process ${p.pid} still alive during the outage:\n${p.output().slice(-3000)}`);
  pg!.start();

  // both streams deliver new frames after the outage, their numbers continuing
  await rx.until((r) => ids.every((id, i) => framesOf(r, id).some((f) => f > maxBefore[i] + 3)), 120_000);
  // the file's result arrives (its processing survived the outage or was taken up again)
  await rx.until((r) => r.some((x) => x.body.requestId === fileId && x.body.code !== undefined && x.body.frameDetail), 180_000);
  for (const p of [n, w]) assert.doesNotThrow(() => process.kill(p.pid, 0), `process ${p.pid} alive after the outage:\n${p.output().slice(-3000)}`);
  assert.doesNotMatch(w.output() + n.output(), /Unhandled|unhandledRejection|Client \{/, "no unhandled error, the pg client object is never printed");

  // nothing doubled: a webhook-id seen twice carries the same body; a frame number is never used by two callbacks
  const byId = new Map<string, Received>();
  for (const x of rx.received) {
    const wid = String(x.headers["webhook-id"]);
    const seen = byId.get(wid);
    if (seen) assert.deepEqual(x.body, seen.body, "a redelivery is the same callback");
    else byId.set(wid, x);
  }
  const distinct = [...byId.values()];
  for (const id of ids) {
    const frames = framesOf(distinct, id);
    assert.equal(new Set(frames).size, frames.length, `a frame number used by two callbacks: ${frames.join(",")}`);
    const sorted = [...frames].sort((a, b) => a - b);
    const gaps = sorted.filter((f, i) => i > 0 && f !== sorted[i - 1] + 1).map((f) => `${sorted[sorted.indexOf(f) - 1]}→${f}`);
    t.diagnostic(`stream ${id}: ${frames.length} frames called back, numbers ${sorted[0]}..${sorted.at(-1)}${gaps.length ? `, gaps ${gaps.join(" ")}` : ", no gap"}`);
    // the frames captured while PostgreSQL was away were held and called back after it (returnAllImg: every frame)
    assert.deepEqual(gaps, [], `every frame number called back, the outage's too: ${sorted.join(",")}`);
  }
  assert.equal(distinct.filter((x) => x.body.requestId === fileId).length, 1, "the file's result, once");
  const fileResult = distinct.find((x) => x.body.requestId === fileId)!.body as Record<string, unknown>;
  assert.equal(fileResult.code, 1100, JSON.stringify(fileResult).slice(0, 500));
  assert.ok((fileResult.frameDetail as unknown[]).length >= 35, `every frame of the 40 s file (got ${(fileResult.frameDetail as unknown[]).length})`);
  // the request refused during the outage was not quietly accepted
  const q = (await n.post("/video/query/v4", { accessKey: TEST_KEY, btId: "pg-during" })) as Record<string, unknown>;
  assert.equal(q.code, 1902, `the refused file was never accepted: ${JSON.stringify(q)}`);

  // Close both streams: each ends with exactly one stream-end
  for (const id of ids) assert.equal((await n.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id })).code, 1100);
  await rx.until((r) => ids.every((id) => r.some((x) => x.body.requestId === id && x.body.statCode === 1)), 60_000);
});
