import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Dispatcher } from "../../server/callback/dispatcher";
import { downloadToFile, DownloadError } from "../../server/ingest/download";
import { startLivePull, type LiveFrame, type LivePullEnd, type LivePullOptions } from "../../server/ingest/live";
import { checkUrl, setResolver } from "../../server/ingest/url-guard";
import { openStore, type Store } from "../../server/store/db";
import { startHlsSource, startRtmpSource, type HlsSource, type RtmpSource } from "../support/live-sources";
import { makeVideo, startStaticServer } from "../support/media";
import { waitFor } from "../support/net";
import { moderateFile, startTestService, TEST_KEY } from "../support/app";

// Names under .test never resolve in real DNS (RFC 2606), so a connection that reaches the test servers through
// one of them went to the address the guard's resolver handed out: the pinned one.
const names = new Map<string, string[] | (() => string[])>();
const resolved: string[] = [];
setResolver(async (host) => {
  resolved.push(host);
  const a = names.get(host);
  if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return typeof a === "function" ? a() : a;
});

/** A plain HTTP server recording every request; serves files from `dir`. */
async function countingServer(dir: string, host = "127.0.0.1", port = 0) {
  const hits: string[] = [];
  const server = http.createServer(async (req, res) => {
    hits.push(req.url ?? "");
    const file = path.join(dir, path.basename(new URL(req.url ?? "/", "http://x").pathname));
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { "content-length": info.size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(port, host, r));
  server.unref();
  return { hits, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

let tmp: string;
let hls: HlsSource;
let rtmp: RtmpSource;
let video: string;
before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "ssrf-"));
  video = await makeVideo({ name: "ssrf-small", durationSec: 2, width: 160, height: 120, fps: 5, audio: "none" });
  [hls, rtmp] = await Promise.all([startHlsSource({ name: "ssrf-hls", live: false, durationSec: 4 }), startRtmpSource({ name: "ssrf-rtmp", audio: "none" })]);
});
after(async () => {
  setResolver(null);
  await Promise.all([hls?.close(), rtmp?.close()]);
  await rm(tmp, { recursive: true, force: true });
});

let runs = 0;
async function pullOnce(o: Pick<LivePullOptions, "url" | "egress">, stopAfterFrames = 0): Promise<{ end: LivePullEnd; frames: LiveFrame[] }> {
  const frames: LiveFrame[] = [];
  const pull = startLivePull({ ...o, frameIntervalSec: 1, audio: false, ioTimeoutMs: 4000, outDir: path.join(tmp, `pull-${++runs}`), onFrame: (f) => void frames.push(f), onSegment: () => undefined });
  if (stopAfterFrames > 0) {
    await Promise.race([waitFor(async () => frames.length >= stopAfterFrames, 30_000), pull.done]);
    await pull.stop();
  }
  return { end: await pull.done, frames };
}

test("HLS through the egress proxy: playlist and segments on an allowed origin are fetched (ffmpeg cannot resolve the name itself)", async () => {
  const u = new URL(hls.url);
  names.set("hls-ok.test", ["127.0.0.1"]);
  const url = `http://hls-ok.test:${u.port}${u.pathname}`;
  const { end, frames } = await pullOnce({ url, egress: { allowPrivate: false, allowedOrigins: [`http://hls-ok.test:${u.port}`] } });
  assert.ok(frames.length >= 2, `frames came through the proxy (${JSON.stringify(end)})`);
  assert.equal(end.reason, "ended");
});

test("an HLS segment URL pointing at a private address is never fetched", async () => {
  const segments = await countingServer(path.join(tmp, "nothing-here"));
  // the playlist (on an allowed origin) lists its segments on 127.0.0.1:<segments.port>, which is not allowed
  const original = await (await fetch(hls.url)).text();
  const rewritten = original.replace(/^(?!#)(\S+\.ts)$/gm, (seg) => `http://127.0.0.1:${segments.port}/${seg}`);
  assert.notEqual(rewritten, original, "precondition: the playlist lists segments");
  const playlistDir = path.join(tmp, "evil-playlist");
  await mkdir(playlistDir, { recursive: true });
  await writeFile(path.join(playlistDir, "index.m3u8"), rewritten);
  const lists = await startStaticServer(playlistDir);
  try {
    const port = new URL(lists.url).port;
    names.set("lists.test", ["127.0.0.1"]);
    const { end, frames } = await pullOnce({ url: `http://lists.test:${port}/index.m3u8`, egress: { allowPrivate: false, allowedOrigins: [`http://lists.test:${port}`] } });
    assert.equal(frames.length, 0);
    assert.deepEqual(segments.hits, [], "no segment request reached the private server");
    if (end.reason === "failed") assert.match(end.message, /egress guard/);
  } finally {
    await Promise.all([segments.close(), lists.close()]);
  }
});

test("an HTTP-FLV redirect from an allowed origin to a private address is refused by the proxy", async () => {
  const target = await countingServer(path.dirname(video));
  const hop = await startStaticServer(tmp);
  try {
    const port = new URL(hop.url).port;
    names.set("hop.test", ["127.0.0.1"]);
    const url = `http://hop.test:${port}/__redirect?to=${encodeURIComponent(`http://127.0.0.1:${target.port}/${path.basename(video)}`)}`;
    const { end, frames } = await pullOnce({ url, egress: { allowPrivate: false, allowedOrigins: [`http://hop.test:${port}`] } });
    assert.equal(frames.length, 0);
    assert.deepEqual(target.hits, []);
    assert.equal(end.reason, "failed");
    if (end.reason === "failed") assert.match(end.message, /egress guard/);
  } finally {
    await Promise.all([target.close(), hop.close()]);
  }
});

test("rtmp: connects to the checked address literal (the name is unknown to ffmpeg), a private one is refused before ffmpeg starts", async () => {
  const u = new URL(rtmp.rtmpUrl);
  names.set("ingest.test", ["127.0.0.1"]);
  const url = `rtmp://ingest.test:${u.port}${u.pathname}`;
  const ok = await pullOnce({ url, egress: { allowPrivate: false, allowedOrigins: [`rtmp://ingest.test:${u.port}`] } }, 1);
  assert.ok(ok.frames.length >= 1, `frames over the pinned connection (${JSON.stringify(ok.end)})`);
  const refused = await pullOnce({ url, egress: { allowPrivate: false } });
  assert.equal(refused.end.reason, "failed");
  if (refused.end.reason === "failed") {
    assert.equal(refused.end.errorCode, 3001);
    assert.match(refused.end.message, /egress guard.*private address \(127\.0\.0\.1\)/);
  }
});

test("file download: a redirect to a private address is refused, and the connection uses the address checked (no second lookup)", async () => {
  const a = await countingServer(path.dirname(video), "127.0.0.1");
  // same port on another loopback address: reached only if the connection resolved the name again
  const b = await countingServer(path.dirname(video), "127.0.0.2", a.port);
  const hop = await startStaticServer(tmp);
  try {
    let n = 0;
    names.set("rebind.test", () => (n++ % 2 === 0 ? ["127.0.0.1"] : ["127.0.0.2"]));
    const origin = `http://rebind.test:${a.port}`;
    resolved.length = 0;
    const got = await downloadToFile(`${origin}/${path.basename(video)}`, path.join(tmp, "dl-1"), { maxBytes: 10_000_000, timeoutMs: 20_000, allowPrivate: false, allowedOrigins: [origin] });
    assert.ok(got.bytes > 0);
    assert.equal(a.hits.length, 1);
    assert.equal(b.hits.length, 0, "the second DNS answer was never used");
    assert.deepEqual(resolved, ["rebind.test"], "one resolution per request");

    const hopOrigin = `http://hop.test:${new URL(hop.url).port}`;
    names.set("hop.test", ["127.0.0.1"]);
    names.set("internal.test", ["10.0.0.7"]);
    for (const to of [`http://127.0.0.1:${a.port}/${path.basename(video)}`, `http://internal.test/${path.basename(video)}`, "http://169.254.169.254/latest/meta-data/"]) {
      const err = await downloadToFile(`${hopOrigin}/__redirect?to=${encodeURIComponent(to)}`, path.join(tmp, "dl-2"), { maxBytes: 10_000_000, timeoutMs: 20_000, allowPrivate: false, allowedOrigins: [hopOrigin] }).catch((e: unknown) => e);
      assert.ok(err instanceof DownloadError && err.kind === "refused-url", `${to}: ${String(err)}`);
    }
    assert.equal(a.hits.length, 1, "the redirect target was never contacted");
  } finally {
    await Promise.all([a.close(), b.close(), hop.close()]);
  }
});

test("a file from this server's own ingest origin is fetched; a redirect from there to another private address is refused (the exemption is by origin, not for the chain)", async () => {
  const svc = await startTestService({ env: { ALLOW_PRIVATE_NETWORKS: "0" } });
  const a = await countingServer(path.dirname(video), "127.0.0.1");
  const own = await startStaticServer(path.dirname(video));
  try {
    svc.engine!.addOwnMediaOrigin(own.url);
    const ok = await moderateFile(svc, own.url, video, { btId: "own-origin", imgType: "QRCODE" });
    assert.equal(ok.code, 1100);
    assert.ok(!ok.auxInfo?.errorCode, JSON.stringify(ok));
    const to = `http://127.0.0.1:${a.port}/${path.basename(video)}`;
    const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "own-redirect", url: `${own.url}/__redirect?to=${encodeURIComponent(to)}` } });
    assert.equal(ack.code, 1100, JSON.stringify(ack));
    const r = await waitFor(async () => {
      const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "own-redirect" });
      return q.code === 1101 ? null : q;
    }, 60_000, 250);
    assert.equal(r.code, 1905, JSON.stringify(r));
    assert.match(String(r.message), /private address/);
    assert.equal(a.hits.length, 0, "the private redirect target was never contacted");
  } finally {
    await Promise.all([a.close(), own.close(), svc.close()]);
  }
});

test("callback delivery: each attempt connects to the address its own check resolved", async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "ssrf-disp-"));
  const store: Store = await openStore({ dataDir, databaseUrl: null });
  const a = await countingServer(tmp, "127.0.0.1");
  const b = await countingServer(tmp, "127.0.0.2", a.port);
  try {
    let n = 0;
    names.set("hook.test", () => (n++ % 2 === 0 ? ["127.0.0.2"] : ["127.0.0.1"]));
    const origin = `http://hook.test:${a.port}`;
    const d = new Dispatcher({ db: store.db, timeScale: 0.01, checkTarget: (url) => checkUrl(url, { protocols: ["http"], allowPrivate: false, allowedOrigins: [origin] }) });
    d.start();
    resolved.length = 0;
    await d.enqueue({ requestId: "pin-1", url: `${origin}/cb`, body: { x: 1 }, schedule: "video" });
    // 404 from the file-less servers keeps it retrying: attempts alternate 127.0.0.2, 127.0.0.1, 127.0.0.2, …
    await waitFor(async () => a.hits.length + b.hits.length >= 3, 20_000, 20);
    await d.stop();
    const attempts = await d.attemptsFor("pin-1");
    assert.equal(resolved.filter((h) => h === "hook.test").length, attempts.length, "one resolution per attempt, none by the connection");
    assert.equal(b.hits.length, Math.ceil(attempts.length / 2));
    assert.equal(a.hits.length, Math.floor(attempts.length / 2));

    names.set("private.test", ["192.168.1.10"]);
    const d2 = new Dispatcher({ db: store.db, timeScale: 0.01, checkTarget: (url) => checkUrl(url, { protocols: ["http"], allowPrivate: false }) });
    d2.start();
    await d2.enqueue({ requestId: "pin-2", url: "http://private.test/cb", body: {}, schedule: "video" });
    const [first] = await waitFor(async () => {
      const rows = await d2.attemptsFor("pin-2");
      return rows.length ? rows : null;
    });
    await d2.stop();
    assert.match(String(first.error), /private address \(192\.168\.1\.10\)/);
    assert.equal(first.httpStatus, null);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
