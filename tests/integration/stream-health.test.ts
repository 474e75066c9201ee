// Issue #12 item 4 (stream health): a real RTMP source moderated by the real service. Health goes connected →
// (publisher killed) flagged "no media for N s", source lost, retrying k of n with the next attempt time →
// (publisher back) recovered/connected → (Close) ended; every change is stored in order and published; input
// fps/bitrate are measured while connected and the audio level is reported.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { HealthEventKind, StreamHealthSnapshot, StreamHealthUpdate } from "../../lib/stream-health";
import { startTestService, TEST_KEY } from "../support/app";
import { startHealthStream } from "../support/health-stream";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";

type Service = Awaited<ReturnType<typeof startTestService>>;

let svc: Service;
let src: RtmpSource;
let rx: Awaited<ReturnType<typeof startReceiver>>;
before(async () => {
  [svc, src, rx] = await Promise.all([startTestService(), startRtmpSource({ name: "health", audio: "tone" }), startReceiver()]);
});
after(async () => {
  await rx?.close();
  await src?.close();
  await svc?.close();
});

test("health: connected → flagged, source lost, retrying k of n → recovered → ended; stored in order, published live", async () => {
  const updates: StreamHealthUpdate[] = [];
  const unsubscribe = svc.engine!.streams.onHealth((u) => updates.push(u));
  const ack = await startHealthStream(svc, src.rtmpUrl, rx.url);
  assert.equal(ack.code, 1100, JSON.stringify(ack));
  const id = ack.requestId as string;
  const health = () => svc.engine!.streams.health(id) as StreamHealthSnapshot;
  // what GET /api/streams/<id>/health answers (its route handler calls this one verb)
  const report = async () => (await svc.engine!.streams.healthReport(id))!;
  const kinds = async () => (await report()).events.map((e) => e.kind);
  const has = async (kind: HealthEventKind, after = -1) => (await kinds()).indexOf(kind, after + 1) > after;

  // connected, with measured input and the audio level
  await waitFor(async () => {
    const h = health();
    return h.pull.state === "connected" && (h.input.fps ?? 0) > 0 && (h.input.kbps ?? 0) > 0 && h.audio.levelDb !== null;
  }, 30_000);
  const live = health();
  assert.equal(live.cadenceSec, 1);
  assert.ok(live.input.fps! > 5 && live.input.fps! < 30, `the source is 15 fps: ${live.input.fps}`);
  assert.ok(live.audio.levelDb! > -40 && !live.audio.silent, `a tone is not silence: ${live.audio.levelDb} dBFS`);
  // media keeps coming: a newer lastMediaAt than the one just read
  const seenMedia = Date.parse(live.lastMediaAt!);
  await waitFor(async () => Date.parse(health().lastMediaAt!) > seenMedia, 30_000);
  assert.equal(live.flagged, null);
  assert.ok(await has("connected"));

  // the publisher dies: no media for more than 2× the cadence is flagged before ffmpeg notices the loss
  await src.stopPublisher();
  await waitFor(async () => health().flagged !== null, 15_000);
  assert.match(health().flagged!.message, /^no media for \d+ s$/);
  await waitFor(async () => (await has("source_lost")) && (await has("retrying")), 30_000);
  const lost = await report();
  const retrying = lost.events.find((e) => e.kind === "retrying")!;
  assert.equal(retrying.attempt, 1);
  assert.equal(retrying.of, 12, "NORMAL: 12 retries (contract §4)");
  assert.ok(retrying.nextAttemptAt && Date.parse(retrying.nextAttemptAt) >= Date.parse(retrying.at), "the next attempt's time");
  assert.ok(lost.snapshot!.lastError, "the loss is the last error");
  assert.notEqual(lost.snapshot!.pull.state, "connected");
  assert.equal(lost.snapshot!.input.fps, null, "no input figures while not connected");

  // the publisher comes back: the next attempt recovers
  await src.restartPublisher();
  await waitFor(async () => (await has("recovered")) && health().pull.state === "connected" && (health().input.fps ?? 0) > 0, 45_000);
  assert.equal(health().flagged, null, "no longer flagged");

  await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
  await waitFor(async () => (await has("ended")) && health().phase === "ended", 30_000);
  unsubscribe();

  // stored in order: connected, stalled (flagged), source lost, retrying 1 of 12, recovered, ended
  const done = await report();
  const order = done.events.map((e) => e.kind);
  const at = (kind: HealthEventKind, from = 0) => order.indexOf(kind, from);
  const connected = at("connected");
  const stalled = at("stalled", connected);
  const sourceLost = at("source_lost", connected);
  const retry = at("retrying", sourceLost);
  const recovered = at("recovered", retry);
  assert.ok(connected >= 0 && stalled > connected && sourceLost > connected && retry > sourceLost && recovered > retry && at("ended") === order.length - 1, order.join(", "));
  assert.ok(!order.slice(stalled, sourceLost).includes("recovered"), `no recovery while the source is gone: ${order.join(", ")}`);
  assert.deepEqual(done.events.map((e) => e.id), [...done.events.map((e) => e.id)].sort((a, b) => a - b), "ids grow");
  assert.match(done.events[stalled].message, /no media for \d+ s/);
  assert.equal(done.snapshot!.pull.state, "ended");
  assert.equal(done.snapshot!.pull.endReason, "closed");
  // every stored event was published, in the same order, with its snapshot
  const published = updates.flatMap((u) => (u.event ? [u.event] : []));
  assert.deepEqual(published.map((e) => e.id), done.events.map((e) => e.id));
  assert.ok(updates.some((u) => !u.event && u.snapshot.requestId === id && u.snapshot.pull.state === "connected"), "live snapshots between events");
  const t0 = Date.parse(done.events[0].at);
  console.log(`# health events: ${done.events.map((e) => `+${((Date.parse(e.at) - t0) / 1000).toFixed(1)} s ${e.kind} (${e.message})`).join(" → ")}`);
});
