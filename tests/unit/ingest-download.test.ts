import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DownloadError, downloadToFile, type DownloadOptions } from "../../server/ingest/download";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";

let server: Awaited<ReturnType<typeof startStaticServer>>;
let video: string;
let url: string;
let work: string;
before(async () => {
  video = await makeVideo({ name: "download-unit", durationSec: 2, width: 320, height: 180 });
  server = await startStaticServer(mediaDir());
  url = `${server.url}/${path.basename(video)}`;
  work = await mkdtemp(path.join(tmpdir(), "ingest-download-"));
});
after(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

const base: DownloadOptions = { maxBytes: 50 * 1024 * 1024, timeoutMs: 10_000, allowPrivate: true };

async function failure(p: Promise<unknown>): Promise<DownloadError> {
  const err = await p.then(() => null, (e: unknown) => e);
  assert.ok(err instanceof DownloadError, `expected a DownloadError, got ${String(err)}`);
  return err;
}

async function assertNoLeftovers() {
  assert.deepEqual((await readdir(work)).filter((n) => n.endsWith(".part")), [], "no temporary files left behind");
}

test("downloads a file byte for byte when private addresses are allowed", async () => {
  const dest = path.join(work, "nested", "ok.mp4");
  const r = await downloadToFile(url, dest, base);
  const original = await readFile(video);
  assert.equal(r.bytes, original.length);
  assert.equal(r.contentType, "video/mp4");
  assert.ok((await readFile(dest)).equals(original));
});

test("refuses this loopback server unless allowed, or listed as an allowed origin", async () => {
  const dest = path.join(work, "refused.mp4");
  const err = await failure(downloadToFile(url, dest, { ...base, allowPrivate: false }));
  assert.equal(err.kind, "refused-url");
  await assert.rejects(readFile(dest), "nothing written");
  const r = await downloadToFile(url, path.join(work, "origin.mp4"), { ...base, allowPrivate: false, allowedOrigins: [server.url] });
  assert.ok(r.bytes > 0);
  assert.equal((await failure(downloadToFile("file:///etc/passwd", dest, base))).kind, "refused-url");
});

test("stops at maxBytes, by Content-Length and while streaming", async () => {
  const dest = path.join(work, "big.mp4");
  assert.equal((await failure(downloadToFile(url, dest, { ...base, maxBytes: 1000 }))).kind, "too-large");
  assert.equal((await failure(downloadToFile(`${url}?chunked`, dest, { ...base, maxBytes: 1000 }))).kind, "too-large");
  await assert.rejects(readFile(dest));
  await assertNoLeftovers();
  const exact = await downloadToFile(`${url}?chunked`, dest, { ...base, maxBytes: (await readFile(video)).length });
  assert.equal(exact.bytes, (await readFile(video)).length, "exactly maxBytes is allowed");
});

test("HTTP errors carry their status", async () => {
  const missing = await failure(downloadToFile(`${server.url}/missing.mp4`, path.join(work, "m.mp4"), base));
  assert.equal(missing.kind, "http-status");
  assert.equal(missing.status, 404);
  assert.equal((await failure(downloadToFile(`${server.url}/__status/503`, path.join(work, "m.mp4"), base))).status, 503);
});

test("redirects are followed and each hop is checked", async () => {
  const redirect = (to: string) => `${server.url}/__redirect?to=${encodeURIComponent(to)}`;
  const r = await downloadToFile(redirect(url), path.join(work, "redirected.mp4"), { ...base, allowPrivate: false, allowedOrigins: [server.url] });
  assert.ok(r.bytes > 0, "a redirect within the allowed origin works");
  const port = new URL(server.url).port;
  for (const target of [`http://127.0.0.2:${port}/x.mp4`, "http://169.254.169.254/latest/meta-data/", "http://[::1]/x", "file:///etc/passwd"]) {
    const err = await failure(downloadToFile(redirect(target), path.join(work, "r.mp4"), { ...base, allowPrivate: false, allowedOrigins: [server.url] }));
    assert.equal(err.kind, "refused-url", target);
  }
  const loop = await failure(downloadToFile(redirect(redirect(redirect(url))), path.join(work, "r.mp4"), { ...base, maxRedirects: 1 }));
  assert.equal(loop.kind, "http-status");
});

test("times out on a server that never answers; a caller abort rejects with its reason", async () => {
  const t0 = Date.now();
  const err = await failure(downloadToFile(`${server.url}/__hang`, path.join(work, "hang.mp4"), { ...base, timeoutMs: 300 }));
  assert.equal(err.kind, "timeout");
  assert.ok(Date.now() - t0 < 3000);
  const ac = new AbortController();
  const p = downloadToFile(`${server.url}/__hang`, path.join(work, "hang.mp4"), { ...base, signal: ac.signal });
  ac.abort(new Error("task cancelled"));
  await assert.rejects(p, /task cancelled/);
  await assertNoLeftovers();
});

test("network failures are reported as such", async () => {
  const err = await failure(downloadToFile("http://127.0.0.1:1/x.mp4", path.join(work, "n.mp4"), base));
  assert.equal(err.kind, "network");
});
