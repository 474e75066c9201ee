// Issue #30 item 1: Redis restarted mid-work in scaled mode. One API node and one `npm run worker` (real child
// processes; one of each keeps the test cheap — the takeover between workers is scale-streams.test.ts's) on a private
// Redis and a private PostgreSQL cluster, two live RTMP streams and files queued and running. Redis is killed for
// OUTAGE_MS and started again empty (a failover without persistence), then killed again and started with its data.
// No process exits; /metrics says the queue is unreachable while it is; every file accepted completes with exactly
// one result; the streams keep their numbers.
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
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "fault-redis-"));
  const env = { REDIS_URL: redis.url, DATABASE_URL: pg.url, QUEUE_PREFIX: `f-${crypto.randomBytes(3).toString("hex")}`, STREAM_LEASE_SEC: "6", CALLBACK_RETRY_TIME_SCALE: "0.05" };
  node = await startChildServer({ dataDir, timeoutMs: 120_000, env });
  worker = await startScaleWorker({ dataDir, databaseUrl: pg.url, name: "w1", env: { ...env, STREAM_CAPACITY: "4", STREAM_ADMISSION_WINDOW_SEC: "0", FILE_CONCURRENCY: "1" } });
  sources.push(...(await Promise.all(["a", "b"].map((k) => startRtmpSource({ name: `fault-redis-${k}`, audio: "none" })))));
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
const queueUp = async (base: string) => /moderation_dependency_up\{dependency="queue"\} (\d)/.exec(await (await fetch(`${base}/metrics`)).text())?.[1];
const alive = (p: ChildServer) => assert.doesNotThrow(() => process.kill(p.pid, 0), `process ${p.pid} is alive:\n${p.output().slice(-3000)}`);

test("Redis killed and restarted (empty, then with its data): every process reconnects, files complete once, streams keep their numbers", { skip, timeout: 400_000 }, async (t) => {
  const n = node!;
  const w = worker!;
  const ids: string[] = [];
  for (const [i, s] of sources.entries()) {
    const ack = await n.post("/videostream/v4", qrStreamRequest(s.rtmpUrl, rx.url, { tokenId: `r-${i}`, returnAllImg: 1 }));
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    ids.push(String(ack.requestId));
  }
  await rx.until((r) => ids.every((id) => framesOf(r, id).length >= 2), 90_000);
  assert.equal(await queueUp(n.url), "1");
  const video = await makeVideo({ name: "fault-redis-file", durationSec: 12, width: 320, height: 240, fps: 2, audio: "none" });
  const url = `${web!.url}/${path.basename(video)}`;
  const files: string[] = [];
  const submit = async (btId: string) => {
    const ack = await n.post("/video/v4", fileRequest(btId, url, rx.url));
    if (ack.code === 1100) files.push(String(ack.requestId));
    return ack;
  };

  for (const [round, empty] of [[1, true], [2, false]] as const) {
    // three files: one running, two queued behind it (FILE_CONCURRENCY 1) when Redis goes away
    for (let i = 0; i < 3; i++) assert.equal((await submit(`r${round}-f${i}`)).code, 1100);
    const maxBefore = ids.map((id) => Math.max(...framesOf(rx.received, id)));
    await redis!.stop();
    const stoppedAt = Date.now();
    // while it lasts, /metrics on both processes says the queue is unreachable
    for (const base of [n.url, w.url]) await waitFor(async () => (await queueUp(base)) === "0", 15_000, 250);
    // a file sent during the outage: stored and accepted (the sweep queues it once Redis is back) or refused clearly
    const during = await submit(`r${round}-during`);
    assert.ok(during.code === 1100 || (during.code === 1903 && /retry/.test(String(during.message))), JSON.stringify(during));
    const outage = empty ? OUTAGE_MS : OUTAGE_MS / 2; // the second (with its data) shorter: the test stays cheap
    await waitFor(async () => Date.now() - stoppedAt >= outage, outage + 5000, 500);
    alive(n);
    alive(w);
    await redis!.start({ empty });
    for (const base of [n.url, w.url]) await waitFor(async () => (await queueUp(base)) === "1", 60_000, 250);
    // streams continue with their numbers; every accepted file ends with its result
    await rx.until((r) => ids.every((id, i) => framesOf(r, id).some((f) => f > maxBefore[i] + 2)), 90_000);
    await rx.until((r) => files.every((id) => r.some((x) => x.body.requestId === id && x.body.frameDetail)), 180_000);
    t.diagnostic(`round ${round} (Redis restarted ${empty ? "empty" : "with its data"}): ${files.length} files done, during-outage answer ${during.code}`);
  }
  alive(n);
  alive(w);

  // exactly once: one result per file (a redelivery carries the same webhook-id and body), every frame of it
  const byId = new Map<string, Received>();
  for (const x of rx.received) {
    const wid = String(x.headers["webhook-id"]);
    const seen = byId.get(wid);
    if (seen) assert.deepEqual(x.body, seen.body, "a redelivery is the same callback");
    else byId.set(wid, x);
  }
  const distinct = [...byId.values()];
  for (const id of files) {
    const results = distinct.filter((x) => x.body.requestId === id);
    assert.equal(results.length, 1, `file ${id}: one result`);
    assert.equal(results[0].body.code, 1100, JSON.stringify(results[0].body).slice(0, 400));
    assert.ok((results[0].body.frameDetail as unknown[]).length >= 11, `file ${id}: every frame`);
  }
  for (const id of ids) {
    const frames = framesOf(distinct, id);
    assert.equal(new Set(frames).size, frames.length, `stream ${id}: a frame number used twice: ${frames.join(",")}`);
  }
  for (const id of ids) assert.equal((await n.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id })).code, 1100);
  await rx.until((r) => ids.every((id) => r.some((x) => x.body.requestId === id && x.body.statCode === 1)), 60_000);
});
