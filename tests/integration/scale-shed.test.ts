// Scaled mode (#14.3): a worker whose detectors fall behind sheds its newest stream to a worker with room rather than
// keep skipping frames, and says so (log + a "handover" health event); the taker checks that stream's frames. Real
// worker child processes on real Redis + PostgreSQL, real RTMP sources; the first worker's detection is made slower
// than its capture (TEST_DETECT_MIN_JOB_MS). Skipped, with the reason, without both URLs.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { and, eq } from "drizzle-orm";
import { qrStreamRequest, startTestService, TEST_KEY } from "../support/app";
import type { ChildServer } from "../support/child-server";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";
import { scaleSkip as skip, scratchSchema, startScaleWorker } from "../support/scale";
import { streamHealthEvents } from "../../server/store/schema";

if (skip) console.log(`# skipping scaled-mode shedding test: ${skip}`);

let db: Awaited<ReturnType<typeof scratchSchema>>;
let dataDir = "";
let api: Awaited<ReturnType<typeof startTestService>>;
const workers: ChildServer[] = [];
const sources: RtmpSource[] = [];
let rx: Awaited<ReturnType<typeof startReceiver>>;
const shared = { REDIS_URL: process.env.REDIS_URL ?? "", QUEUE_PREFIX: `test-${Date.now().toString(36)}-${process.pid}`, STREAM_LEASE_SEC: "5" };
const startWorker = (name: string, env: Record<string, string> = {}) => startScaleWorker({ dataDir, databaseUrl: db.url, name, env: { ...shared, STREAM_CAPACITY: "4", ...env } });

before(async () => {
  if (skip) return;
  db = await scratchSchema();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mod-scale-shed-"));
  api = await startTestService({ databaseUrl: db.url, dataDir, env: shared });
  sources.push(...(await Promise.all(["a", "b"].map((k) => startRtmpSource({ name: `shed-${k}`, audio: "none", qr: { text: `https://spam.example/shed-${k}`, fromSec: 0, toSec: 6 } })))));
  rx = await startReceiver();
});

after(async () => {
  if (skip) return;
  await Promise.all(workers.map((w) => w.stop()));
  await api?.close();
  await Promise.all(sources.map((s) => s.close()));
  await rx?.close();
  await db?.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** when each step was reached, in seconds since the test began (a failure prints them) */
const phases: string[] = [];
let began = 0;
const phase = (what: string) => phases.push(`${what} ${((Date.now() - began) / 1000).toFixed(1)}`);

test("a worker behind sheds its newest stream to a worker with room, which checks its frames", { skip, timeout: 300_000 }, async () => {
  began = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    // short of the test's own timeout, so that a slow run fails here with what the workers did
    const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("not done within 280 s")), 280_000)));
    await Promise.race([shedAndTake(), deadline]);
  } catch (err) {
    // a failure says what each worker did with the streams, in its own message (CI keeps only the tail of the output,
    // where tests/run.mjs prints the failing tests again)
    const said = workers.map((w, i) => `--- w${i + 1} (its stream, lease and shed lines, the last 25) ---\n${w.output().split("\n").filter((l) => /stream|lease|shed|behind|error|fail/i.test(l)).slice(-25).join("\n")}`);
    if (err instanceof Error) err.message += `\nphases (s since the test began): ${phases.join(", ")}\n${said.join("\n")}`;
    throw err;
  } finally {
    clearTimeout(timer);
  }
});

async function shedAndTake() {
  // w1 alone: once it holds both streams its detection is slower than its capture (a frame a second each, 2.5 s per
  // detection), and it falls behind. Slow from the start, it fell behind on A's first burst of frames before it had
  // claimed B (a worker behind claims nothing), and B went nowhere until w2 came.
  const w1 = await startWorker("w1", { TEST_DETECT_MIN_JOB_MS: "2500", TEST_DETECT_SLOW_FROM_STREAMS: "2", STREAM_ADMISSION_WINDOW_SEC: "6" });
  workers.push(w1);
  phase("w1 ready");
  const cb = `${rx.url}/cb`;
  // w1 claims the older first
  const a = await api.post("/videostream/v4", qrStreamRequest(sources[0].rtmpUrl, cb, { tokenId: "a", returnAllImg: 1 }));
  const b = await api.post("/videostream/v4", qrStreamRequest(sources[1].rtmpUrl, cb, { tokenId: "b", returnAllImg: 1 }));
  assert.equal(a.code, 1100, JSON.stringify(a));
  assert.equal(b.code, 1100, JSON.stringify(b));
  const [idA, idB] = [String(a.requestId), String(b.requestId)];
  phase("posted");
  await waitFor(async () => w1.output().includes(`stream ${idA}: taken by w1`) && w1.output().includes(`stream ${idB}: taken by w1`), 60_000);
  phase("both on w1");
  const unchecked = (id: string) => rx.received.filter((x) => String(x.body.requestId).startsWith(`${id}_v`) && (x.body.frameDetail as { auxInfo: { detectType?: number } }).auxInfo.detectType === 2);
  await rx.until(() => unchecked(idA).length + unchecked(idB).length > 0, 90_000);
  phase("behind");

  // a worker with room arrives: w1 sheds its newest stream (B) to it, and keeps A
  const w2 = await startWorker("w2");
  workers.push(w2);
  phase("w2 ready");
  await waitFor(async () => new RegExp(`stream ${idB}: taken by w2 \\(resumed\\) from shed-w1`).test(w2.output()), 90_000, 100);
  assert.match(w1.output(), new RegExp(`stream ${idB}: shed \\(detection behind on w1; w2 has room\\)`));
  assert.doesNotMatch(w2.output(), new RegExp(`stream ${idA}: taken`), "only the newest stream is shed");
  const takenAt = Date.now();
  phase("B on w2");
  // on w2 B's frames are checked again
  await rx.until((r) => r.some((x) => x.at > takenAt && String(x.body.requestId).startsWith(`${idB}_v`) && (x.body.frameDetail as { auxInfo: { detectType?: number } }).auxInfo.detectType !== 2), 60_000);
  phase("B checked on w2");
  console.log(`# phases: ${phases.join(", ")}`);
  // and B's health says why its timeline has a gap
  const events = await api.engine!.ctx.store.db.select().from(streamHealthEvents).where(and(eq(streamHealthEvents.requestId, idB), eq(streamHealthEvents.kind, "handover")));
  assert.ok(events.some((e) => /handed back by worker w1: its detection fell behind/.test(e.message)), JSON.stringify(events.map((e) => e.message)));
  assert.ok(events.some((e) => /taken over by worker w2 from shed-w1/.test(e.message)), JSON.stringify(events.map((e) => e.message)));
  for (const id of [idA, idB]) await api.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
  await rx.until((r) => [idA, idB].every((id) => r.some((x) => x.body.requestId === id && x.body.statCode === 1)), 60_000);
}
