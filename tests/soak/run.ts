// `npm run soak -- --minutes 60 [--streams 10] [--file-every-sec 60]`: a long run of the real server (a child process,
// embedded mode; DATABASE_URL set → its PostgreSQL store, table sizes measured) with live RTMP streams at a 2 s cadence
// with audio and a file every minute, all called back to a local receiver. Samples every 30 s: RSS and open file
// descriptors of the server and its children, frames not checked, callbacks pending/exhausted/lost, database size.
// Prints the samples and a summary as JSON (stdout). Not part of `npm test` (issue #30 items 4/5).
import { readdirSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { TEST_KEY } from "../support/app";
import { startChildServer } from "../support/child-server";
import { startRtmpSource } from "../support/live-sources";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver } from "../support/net";

const { values } = parseArgs({ options: { minutes: { type: "string", default: "60" }, streams: { type: "string", default: "10" }, "file-every-sec": { type: "string", default: "60" }, "sample-sec": { type: "string", default: "30" } } });
const minutes = Number(values.minutes);
const streamCount = Number(values.streams);
const fileEveryMs = Number(values["file-every-sec"]) * 1000;
const sampleMs = Number(values["sample-sec"]) * 1000;

/** The server and every process under it (ffmpeg pulls, detector threads live inside it). */
function tree(root: number): number[] {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, "utf8"))![1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const walk = (p: number) => (out.push(p), (kids.get(p) ?? []).forEach(walk));
  walk(root);
  return out;
}
const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
const metric = (text: string, re: RegExp) => [...text.matchAll(re)].reduce((a, m) => a + Number(m[1]), 0);
async function du(dir: string): Promise<number> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  let n = 0;
  for (const e of entries) if (e.isFile()) n += (await fs.stat(path.join(e.parentPath, e.name)).catch(() => null))?.size ?? 0;
  return n;
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "soak-"));
const env: Record<string, string> = { STREAM_ADMISSION_WINDOW_SEC: "0", DETECT_WORKERS: String(Math.max(1, Math.min(2, os.cpus().length - 1))), RESULT_RETENTION_HOURS: "1", ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) };
const server = await startChildServer({ dataDir, timeoutMs: 180_000, env });
const rx = await startReceiver();
const web = await startStaticServer(mediaDir());
const sources = await Promise.all(Array.from({ length: streamCount }, (_, i) => startRtmpSource({ name: `soak-${i}`, audio: "tone" })));
const file = await makeVideo({ name: "soak-file", durationSec: 20, width: 480, height: 270, fps: 10, audio: "tone" });
const streamIds: string[] = [];
for (const [i, s] of sources.entries()) {
  const ack = await server.post("/videostream/v4", { accessKey: TEST_KEY, appId: "soak", eventId: "live", imgType: "QRCODE", audioType: "POLITICS", imgCallback: rx.url, audioCallback: rx.url, data: { streamType: "NORMAL", url: s.rtmpUrl, tokenId: `soak-${i}`, detectFrequency: 2, returnFinishInfo: 1 } });
  if (ack.code !== 1100) throw new Error(`stream ${i}: ${JSON.stringify(ack)}`);
  streamIds.push(String(ack.requestId));
}
let filesSent = 0;
const fileIds: string[] = [];
const sendFile = async () => {
  const ack = await server.post("/video/v4", { accessKey: TEST_KEY, appId: "soak", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback: rx.url, data: { btId: `soak-f${filesSent++}`, url: `${web.url}/${path.basename(file)}`, detectFrequency: 1 } });
  if (ack.code === 1100) fileIds.push(String(ack.requestId));
};
void sendFile();
const fileTimer = setInterval(() => void sendFile().catch(() => undefined), fileEveryMs);

const started = Date.now();
const samples: Array<Record<string, number>> = [];
const sample = async () => {
  const pids = tree(server.pid);
  const m = await (await fetch(`${server.url}/metrics`)).text();
  let tables: Record<string, number> = {};
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import("pg");
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    const r = await c.query("SELECT relname, pg_total_relation_size(relid)::bigint AS b FROM pg_catalog.pg_statio_user_tables WHERE relname IN ('tasks','deliveries','audit_log','incidents')");
    tables = Object.fromEntries(r.rows.map((x: { relname: string; b: string }) => [`pg_${x.relname}_mb`, Number(x.b) / 1024 / 1024]));
    await c.end();
  }
  const s = {
    minute: (Date.now() - started) / 60_000,
    serverRssMb: rssMb(server.pid),
    childrenRssMb: pids.slice(1).reduce((a, p) => a + (() => { try { return rssMb(p); } catch { return 0; } })(), 0),
    processes: pids.length,
    serverFds: fds(server.pid),
    framesCaptured: metric(m, /moderation_stream_frames_total\{state="captured"\} (\d+)/g),
    framesNotChecked: metric(m, /moderation_stream_frames_total\{state="not_checked"\} (\d+)/g),
    callbacksPending: metric(m, /moderation_callbacks\{status="pending"\} (\d+)/g),
    callbacksExhausted: metric(m, /moderation_callbacks\{status="exhausted"\} (\d+)/g),
    callbacksReceived: rx.received.length,
    dataDirMb: (await du(dataDir)) / 1024 / 1024,
    ...tables,
  };
  samples.push(s);
  console.error(`# soak ${JSON.stringify(s)}`);
};
await sample();
while (Date.now() - started < minutes * 60_000) {
  await new Promise((r) => setTimeout(r, Math.min(sampleMs, minutes * 60_000 - (Date.now() - started))));
  await sample();
}
clearInterval(fileTimer);
for (const id of streamIds) await server.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
// everything accepted is called back: stream-ends and file results (callbacks lost = accepted minus received)
const deadline = Date.now() + 120_000;
const ended = () => streamIds.filter((id) => rx.received.some((x) => x.body.requestId === id && x.body.statCode === 1)).length;
const filesDone = () => fileIds.filter((id) => rx.received.some((x) => x.body.requestId === id)).length;
while (Date.now() < deadline && (ended() < streamIds.length || filesDone() < fileIds.length)) await new Promise((r) => setTimeout(r, 1000));
await sample();

// RSS growth over the last two thirds (after warm-up): first vs last sample of that window
const warm = samples.slice(0, -1).filter((s) => s.minute >= minutes / 3); // the last sample is after Close
const growth = (k: string) => (warm.length > 1 ? (warm.at(-1)![k] - warm[0][k]) / warm[0][k] : null);
const summary = {
  minutesRun: (Date.now() - started) / 60_000,
  streams: streamCount,
  filesSent,
  filesCalledBack: filesDone(),
  streamEndsCalledBack: ended(),
  callbacksLost: fileIds.length - filesDone() + streamIds.length - ended(),
  framesCaptured: samples.at(-1)!.framesCaptured,
  framesNotChecked: samples.at(-1)!.framesNotChecked,
  serverRssGrowthAfterWarmup: growth("serverRssMb"),
  childrenRssGrowthAfterWarmup: growth("childrenRssMb"),
  serverFdsFirstLast: [samples[0].serverFds, samples.at(-1)!.serverFds],
  serverRssMbMinMax: [Math.min(...samples.map((s) => s.serverRssMb)), Math.max(...samples.map((s) => s.serverRssMb))],
  dataDirMbLast: samples.at(-1)!.dataDirMb,
  machine: { cpus: os.cpus().length, loadavg: os.loadavg() },
};
console.log(JSON.stringify({ summary, samples }, null, 2));
await server.stop();
await Promise.all([...sources.map((s) => s.close()), web.close(), rx.close()]);
await fs.rm(dataDir, { recursive: true, force: true });
process.exit(0);
