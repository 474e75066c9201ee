// Issue #30 item 1: Redis restarted mid-work, at the issue's full shape. Two dashboard nodes (the production server
// with Next, so signed-in socket.io connections are served) and two `npm run worker` processes, all real child
// processes, on a private Redis and a private PostgreSQL cluster; three live RTMP streams started from the dashboards
// (two on node A, one on node B: each node's receiver gets its own streams' callbacks and fans them out to the other
// node over Redis); files running on both workers and queued behind them. Redis is killed for 20 s and started again
// empty (a failover without persistence), then killed again and started with its data. No process exits; /metrics
// on every process says the queue is unreachable while it is; every file accepted completes with exactly one result;
// the streams keep their numbers (stored timeline: no number twice, none skipped); and after each restart a socket.io
// client connected to EACH node receives frame events of every stream, the other node's included (fan-out resumed).
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { streamRoom } from "../../lib/events";
import { TEST_KEY } from "../support/app";
import { dashboardCall, liveClient, signInDashboard, startDashboardStream, type LiveClient } from "../support/dashboard-client";
import { assertAlive, dashboardBuildMissing, dependencyUp, distinctCallbacks, FAULT_SUPERVISOR, faultSkip, fileRequest, startFaultCluster, type FaultCluster } from "../support/fault-cluster";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor } from "../support/net";

const skip = faultSkip || dashboardBuildMissing;
const OUTAGE_MS = 20_000;

let cluster: FaultCluster | null = null;
let web: Awaited<ReturnType<typeof startStaticServer>> | null = null;
const sources: RtmpSource[] = [];
const clients: LiveClient[] = [];
let rx: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  if (skip) return;
  cluster = await startFaultCluster({ name: "fault-redis", nodes: 2, workers: 2, dashboard: true, workerEnv: { STREAM_CAPACITY: "2", FILE_CONCURRENCY: "1" } });
  sources.push(...(await Promise.all(["a", "b", "c"].map((k) => startRtmpSource({ name: `fault-redis-${k}`, audio: "none" })))));
  web = await startStaticServer(mediaDir());
  rx = await startReceiver();
});

after(async () => {
  if (skip) return;
  clients.forEach((c) => c.close());
  await cluster?.close();
  await Promise.all([...sources.map((s) => s.close()), web?.close(), rx?.close()]);
});

const metricOf = async (base: string, name: string) => Number(new RegExp(`^${name} (\\d+)`, "m").exec(await (await fetch(`${base}/metrics`)).text())?.[1] ?? NaN);
const frameNo = (id: string, body: Record<string, unknown>) => (String(body.requestId).startsWith(`${id}_v`) ? Number(String(body.requestId).slice(id.length + 2)) : null);
/** frame numbers of stream `id` that live client `c` received after `since` */
const liveFrames = (c: LiveClient, id: string, since = 0) => c.events.filter((e) => e.requestId === id && e.kind === "frame" && e.at >= since).map((e) => frameNo(id, e.body)).filter((n): n is number => n !== null);

test("Redis killed 20 s and restarted (empty, then with its data) under two nodes and two workers: no exit, files once, numbers kept, fan-out resumed on every node", { skip, timeout: 600_000 }, async (t) => {
  const { nodes, workers, redis } = cluster!;
  const [a, b] = nodes;
  const all = [...nodes, ...workers];
  const sessions = [await signInDashboard(a.url, FAULT_SUPERVISOR), await signInDashboard(b.url, FAULT_SUPERVISOR)];
  clients.push(...(await Promise.all(sessions.map((s) => liveClient(s)))));
  // two streams started on node A, one on node B: their callbacks reach the node that started them
  const ids = [await startDashboardStream(sessions[0], sources[0].rtmpUrl, "fault A1"), await startDashboardStream(sessions[0], sources[1].rtmpUrl, "fault A2"), await startDashboardStream(sessions[1], sources[2].rtmpUrl, "fault B1")];
  const startedOn = [a, a, b];
  for (const c of clients) for (const id of ids) assert.equal(await c.subscribe(streamRoom(id)), true);
  // before the fault: every client sees frames of every stream, its own node's and the other node's
  await waitFor(async () => clients.every((c) => ids.every((id) => liveFrames(c, id).length >= 2)) || null, 120_000, 250);
  for (const p of all) assert.equal(await dependencyUp(p.url, "queue"), "1");

  const video = await makeVideo({ name: "fault-redis-file", durationSec: 30, width: 320, height: 240, fps: 2, audio: "none" });
  const url = `${web!.url}/${path.basename(video)}`;
  const files: string[] = [];
  const submit = async (btId: string, i: number) => {
    const ack = await nodes[i % 2].post("/video/v4", fileRequest(btId, url, rx.url));
    if (ack.code === 1100) files.push(String(ack.requestId));
    return ack;
  };

  for (const [round, empty] of [[1, true], [2, false]] as const) {
    // four files over both nodes: one running on each worker (FILE_CONCURRENCY 1), two queued behind them
    for (let i = 0; i < 4; i++) assert.equal((await submit(`r${round}-f${i}`, i)).code, 1100);
    // running when Redis goes away: each worker is processing one (the others wait in the queue)
    await waitFor(async () => (await Promise.all(workers.map((w) => metricOf(w.url, "moderation_files_processing")))).every((n) => n >= 1) || null, 60_000, 250);
    const maxBefore = ids.map((id) => Math.max(...clients.flatMap((c) => liveFrames(c, id))));
    await redis.stop();
    const stoppedAt = Date.now();
    // while it lasts, /metrics on every process says the queue is unreachable
    for (const p of all) await waitFor(async () => (await dependencyUp(p.url, "queue")) === "0", 15_000, 250);
    // a file sent during the outage: stored and accepted (the sweep queues it once Redis is back) or refused clearly
    const during = await submit(`r${round}-during`, round);
    assert.ok(during.code === 1100 || (during.code === 1903 && /retry/.test(String(during.message))), JSON.stringify(during));
    const outage = empty ? OUTAGE_MS : OUTAGE_MS / 2; // the second (with its data) shorter: the test stays cheap
    await waitFor(async () => Date.now() - stoppedAt >= outage, outage + 5000, 500);
    for (const p of all) assertAlive(p, "during the Redis outage");
    await redis.start({ empty });
    const restartedAt = Date.now();
    for (const p of all) await waitFor(async () => (await dependencyUp(p.url, "queue")) === "1", 60_000, 250);
    // fan-out resumed on EVERY node: each client gets new frames of every stream, the other node's streams included
    // (those travel from the node that received the callback to this one over Redis only)
    await waitFor(async () => clients.every((c) => ids.every((id, i) => liveFrames(c, id, restartedAt).some((f) => f > maxBefore[i]))) || null, 120_000, 250).catch(() => {
      const seen = clients.map((c, ci) => ids.map((id, i) => `client on node ${ci ? "B" : "A"}, stream ${i} (started on ${startedOn[i] === a ? "A" : "B"}): ${liveFrames(c, id, restartedAt).join(",") || "nothing"}`).join("\n")).join("\n");
      assert.fail(`socket.io fan-out did not resume on every node after Redis restarted ${empty ? "empty" : "with its data"}:\n${seen}`);
    });
    // every accepted file ends with its result
    await rx.until((r) => files.every((id) => r.some((x) => x.body.requestId === id && x.body.frameDetail)), 240_000);
    t.diagnostic(`round ${round} (Redis restarted ${empty ? "empty" : "with its data"}): ${files.length} files done, during-outage answer ${during.code}`);
  }
  for (const p of all) assertAlive(p, "after both Redis restarts");
  assert.doesNotMatch(all.map((p) => p.output()).join("\n"), /Unhandled|unhandledRejection/, "no unhandled error");

  // exactly once: one result per file (a redelivery carries the same webhook-id and body), every frame of it
  const distinct = distinctCallbacks(rx.received);
  for (const id of files) {
    const results = distinct.filter((x) => x.body.requestId === id);
    assert.equal(results.length, 1, `file ${id}: one result`);
    assert.equal(results[0].body.code, 1100, JSON.stringify(results[0].body).slice(0, 400));
    assert.ok((results[0].body.frameDetail as unknown[]).length >= 29, `file ${id}: every frame`);
  }
  // the streams kept their numbers: the stored timeline (what each node's receiver accepted) has each number once, none skipped
  for (const [i, id] of ids.entries()) {
    const d = await dashboardCall(sessions[i === 2 ? 1 : 0], `/api/streams/${id}?limit=5000`);
    assert.equal(d.status, 200);
    const nums = (d.json.events as Array<{ kind: string; body: Record<string, unknown> }>).filter((e) => e.kind === "frame").map((e) => frameNo(id, e.body)!);
    assert.equal(new Set(nums).size, nums.length, `stream ${id}: a frame number twice: ${nums.join(",")}`);
    const sorted = [...nums].sort((x, y) => x - y);
    const gaps = sorted.flatMap((f, k) => (k > 0 && f !== sorted[k - 1] + 1 ? [`${sorted[k - 1]}→${f}`] : []));
    t.diagnostic(`stream ${i}: frames ${sorted[0]}..${sorted.at(-1)} (${sorted.length})${gaps.length ? `, gaps ${gaps.join(" ")}` : ", no gap"}`);
    assert.deepEqual(gaps, [], `stream ${id}: every frame number called back through both outages`);
  }
  // Close each stream from the node that did NOT start it: each ends (its stream-end reaches its node's timeline)
  for (const [i, id] of ids.entries()) assert.equal((await dashboardCall(sessions[i === 2 ? 0 : 1], `/api/streams/${id}/close`, {})).status, 200);
  await waitFor(async () => {
    const ends = await Promise.all(ids.map(async (id, i) => (await dashboardCall(sessions[i === 2 ? 1 : 0], `/api/streams/${id}?limit=5`)).json.stream as { status: string }));
    return ends.every((s) => s.status === "ended") || null;
  }, 90_000, 500);
  assert.equal((await a.post("/video/query/v4", { accessKey: TEST_KEY, btId: "r1-f0" })).code, 1100);
});
