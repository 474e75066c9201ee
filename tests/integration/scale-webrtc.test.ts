// Scaled mode with a WHEP source (streamType WEBRTC) behind a bearer: an API node accepts it, a `npm run worker`
// child process pulls it over WebRTC with the bearer from the task's secrets column; that worker killed with -9, the
// other takes the stream over and opens its own WHEP session, again with the bearer. Real Redis and PostgreSQL
// (REDIS_URL, DATABASE_URL), chromium as the WHEP endpoint. Skipped, with the reason, without both URLs.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { TEST_KEY } from "../support/app";
import { startChildServer, type ChildServer } from "../support/child-server";
import { startReceiver, waitFor, type Received } from "../support/net";
import { scaleSkip as skip, scratchSchema, startScaleWorker } from "../support/scale";
import { startWebrtcBrowser, type WebrtcBrowser } from "../support/webrtc-browser";

const { REDIS_URL } = process.env;
if (skip) console.log(`# skipping scaled-mode WebRTC test: ${skip}`);

const LEASE_SEC = 6;
const TOKEN = `scaled-whep-${crypto.randomBytes(6).toString("hex")}`;
let dropSchema: () => Promise<void> = async () => undefined;
let dataDir = "";
let node: ChildServer | null = null;
const workers: ChildServer[] = [];
let browser: WebrtcBrowser | null = null;
let rx: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  if (skip) return;
  const db = await scratchSchema();
  dropSchema = db.drop;
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mod-scale-webrtc-"));
  const shared = { REDIS_URL: REDIS_URL!, QUEUE_PREFIX: `test-${crypto.randomBytes(4).toString("hex")}`, STREAM_LEASE_SEC: String(LEASE_SEC) };
  node = await startChildServer({ dataDir, timeoutMs: 120_000, env: { ...shared, DATABASE_URL: db.url } });
  workers.push(...(await Promise.all(["w1", "w2"].map((name) => startScaleWorker({ dataDir, databaseUrl: db.url, name, env: shared })))));
  browser = await startWebrtcBrowser();
  rx = await startReceiver();
});

after(async () => {
  if (skip) return;
  await Promise.all(workers.map((w) => w.stop()));
  await node?.stop();
  await browser?.close();
  await rx?.close();
  await dropSchema();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const framesOf = (r: Received[], id: string) => r.filter((x) => String(x.body.requestId).startsWith(`${id}_v`));

test("a WHEP source with a bearer runs on a worker, and after kill -9 on the other one, each opening its WHEP session with the bearer", { skip, timeout: 300_000 }, async () => {
  const whep = await browser!.serveWhep({ bearer: TOKEN });
  try {
    const ack = await node!.post("/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "NONE", imgCallback: `${rx.url}/cb`, data: { streamType: "WEBRTC", url: whep.url, headers: { Authorization: `Bearer ${TOKEN}` }, tokenId: "scaled", detectFrequency: 1, returnAllImg: 1, returnFinishInfo: 1 } });
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    const id = String(ack.requestId);
    const holder = await waitFor(async () => workers.find((w) => new RegExp(`stream ${id}: taken by`).test(w.output())), 60_000);
    await rx.until((r) => framesOf(r, id).length >= 2, 120_000);
    const before = framesOf(rx.received, id).length;
    await holder.kill9();
    const other = workers.find((w) => w !== holder)!;
    await waitFor(async () => new RegExp(`stream ${id}: taken by \\S+ \\(resumed\\)`).test(other.output()), LEASE_SEC * 1000 + 30_000, 100);
    await rx.until((r) => framesOf(r, id).length >= before + 2, 120_000);
    assert.ok(whep.posts() >= 2, `each worker opened its own WHEP session (${whep.posts()})`);
    assert.equal(whep.refused(), 0, "every WHEP request carried the bearer");

    const fin = await node!.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
    assert.equal(fin.code, 1100, JSON.stringify(fin));
    const ended = await rx.until((r) => r.some((x) => x.body.requestId === id && x.body.statCode === 1), 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${other.output().split("\n").filter((l) => l.includes(id)).slice(-15).join("\n")}`);
    });
    const end = ended.find((x) => x.body.requestId === id && x.body.statCode === 1)!;
    assert.deepEqual((end.body.detail as { requestParams: { headers: unknown } }).requestParams.headers, { Authorization: "Bearer ***" });
    assert.ok(!JSON.stringify(rx.received).includes(TOKEN), "no callback carries the bearer");
    for (const w of [node!, ...workers]) assert.ok(!w.output().includes(TOKEN), "no process logged the bearer");
  } finally {
    await whep.stopAll();
    await whep.close();
  }
});
