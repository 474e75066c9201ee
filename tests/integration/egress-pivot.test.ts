import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { startLivePull, type LiveFrame, type LivePullEnd, type LivePullOptions } from "../../server/ingest/live";
import { NetworkList } from "../../server/net/networks";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { startHlsSource, startRtmpSource, type HlsSource } from "../support/live-sources";
import { startStaticServer } from "../support/media";
import { waitFor } from "../support/net";

// The allowed origins live on 127.0.0.1; the "other private host" is 127.0.0.2, a different address a playlist names.
const REFUSED_HOST = "127.0.0.2";

/** A raw TCP listener on the refused host that records every connection made to it (and answers nothing). */
async function tripwire() {
  const seen: string[] = [];
  const server = net.createServer((s) => {
    seen.push(`${s.remoteAddress}:${s.remotePort}`);
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, REFUSED_HOST, r));
  server.unref();
  return { seen, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A live playlist on 127.0.0.1 that grows by three entries per request and ends (#EXT-X-ENDLIST) once all are listed. */
async function growingPlaylist(entries: string[], head: string[] = []) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    if (req.url === "/moved.m3u8") return void res.writeHead(302, { location: "/live/index.m3u8" }).end();
    const shown = Math.min(entries.length, 3 * ++requests);
    const lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0", ...head];
    for (const e of entries.slice(0, shown)) lines.push("#EXTINF:2.0,", e);
    if (shown === entries.length) lines.push("#EXT-X-ENDLIST");
    res.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" }).end(lines.join("\n") + "\n");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  server.unref();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests: () => requests, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

let tmp: string;
let hls: HlsSource;
let segments: string[];
before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "pivot-"));
  hls = await startHlsSource({ name: "pivot-hls", live: false, durationSec: 10 });
  const text = await (await fetch(hls.url)).text();
  segments = text.split("\n").filter((l) => l.trim() && !l.startsWith("#")).map((s) => new URL(s, hls.url).href);
  assert.ok(segments.length >= 5, `precondition: five 2 s segments (${segments.length})`);
});
after(async () => {
  await hls?.close();
  await rm(tmp, { recursive: true, force: true });
});

let runs = 0;
async function pull(o: Pick<LivePullOptions, "url" | "egress">, stopAfterFrames = 0): Promise<{ end: LivePullEnd; frames: LiveFrame[] }> {
  const frames: LiveFrame[] = [];
  const p = startLivePull({ ...o, frameIntervalSec: 1, audio: false, ioTimeoutMs: 4000, outDir: path.join(tmp, `pull-${++runs}`), onFrame: (f) => void frames.push(f), onSegment: () => undefined });
  if (stopAfterFrames > 0) {
    await Promise.race([waitFor(async () => frames.length >= stopAfterFrames, 30_000), p.done]);
    await p.stop();
  }
  return { end: await p.done, frames };
}

test("a live playlist's segments naming another private host by httpproxy://, http://, tcp:// or https:// never connect there; the allowed segments still play", async () => {
  const wires = { httpproxy: await tripwire(), http: await tripwire(), tcp: await tripwire(), https: await tripwire() };
  const evil = Object.entries(wires).map(([scheme, w]) => `${scheme}://${REFUSED_HOST}:${w.port}/x-${scheme}.ts`);
  // real, evil, real, evil, …, real: every evil entry lies between two segments that must play
  const entries = segments.slice(0, 5).flatMap((s, i) => (i < evil.length ? [s, evil[i]] : [s]));
  const list = await growingPlaylist(entries);
  try {
    const hlsOrigin = new URL(hls.url).origin;
    const { end, frames } = await pull({ url: `${list.origin}/moved.m3u8`, egress: { allowPrivate: false, allowedOrigins: [list.origin, hlsOrigin] } });
    for (const [scheme, w] of Object.entries(wires)) assert.deepEqual(w.seen, [], `${scheme}:// reached ${REFUSED_HOST}`);
    assert.ok(list.requests() >= 3, `the playlist was reloaded as it grew (${list.requests()})`);
    assert.equal(end.reason, "ended", JSON.stringify(end));
    // the last segment (8–10 s) follows the last refused entry: its frames prove the pull went past every one
    assert.ok(frames.some((f) => f.streamTimeSec >= 8), `frames up to ${Math.max(...frames.map((f) => f.streamTimeSec))} s`);
  } finally {
    await Promise.all([list.close(), ...Object.values(wires).map((w) => w.close())]);
  }
});

test("nested URIs (a variant playlist, a rendition, a key) naming another private host never connect there", async () => {
  const wires = { variant: await tripwire(), media: await tripwire(), key: await tripwire() };
  const media = await growingPlaylist(segments.slice(0, 2), [`#EXT-X-KEY:METHOD=AES-128,URI="httpproxy://${REFUSED_HOST}:${wires.key.port}/k.bin"`]);
  const master = http.createServer((_req, res) => {
    const body = [
      "#EXTM3U",
      `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="x,URI=\\"y\\"",URI="httpproxy://${REFUSED_HOST}:${wires.media.port}/a.m3u8"`,
      `#EXT-X-STREAM-INF:BANDWIDTH=100000,AUDIO="a"`,
      `httpproxy://${REFUSED_HOST}:${wires.variant.port}/v.m3u8`,
      "#EXT-X-STREAM-INF:BANDWIDTH=200000",
      `${media.origin}/live/index.m3u8`,
    ];
    res.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" }).end(body.join("\r\n"));
  });
  await new Promise<void>((r) => master.listen(0, "127.0.0.1", r));
  const masterOrigin = `http://127.0.0.1:${(master.address() as AddressInfo).port}`;
  try {
    const hlsOrigin = new URL(hls.url).origin;
    const { end } = await pull({ url: `${masterOrigin}/master.m3u8`, egress: { allowPrivate: false, allowedOrigins: [masterOrigin, media.origin, hlsOrigin] } });
    for (const [what, w] of Object.entries(wires)) assert.deepEqual(w.seen, [], `the ${what} URI reached ${REFUSED_HOST}`);
    assert.ok(end.reason === "ended" || end.reason === "failed", JSON.stringify(end));
  } finally {
    await new Promise<void>((r) => (master.closeAllConnections(), master.close(() => r())));
    await Promise.all([media.close(), ...Object.values(wires).map((w) => w.close())]);
  }
});

test("ALLOW_NETWORKS: a pull from the one allowed private network plays, while a segment on another private address is never fetched", async () => {
  const hits: string[] = [];
  const other = http.createServer((req, res) => void (hits.push(req.url ?? ""), res.writeHead(404).end()));
  await new Promise<void>((r) => other.listen(0, REFUSED_HOST, r));
  const list = await growingPlaylist([segments[0], `http://${REFUSED_HOST}:${(other.address() as AddressInfo).port}/x.ts`, segments[1]]);
  try {
    const allowNetworks = NetworkList.parse("127.0.0.1/32");
    const { end, frames } = await pull({ url: `${list.origin}/live/index.m3u8`, egress: { allowPrivate: false, allowNetworks } });
    assert.deepEqual(hits, [], "the segment on 127.0.0.2 was never requested");
    assert.equal(end.reason, "ended", JSON.stringify(end));
    assert.ok(frames.length >= 3, `frames from the allowed network (${frames.length})`);
    const missing = `${new URL(hls.url).origin}/nothing/index.m3u8`;
    const gone = await pull({ url: missing, egress: { allowPrivate: false, allowNetworks } });
    assert.equal(gone.end.reason, "failed");
    if (gone.end.reason === "failed") assert.ok(gone.end.message.includes(missing) && !gone.end.message.includes("/u/"), `the failure names the URL given, not the gateway's: ${gone.end.message}`);
    const refused = await pull({ url: `${list.origin}/live/index.m3u8`, egress: { allowPrivate: false, allowNetworks: NetworkList.parse("127.0.0.2/32") } });
    assert.equal(refused.end.reason, "failed");
    if (refused.end.reason === "failed") assert.match(refused.end.message, /egress guard.*private address \(127\.0\.0\.1\)/);
  } finally {
    await new Promise<void>((r) => (other.closeAllConnections(), other.close(() => r())));
    await list.close();
  }
});

test("an endless HTTP-FLV stream plays through the gateway (streamed as it comes, not buffered)", async () => {
  const rtmp = await startRtmpSource({ name: "pivot-flv", audio: "none" });
  try {
    const { end, frames } = await pull({ url: rtmp.flvUrl, egress: { allowPrivate: false, allowNetworks: NetworkList.parse("127.0.0.1/32") } }, 2);
    assert.ok(frames.length >= 2, `frames from the live FLV body (${JSON.stringify(end)})`);
  } finally {
    await rtmp.close();
  }
});

test("AES-128 HLS plays through the gateway: the key and the encrypted segments (crypto over http) are fetched there", async () => {
  const dir = path.join(tmp, "aes");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "k.bin"), randomBytes(16));
  await writeFile(path.join(dir, "kinfo"), `k.bin\n${path.join(dir, "k.bin")}\n`);
  await runFfmpeg(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=5", "-t", "3", "-c:v", "libx264", "-g", "5", "-f", "hls", "-hls_time", "1", "-hls_key_info_file", path.join(dir, "kinfo"), "-hls_playlist_type", "vod", "-hls_segment_filename", path.join(dir, "a-%02d.ts"), path.join(dir, "a.m3u8")]);
  const files = await startStaticServer(dir);
  try {
    const { end, frames } = await pull({ url: `${files.url}/a.m3u8`, egress: { allowPrivate: false, allowNetworks: NetworkList.parse("127.0.0.1/32") } });
    assert.equal(end.reason, "ended", JSON.stringify(end));
    assert.ok(frames.length >= 2, `decrypted frames (${frames.length})`);
  } finally {
    await files.close();
  }
});
