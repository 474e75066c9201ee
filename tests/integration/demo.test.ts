import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startRtmpServer, type RtmpServer } from "../../server/demo/rtmp-server";
import { startSampleSource } from "../../server/demo/sample-source";
import { startLivePull, type LiveFrame, type LiveSegment } from "../../server/ingest/live";
import { liveChildCount } from "../../server/ingest/process";
import { readWavPcm16 } from "../../server/ingest/wav";
import { waitFor } from "../support/net";

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(false)));
    s.once("error", () => resolve(true));
  });

test("the embedded RTMP ingest listens on free ports, names its URLs, and rejects a busy port instead of exiting", async () => {
  const server = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1" });
  cleanups.push(() => server.close());
  assert.ok(server.rtmpPort > 0 && server.httpPort > 0 && server.rtmpPort !== server.httpPort);
  assert.equal(server.rtmpUrl("abc_1-x"), `rtmp://127.0.0.1:${server.rtmpPort}/live/abc_1-x`);
  assert.equal(server.flvUrl("abc"), `http://127.0.0.1:${server.httpPort}/live/abc.flv`);
  assert.throws(() => server.rtmpUrl("../x"), /invalid stream key/);
  assert.equal(server.isPublishing("abc"), false);
  assert.equal((await fetch(`http://127.0.0.1:${server.httpPort}/`)).status, 404);
  assert.equal((await fetch(`http://127.0.0.1:${server.httpPort}/live/x.flv`, { method: "POST" })).status, 405);

  await assert.rejects(startRtmpServer({ rtmpPort: server.rtmpPort, httpPort: 0, host: "127.0.0.1" }), /EADDRINUSE/);
  await assert.rejects(startRtmpServer({ rtmpPort: 0, httpPort: server.httpPort, host: "127.0.0.1" }), /EADDRINUSE/);

  await server.close();
  assert.ok((await refused(server.rtmpPort)) && (await refused(server.httpPort)), "both ports closed");
});

test("the sample source publishes video with audio that pulls over RTMP and HTTP-FLV; stop() ends it", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "demo-test-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const logs: string[] = [];
  const server: RtmpServer = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1", log: (m) => logs.push(m) });
  cleanups.push(() => server.close());
  const children = liveChildCount();

  const t0 = Date.now();
  const sample = await startSampleSource({ rtmpUrl: server.rtmpUrl("sample"), log: (m) => logs.push(m) });
  cleanups.push(() => sample.stop());
  console.log(`# sample publishing after ${Date.now() - t0} ms`);
  assert.equal(sample.url, server.rtmpUrl("sample"));
  assert.ok(sample.running);
  assert.ok(server.isPublishing("sample"), "resolved only once the server sees the publish");
  assert.ok(logs.some((l) => /start push \/live\/sample/.test(l)), "NMS log lines reach the log option");

  const got: Record<string, { frames: LiveFrame[]; segments: LiveSegment[] }> = {};
  const pulls = (["rtmp", "flv"] as const).map((kind) => {
    const rec = (got[kind] = { frames: [] as LiveFrame[], segments: [] as LiveSegment[] });
    return startLivePull({
      url: kind === "rtmp" ? server.rtmpUrl("sample") : server.flvUrl("sample"),
      frameIntervalSec: 1,
      audio: true,
      segmentSec: 2,
      outDir: path.join(dir, kind),
      onFrame: (f) => void rec.frames.push(f),
      onSegment: (s) => void rec.segments.push(s),
    });
  });
  await waitFor(async () => Object.values(got).every((r) => r.frames.length >= 2 && r.segments.length >= 1), 20_000, 50);
  await Promise.all(pulls.map((p) => p.stop()));

  for (const [kind, r] of Object.entries(got)) {
    const jpeg = await readFile(r.frames[0].path);
    assert.ok(jpeg.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])), `${kind}: JPEG frame`);
    assert.equal(jpeg.readUInt16BE(jpeg.indexOf(Buffer.from([0xff, 0xc0])) + 7), 960, `${kind}: 960 px wide (SOF0)`);
    const wav = readWavPcm16(await readFile(r.segments[0].path));
    assert.equal(wav.samples.length, 32000, `${kind}: a 2 s segment of the sample's audio track`);
    assert.ok(r.segments[0].voiced && r.segments[0].rmsDb > -40, `${kind}: the tone is audible (${r.segments[0].rmsDb} dB)`);
  }

  await sample.stop();
  assert.equal(sample.running, false);
  await waitFor(async () => !server.isPublishing("sample"), 5000, 50);
  assert.equal(liveChildCount(), children, "publisher and pullers are gone");
});

test("a sample source that cannot publish rejects and leaves nothing running", async () => {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const children = liveChildCount();
  await assert.rejects(startSampleSource({ rtmpUrl: `rtmp://127.0.0.1:${port}/live/sample` }), /could not publish.*(exited|refused)/i);
  assert.equal(liveChildCount(), children);
});

test("the sample publisher stops once no task pulls it (after Close) and starts again with the next sample stream", async () => {
  const { startTestService } = await import("../support/app");
  const { freePort } = await import("../support/child-server");
  const { getRegistry } = await import("../../server/registry");
  const svc = await startTestService({ env: { RTMP_PORT: String(await freePort()), RTMP_HTTP_PORT: String(await freePort()) } });
  cleanups.push(() => svc.close());
  const demo = getRegistry().demo;
  const streams = svc.engine!.streams;
  const children = liveChildCount();

  const runOnce = async () => {
    const started = await demo.start();
    assert.ok(started.ok, JSON.stringify(started));
    const id = started.requestId;
    assert.equal(demo.info().sampleRunning, true);
    // the sample task pulls it: frames are captured, and the publisher stays up well past its idle grace would allow unpulled
    await waitFor(async () => (streams.health(id)?.frames.captured ?? 0) >= 2, 60_000);
    assert.equal(demo.info().sampleRunning, true);
    assert.ok(liveChildCount() >= children + 2, "publisher + the task's puller");
    const t0 = Date.now();
    const closed = (await svc.engine!.call("/finish_videostream/v4", { requestId: id }, "")) as { code: number };
    assert.equal(closed.code, 1100);
    await waitFor(async () => !demo.info().sampleRunning, 30_000, 100);
    console.log(`# sample publisher stopped ${Date.now() - t0} ms after Close`);
    await waitFor(async () => liveChildCount() === children, 10_000, 50);
    return id;
  };

  const first = await runOnce();
  // the next start of the sample stream starts a fresh publisher, pulled by a new task
  const second = await runOnce();
  assert.notEqual(second, first);
});
