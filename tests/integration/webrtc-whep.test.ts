// streamType WEBRTC: the service pulls a WHEP endpoint over WebRTC (werift) from a second, independent WebRTC
// stack (Debian chromium answering with its fake camera + microphone behind a tiny signalling shim), under the
// egress rules (signalling pinned, ICE pairs to refused addresses dropped), with NORMAL's stream-end codes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { sql } from "drizzle-orm";
import { openWhepPull } from "../../server/ingest/webrtc/whep-source";
import { tasks } from "../../server/store/schema";
import { iceAddressAllowed } from "../../server/ingest/webrtc/ice-guard";
import { NetworkList } from "../../server/net/networks";
import { liveStreamRequest, startTestService, TEST_KEY } from "../support/app";
import { startReceiver, streamEnds, streamResults, waitFor } from "../support/net";
import { startWebrtcBrowser, type WebrtcBrowser } from "../support/webrtc-browser";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let browser: WebrtcBrowser;
let svc: Awaited<ReturnType<typeof startTestService>>;
const logs: string[] = [];
before(async () => {
  [browser, svc] = await Promise.all([startWebrtcBrowser(), startTestService({ log: (m) => logs.push(m) })]);
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

const request = (url: string, cb: string, data: Record<string, unknown> = {}) => liveStreamRequest(url, cb, { streamType: "WEBRTC", tokenId: "whep-user", ...data });

test("ICE guard: public addresses pass; private ones only when allowed, in ALLOW_NETWORKS or vetted for the signalling URL; names never", () => {
  const strict = { allowPrivate: false, allowNetworks: NetworkList.parse("10.1.0.0/16") };
  assert.equal(iceAddressAllowed("8.8.8.8", strict), true);
  assert.equal(iceAddressAllowed("192.168.1.5", strict), false);
  assert.equal(iceAddressAllowed("10.1.2.3", strict), true);
  assert.equal(iceAddressAllowed("127.0.0.1", strict, ["127.0.0.1"]), true);
  assert.equal(iceAddressAllowed("::ffff:192.168.1.5", strict), false);
  assert.equal(iceAddressAllowed("abcd-1234.local", { allowPrivate: true }), false);
});

test("a WHEP source served by chromium is pulled: frame and audio callbacks, then Close → stream-end; the contract refuses a non-http WHEP url", async () => {
  const whep = await browser.serveWhep();
  const rx = await startReceiver();
  try {
    const bad = await svc.post("/videostream/v4", request("rtmp://127.0.0.1:1935/live/x", rx.url));
    assert.equal(bad.code, 1902, JSON.stringify(bad));
    assert.match(String(bad.message), /data\.url/);

    const ack = await svc.post("/videostream/v4", request(whep.url, rx.url));
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    await rx.until((r) => streamResults(r, 1).length >= 2 && streamResults(r, 2).length >= 1, 120_000);
    const frame = streamResults(rx.received, 1)[0].body as Json;
    assert.equal(frame.frameDetail.riskLevel, "PASS");
    assert.equal((await fetch(frame.frameDetail.imgUrl)).headers.get("content-type"), "image/jpeg");
    assert.equal(whep.posts(), 1, "one WHEP session while the stream runs");
    const fin = await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
    assert.equal(fin.code, 1100, JSON.stringify(fin));
    const end = await rx.until((r) => streamEnds(r).length >= 2, 30_000).catch((err) => {
      throw new Error(`${err.message}: ${JSON.stringify(rx.received.map((x) => [x.body.statCode, x.body.contentType, x.body.requestId]))}`);
    });
    for (const e of streamEnds(end)) {
      assert.equal((e.body as Json).pullStreamSuccess, true, JSON.stringify(e.body));
      assert.equal((e.body as Json).auxInfo.errorCode, undefined);
    }
  } finally {
    await rx.close();
    await whep.stopAll();
    await whep.close();
  }
});

test("the WHEP RTP goes straight into the capture ffmpeg (an SDP file, no relay); the far side leaving ends the run as a source that stopped, without waiting for the stall watchdog", async () => {
  const whep = await browser.serveWhep();
  const dir = await mkdtemp(path.join(os.tmpdir(), "whep-direct-"));
  const frames: number[] = [];
  // an I/O timeout far beyond the wait below: only the peer's end can end this run in time
  const pull = openWhepPull(whep.url, { allowPrivate: true }, { frameIntervalSec: 1, audio: false, outDir: dir, ioTimeoutMs: 600_000, onFrame: (f) => frames.push(f.index), onSegment: () => undefined });
  try {
    await waitFor(async () => frames.length >= 2, 60_000);
    // this process's own ffmpeg children (other test files run theirs side by side)
    const ps = spawnSync("ps", ["-eo", "ppid=,args="], { encoding: "utf8" }).stdout.split("\n").map((l) => l.trim());
    const ffmpegs = ps.filter((l) => l.startsWith(`${process.pid} `) && /ffmpeg/.test(l) && l.includes("webrtc-relay-"));
    assert.equal(ffmpegs.length, 1, `one ffmpeg reads the forwarded RTP: ${ffmpegs.join(" | ")}`);
    assert.match(ffmpegs[0], /-f sdp .*-i \S+\.sdp .*image2pipe/, "and it is the capture itself (JPEGs on its stdout), not a transcoding relay");
    assert.doesNotMatch(ffmpegs[0], /libx264|flv/);
    let settled: Awaited<typeof pull.done> | null = null;
    void pull.done.then((e) => (settled = e));
    await whep.stopAll();
    await waitFor(async () => settled, 60_000);
    assert.deepEqual(settled, { reason: "ended", gotData: true, finite: false });
    assert.equal(whep.deletes(), 1, "the session was deleted");
  } finally {
    await pull.stop();
    await whep.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("an unreachable WHEP endpoint ends the stream with errorCode 3001 after NORMAL's pull retries", async () => {
  const closed = net.createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const rx = await startReceiver();
  try {
    const ack = await svc.post("/videostream/v4", request(`http://127.0.0.1:${port}/whep/nobody`, rx.url));
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    const end = await rx.until((r) => streamEnds(r).length >= 1, 120_000);
    const e = streamEnds(end)[0].body as Json;
    assert.equal(e.requestId, ack.requestId);
    assert.equal(e.pullStreamSuccess, false, JSON.stringify(e));
    assert.equal(e.auxInfo.errorCode, 3001, JSON.stringify(e));
  } finally {
    await rx.close();
  }
});

test("ICE toward an address the egress rules refuse is never paired: signalling allowed (127.0.0.1 in ALLOW_NETWORKS), chromium's host candidates refused → 3001 naming them", async () => {
  const whep = await browser.serveWhep();
  const dir = await mkdtemp(path.join(os.tmpdir(), "whep-guard-"));
  try {
    const pull = openWhepPull(whep.url, { allowPrivate: false, allowNetworks: NetworkList.parse("127.0.0.1/32") }, { frameIntervalSec: 1, audio: false, outDir: dir, ioTimeoutMs: 4000, onFrame: () => undefined, onSegment: () => undefined });
    const end = await pull.done;
    assert.equal(end.reason, "failed", JSON.stringify(end));
    assert.ok(end.reason === "failed" && end.errorCode === 3001, JSON.stringify(end));
    assert.match(end.reason === "failed" ? end.message : "", /refused by the egress guard/);
    await waitFor(async () => whep.posts() === 1, 5000);
  } finally {
    await whep.stopAll();
    await whep.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("a WHEP endpoint that wants a bearer: refused without it (3001 saying so); pulled with data.headers.Authorization, sent on POST and DELETE; the bearer is echoed, stored and logged only as `Bearer ***`", async () => {
  const token = `whep-${Math.random().toString(36).slice(2)}-secret.token`;
  const whep = await browser.serveWhep({ bearer: token });
  const rx = await startReceiver();
  const dir = await mkdtemp(path.join(os.tmpdir(), "whep-bearer-"));
  try {
    const bare = await openWhepPull(whep.url, { allowPrivate: true }, { frameIntervalSec: 1, audio: false, outDir: dir, ioTimeoutMs: 4000, onFrame: () => undefined, onSegment: () => undefined }).done;
    assert.ok(bare.reason === "failed" && bare.errorCode === 3001, JSON.stringify(bare));
    assert.match(bare.reason === "failed" ? bare.message : "", /HTTP 401: it wants a bearer in data\.headers\.Authorization/);
    assert.equal(whep.refused(), 1);

    const notWebrtc = await svc.post("/videostream/v4", { ...request("rtmp://127.0.0.1:1935/live/x", rx.url), data: { streamType: "NORMAL", url: "rtmp://127.0.0.1:1935/live/x", headers: { Authorization: `Bearer ${token}` } } });
    assert.equal(notWebrtc.code, 1902, JSON.stringify(notWebrtc));
    assert.match(String(notWebrtc.message), /data\.headers/);
    const notBearer = await svc.post("/videostream/v4", request(whep.url, rx.url, { headers: { Authorization: "Basic dXNlcjpwdw==" } }));
    assert.equal(notBearer.code, 1902, JSON.stringify(notBearer));

    const ack = await svc.post("/videostream/v4", request(whep.url, rx.url, { headers: { Authorization: `Bearer ${token}` } }));
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    await rx.until((r) => streamResults(r, 1).length >= 1, 120_000);
    const [row] = await svc.engine!.ctx.store.db.select().from(tasks).where(sql`${tasks.requestId} = ${ack.requestId}`);
    assert.deepEqual((row.request as Json).data.headers, { Authorization: "Bearer ***" }, "the stored request (what is echoed) holds no bearer");
    assert.deepEqual(row.secrets, { sourceHeaders: { Authorization: `Bearer ${token}` } }, "the pull's credential is kept apart");
    const fin = await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
    assert.equal(fin.code, 1100, JSON.stringify(fin));
    await rx.until((r) => streamEnds(r).length >= 2, 30_000);
    await waitFor(async () => whep.deletes() >= 1, 10_000);
    assert.equal(whep.refused(), 1, "the service's POST and DELETE both carried the bearer");

    for (const e of streamEnds(rx.received)) {
      const params = ((e.body as Json).detail?.requestParams ?? (e.body as Json).requestParams) as Json;
      assert.deepEqual(params.headers, { Authorization: "Bearer ***" }, JSON.stringify(e.body));
    }
    assert.ok(!JSON.stringify(rx.received).includes(token), "no callback carries the bearer");
    assert.deepEqual(logs.filter((l) => l.includes(token)), [], "no log line carries the bearer");
    // nowhere in the store (dashboard mirror, callback outbox, …) but the task's secrets column
    const db = svc.engine!.ctx.store.db;
    const rows = async (q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: Json[] }).rows;
    const names = (await rows(sql`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)).map((r) => String(r.table_name));
    assert.ok(names.includes("dashboard_streams") && names.includes("deliveries"), names.join());
    for (const t of names) {
      const [hits] = await rows(sql.raw(`SELECT count(*)::int AS n FROM "${t}" x WHERE strpos(${t === "tasks" ? "(to_jsonb(x) - 'secrets')::text" : "x::text"}, '${token}') > 0`));
      assert.equal(hits.n, 0, `table ${t} holds the bearer`);
    }
  } finally {
    await rx.close();
    await whep.stopAll();
    await whep.close();
    await rm(dir, { recursive: true, force: true });
  }
});
