// Who may publish to and play from the embedded ingest (server/demo/ingest-access.ts): by default this machine
// only; a publisher elsewhere needs INGEST_PUBLISH_KEY. Real ffmpeg publishers and players against the real
// RTMP / HTTP-FLV listeners. A policy that lets no network in shows the checks on loopback; the machine's own
// non-loopback address (when it has one) shows the default refusing a peer from the network.
import assert from "node:assert/strict";
import os from "node:os";
import { after, test } from "node:test";
import fs from "node:fs/promises";
import path from "node:path";
import { startApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { freePort } from "../support/child-server";
import { ingestAccess, LOOPBACK } from "../../server/demo/ingest-access";
import { startRtmpServer, type RtmpServer } from "../../server/demo/rtmp-server";
import { runFfmpeg, startFfmpeg } from "../../server/ingest/ffmpeg";
import type { OwnedProcess } from "../../server/ingest/process";
import { waitFor } from "../support/net";

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

const KEY = "publish-secret-é";

function publish(url: string): OwnedProcess {
  const p = startFfmpeg(["-re", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10", "-c:v", "libx264", "-preset", "ultrafast", "-g", "10", "-t", "20", "-f", "flv", url]);
  cleanups.push(() => p.stop("aborted"));
  return p;
}

test("policy: loopback by default; the key lets a publisher in from anywhere, compared whatever its length; IPv4-mapped peers count as IPv4", () => {
  const a = ingestAccess({ playAllow: LOOPBACK, publishAllow: LOOPBACK, publishKey: KEY });
  assert.ok(a.mayPlay("127.0.0.1") && a.mayPlay("::ffff:127.0.0.1") && a.mayPlay("::1"));
  assert.ok(!a.mayPlay("10.1.2.3") && !a.mayPlay("::ffff:192.168.1.5") && !a.mayPlay(undefined));
  assert.ok(a.mayPublish("127.0.0.1", {}));
  assert.ok(!a.mayPublish("203.0.113.9", {}) && !a.mayPublish("203.0.113.9", { key: "wrong" }) && !a.mayPublish("203.0.113.9", { key: ["a", "b"] }));
  assert.ok(!a.mayPublish("203.0.113.9", { key: `${KEY.slice(0, -1)}e` }), "same length in characters, other bytes");
  assert.ok(a.mayPublish("203.0.113.9", { key: KEY }));
  assert.ok(!ingestAccess({ playAllow: LOOPBACK, publishAllow: LOOPBACK, publishKey: null }).mayPublish("203.0.113.9", { key: "" }), "no key configured: none accepted");
  assert.throws(() => ingestAccess({ playAllow: ["nonsense"], publishAllow: [], publishKey: null }), /INGEST_PLAY_ALLOW: "nonsense"/);
});

test("a network outside both lists: publishing without the key and playing are refused; with ?key= the publish is taken", async () => {
  const logs: string[] = [];
  const server: RtmpServer = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1", log: (m) => logs.push(m), access: ingestAccess({ playAllow: [], publishAllow: [], publishKey: KEY }) });
  cleanups.push(() => server.close());

  const refused = await publish(server.rtmpUrl("nokey")).done;
  assert.notEqual(refused.code, 0, "the publisher without a key is cut off");
  assert.equal(server.isPublishing("nokey"), false);
  assert.ok(logs.some((l) => /publish of \/live\/nokey refused to 127\.0\.0\.1/.test(l)), logs.join("\n"));
  const wrong = await publish(`${server.rtmpUrl("wrongkey")}?key=guess`).done;
  assert.notEqual(wrong.code, 0);

  const good = publish(`${server.rtmpUrl("keyed")}?key=${encodeURIComponent(KEY)}`);
  await waitFor(async () => server.isPublishing("keyed"), 15_000, 50);

  const flv = await fetch(server.flvUrl("keyed"));
  assert.equal(flv.status, 403, "HTTP-FLV play refused");
  assert.equal(flv.headers.get("access-control-allow-origin"), null);
  const play = await runFfmpeg(["-i", server.rtmpUrl("keyed"), "-t", "1", "-f", "null", "-"], { timeoutMs: 15_000 }).then(() => "played", (err: Error) => err.message);
  assert.notEqual(play, "played", "RTMP play refused");
  assert.ok(logs.some((l) => /play of \/live\/keyed refused/.test(l)));
  await good.stop("aborted");
});

test("a publish key shorter than 16 characters is refused at start with a clear configuration error", () => {
  assert.throws(() => loadConfig({ NODE_ENV: "production", INGEST_PUBLISH_KEY: "letmein" }), /INGEST_PUBLISH_KEY must be at least 16 characters \(got 7\)/);
  assert.throws(() => ingestAccess({ playAllow: LOOPBACK, publishAllow: LOOPBACK, publishKey: "short-key" }), /at least 16 characters/);
  assert.equal(loadConfig({ NODE_ENV: "production", INGEST_PUBLISH_KEY: KEY }).ingest.publishKey, KEY);
  assert.equal(loadConfig({ NODE_ENV: "production" }).ingest.publishKey, null);
});

test("policy: refused publishes spend the address's budget (IPv6 by /64); past it even the right key waits; allowed networks never do", () => {
  const a = ingestAccess({ playAllow: LOOPBACK, publishAllow: LOOPBACK, publishKey: KEY, keyFailuresPerMinute: 2 });
  assert.equal(a.publishRefusal("2001:db8:9:9::1", { key: "guess-1" }), "wrong ?key=");
  assert.equal(a.publishRefusal("2001:db8:9:9::2", {}), "not in INGEST_PUBLISH_ALLOW and no ?key=");
  assert.match(String(a.publishRefusal("2001:db8:9:9::3", { key: KEY })), /^too many refused publishes from this address; retry in \d+ s$/);
  assert.equal(a.publishRefusal("2001:db8:9:a::1", { key: KEY }), null, "another /64 has its own budget");
  for (let i = 0; i < 5; i++) assert.equal(a.publishRefusal("127.0.0.1", { key: "x" }), null, "an allowed network publishes whatever it sends");
});

test("real publishers: wrong keys from one address are logged without the key, then throttled even with the right key", async () => {
  const logs: string[] = [];
  const server: RtmpServer = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1", log: (m) => logs.push(m), access: ingestAccess({ playAllow: [], publishAllow: [], publishKey: KEY, keyFailuresPerMinute: 2 }) });
  cleanups.push(() => server.close());
  for (const guess of ["guess-aaaa", "guess-bbbb"]) assert.notEqual((await publish(`${server.rtmpUrl("guessing")}?key=${guess}`).done).code, 0);
  assert.equal(logs.filter((l) => /publish of \/live\/guessing refused to 127\.0\.0\.1: wrong \?key=/.test(l)).length, 2, logs.join("\n"));
  const right = await publish(`${server.rtmpUrl("guessing")}?key=${encodeURIComponent(KEY)}`).done;
  assert.notEqual(right.code, 0, "past the budget the right key is refused too");
  assert.equal(server.isPublishing("guessing"), false);
  assert.ok(logs.some((l) => /publish of \/live\/guessing refused to 127\.0\.0\.1: too many refused publishes from this address; retry in \d+ s/.test(l)), logs.join("\n"));
  assert.ok(!logs.some((l) => l.includes("guess-aaaa") || l.includes("guess-bbbb") || l.includes(encodeURIComponent(KEY)) || l.includes(KEY)), "no key in the log");
});

test("the app's own ingest logs refused publishes (it passes its log to the RTMP server)", async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ingest-app-"));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const logs: string[] = [];
  const env = { PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production" as const, MODERATION_ACCESS_KEYS: "ingest-app-key", DETECT_WORKERS: "1" };
  const rtmp = { RTMP_PORT: String(await freePort()), RTMP_HTTP_PORT: String(await freePort()), INGEST_PUBLISH_ALLOW: "", INGEST_PUBLISH_KEY: KEY };
  const app = await startApp(loadConfig({ ...env, ...rtmp }), { withNext: false, log: (m) => logs.push(m) });
  cleanups.push(() => app.close());
  const refused = await publish(`rtmp://127.0.0.1:${rtmp.RTMP_PORT}/live/app-guess?key=not-the-key`).done;
  assert.notEqual(refused.code, 0);
  assert.ok(logs.some((l) => /\[rtmp\] publish of \/live\/app-guess refused to 127\.0\.0\.1: wrong \?key=/.test(l)), logs.join("\n"));
});

test("the default policy refuses a peer that comes from the machine's own network address, and serves loopback", async (t) => {
  const lan = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;
  if (!lan) return t.skip("this machine has no non-loopback IPv4 address to connect from");
  const server = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "0.0.0.0", access: ingestAccess({ playAllow: LOOPBACK, publishAllow: LOOPBACK, publishKey: null }) });
  cleanups.push(() => server.close());
  const p = publish(server.rtmpUrl("local"));
  await waitFor(async () => server.isPublishing("local"), 15_000, 50);
  assert.equal((await fetch(`http://${lan}:${server.httpPort}/live/local.flv`)).status, 403, `a peer at ${lan}`);
  const local = await fetch(server.flvUrl("local"));
  assert.equal(local.status, 200, "loopback plays");
  await local.body?.cancel();
  const fromLan = await publish(`rtmp://${lan}:${server.rtmpPort}/live/lan`).done;
  assert.notEqual(fromLan.code, 0, "publishing from the network address is refused");
  await p.stop("aborted");
});
