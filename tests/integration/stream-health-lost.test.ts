// A source lost for good: a real RTMP publisher killed and never restarted. The ingest server keeps answering
// the retries with the stream's stale headers (no media); that is no connection: no "recovered" event, the retry
// count keeps counting (1, 2, …), and the failure reason is a real error line, never "Last message repeated".
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { StreamHealthSnapshot } from "../../lib/stream-health";
import { startTestService } from "../support/app";
import { startHealthStream } from "../support/health-stream";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";

let svc: Awaited<ReturnType<typeof startTestService>>;
let src: RtmpSource;
let rx: Awaited<ReturnType<typeof startReceiver>>;
before(async () => {
  [svc, src, rx] = await Promise.all([startTestService(), startRtmpSource({ name: "health-lost", audio: "tone" }), startReceiver()]);
});
after(async () => {
  await rx?.close();
  await src?.close();
  await svc?.close();
});

test("publisher killed, never back: no recovery, retries keep counting, the reason is not a repeat note", async () => {
  const ack = await startHealthStream(svc, src.rtmpUrl, rx.url);
  assert.equal(ack.code, 1100, JSON.stringify(ack));
  const id = ack.requestId as string;
  const health = () => svc.engine!.streams.health(id) as StreamHealthSnapshot;
  const events = async () => (await svc.engine!.streams.healthReport(id))!.events;
  await waitFor(async () => health().pull.state === "connected" && (await events()).some((e) => e.kind === "connected"), 30_000);

  const lastBefore = Math.max(...(await events()).map((e) => e.id));
  const mediaBefore = Date.parse(health().lastMediaAt!);
  await src.stopPublisher();
  const afterKill = async () => (await events()).filter((e) => e.id > lastBefore);
  // the second retry comes only after an attempt on the stale headers (about 17 s after the first one)
  await waitFor(async () => (await afterKill()).some((e) => e.kind === "recovered" || (e.kind === "retrying" && (e.attempt ?? 0) >= 2)), 90_000);
  const seen = await afterKill();
  const trace = seen.map((e) => `${e.kind}${e.attempt ? ` ${e.attempt}` : ""} (${e.message})`).join(" → ");
  assert.deepEqual(seen.filter((e) => e.kind === "recovered" || e.kind === "connected"), [], `no media came after the kill: ${trace}`);
  assert.equal(seen.filter((e) => e.kind === "source_lost").length, 1, trace);
  const attempts = seen.filter((e) => e.kind === "retrying").map((e) => e.attempt);
  assert.deepEqual(attempts, attempts.map((_, i) => i + 1), `the retry count keeps counting: ${trace}`);
  for (const e of seen) assert.doesNotMatch(e.message, /Last message repeated/, trace);
  const s = health();
  assert.notEqual(s.pull.state, "connected");
  assert.doesNotMatch(s.lastError?.message ?? "", /Last message repeated/);
  assert.ok(s.flagged, "still flagged: no media since the kill");
  // counted from the last media (not from the stream's start or the first retry): no earlier than media seen before the kill
  assert.ok(Date.parse(s.flagged.noMediaSince!) >= mediaBefore, `counted from the last media: ${s.flagged.noMediaSince} vs media at ${new Date(mediaBefore).toISOString()} before the kill`);
  if (s.lastMediaAt) assert.equal(s.flagged.noMediaSince, s.lastMediaAt, "no media since the last media received");
  console.log(`# after the kill: ${trace}; last error: ${s.lastError?.message}`);
});
