// The detect pool's queue: lanes (one per live stream) served round-robin, a lane with nothing queued always
// admitted, queued jobs abortable. A real worker (QR engine only); the test hook holds each job ≥ 150 ms so
// the queue fills.
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { QueueFullError } from "../../server/detect/index";
import { WorkerDetectPool } from "../../server/detect/pool";
import { qrFrame } from "../bench/detectors";

let pool: WorkerDetectPool;
let qr: Buffer;

before(async () => {
  pool = new WorkerDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-detect-lanes"), engines: ["qrcode"], workers: 1, queueLimit: 6 });
  qr = await qrFrame("https://spam.example/lanes");
  await pool.ready();
  pool.setMinJobMsForTest(150);
});

after(() => pool.close());

const job = (lane: string | undefined, order: string[], name: string, signal?: AbortSignal) =>
  pool.detectFrame({ jpeg: new Uint8Array(qr), imgTypes: ["QRCODE"], imgBusinessTypes: [], lane, signal }).then((v) => {
    order.push(name);
    return v;
  });

test("lanes are served round-robin: a busy lane does not hold back another lane's job", async () => {
  const order: string[] = [];
  const jobs = [job("a", order, "a1")]; // dispatched at once
  jobs.push(job("a", order, "a2"), job("a", order, "a3"), job("a", order, "a4"));
  jobs.push(job("b", order, "b1"), job("b", order, "b2"));
  const verdicts = await Promise.all(jobs);
  assert.ok(verdicts.every((v) => v.riskLevel === "REVIEW"));
  assert.deepEqual(order, ["a1", "a2", "b1", "a3", "b2", "a4"]);
});

test("queue full: a lane with jobs queued is refused, a lane with none is still admitted; an aborted queued job leaves the queue", async () => {
  const order: string[] = [];
  const busy = ["f1", "f2", "f3", "f4", "f5", "f6"].map((name) => job(undefined, order, name)); // unlabelled jobs share one lane
  await assert.rejects(job(undefined, order, "f7"), QueueFullError);
  const abort = new AbortController();
  const s1 = job("stream-1", order, "s1", abort.signal);
  await assert.rejects(job("stream-1", order, "s1b"), QueueFullError, "one queued job per lane past the limit");
  const s2 = job("stream-2", order, "s2");
  abort.abort();
  await assert.rejects(s1, { name: "AbortError" });
  await Promise.all([...busy, s2]);
  assert.deepEqual(order, ["f1", "f2", "s2", "f3", "f4", "f5", "f6"]);
  assert.equal(pool.stats().pending, 0);
});
