// `npm run soak -- [--minutes 60] [--streams 10] [--mode embedded|scaled] [--browsers 5] [--file-every-sec 60]
// [--sample-sec 30]`: a long run of the real product (issue #30 items 4/5), not part of `npm test`. Embedded: one
// process (PGlite; DATABASE_URL set → that PostgreSQL). Scaled: two API nodes + two `npm run worker` processes on a
// private PostgreSQL and a private Redis. Live RTMP streams at a 2 s cadence with audio, a 20 s file every minute,
// everything called back to a local receiver; N dashboard browsers (Debian Chromium via Playwright, signed in, the
// Streams wall open) spread over the nodes. Every sample: RSS and open descriptors of every product process (and its
// ffmpeg children), frames captured / not checked, the outbox, DATA_DIR and table sizes. At the end: Close, wait for
// every stream-end and file result, then print the samples, a summary and the verdicts as JSON (stdout).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser } from "@playwright/test";
import { TEST_KEY } from "../support/app";
import { signInDashboard } from "../support/dashboard-client";
import { startRtmpSource } from "../support/live-sources";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver } from "../support/net";
import { deploy } from "./deploy";
import { metricSum, round, sampleProcess, verdicts, type Sample } from "./sample";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "60" },
    streams: { type: "string", default: "10" },
    mode: { type: "string", default: "embedded" },
    browsers: { type: "string", default: "5" },
    "file-every-sec": { type: "string", default: "60" },
    "sample-sec": { type: "string", default: "30" },
    "retention-hours": { type: "string", default: "1" },
  },
});
const minutes = Number(values.minutes);
const streamCount = Number(values.streams);
const browserCount = Number(values.browsers);
const fileEveryMs = Number(values["file-every-sec"]) * 1000;
const sampleMs = Number(values["sample-sec"]) * 1000;
if (values.mode !== "embedded" && values.mode !== "scaled") throw new Error(`--mode embedded|scaled, not ${values.mode}`);
const log = (m: string) => console.error(`# soak ${m}`);
// stdout carries the JSON only: what the test support prints in this process (the ffmpeg in use, …) goes to stderr
console.log = (...args: unknown[]) => console.error(...args);

const d = await deploy({ mode: values.mode, streams: streamCount, dashboard: browserCount > 0, retentionHours: Number(values["retention-hours"]) });
log(`${d.mode}: ${Object.keys(d.processes).join(", ")} up`);
// whatever fails from here on, the deployment (child processes, private PostgreSQL and Redis) is not left behind
try {
  const rx = await startReceiver();
  const web = await startStaticServer(mediaDir());
  const sources = await Promise.all(Array.from({ length: streamCount }, (_, i) => startRtmpSource({ name: `soak-${i}`, audio: "tone" })));
  const file = await makeVideo({ name: "soak-file", durationSec: 20, width: 480, height: 270, fps: 10, audio: "tone" });
  const nodeFor = (i: number) => d.nodes[i % d.nodes.length];
  const streamIds: string[] = [];
  for (const [i, s] of sources.entries()) {
    const ack = await nodeFor(i).post("/videostream/v4", { accessKey: TEST_KEY, appId: "soak", eventId: "live", imgType: "QRCODE", audioType: "POLITICS", imgCallback: rx.url, audioCallback: rx.url, data: { streamType: "NORMAL", url: s.rtmpUrl, tokenId: `soak-${i}`, detectFrequency: 2, returnFinishInfo: 1 } });
    if (ack.code !== 1100) throw new Error(`stream ${i}: ${JSON.stringify(ack)}`);
    streamIds.push(String(ack.requestId));
  }
  let filesSent = 0;
  const fileIds: string[] = [];
  const sendFile = async () => {
    const n = filesSent++;
    const ack = await nodeFor(n).post("/video/v4", { accessKey: TEST_KEY, appId: "soak", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback: rx.url, data: { btId: `soak-f${n}`, url: `${web.url}/${path.basename(file)}`, detectFrequency: 1 } });
    if (ack.code === 1100) fileIds.push(String(ack.requestId));
    else log(`file ${n} refused: ${JSON.stringify(ack)}`);
  };
  void sendFile();
  const fileTimer = setInterval(() => void sendFile().catch(() => undefined), fileEveryMs);

  // dashboard browsers: each signed in on its node with the Streams wall open (socket.io live updates to every one)
  let browser: Browser | null = null;
  if (browserCount > 0) {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
    for (let i = 0; i < browserCount; i++) {
      const node = nodeFor(i);
      const session = await signInDashboard(node.url, d.supervisor);
      const context = await browser.newContext();
      await context.addCookies(session.cookie.split("; ").map((c) => ({ name: c.slice(0, c.indexOf("=")), value: c.slice(c.indexOf("=") + 1), url: node.url })));
      const page = await context.newPage();
      await page.goto(`${node.url}/streams`);
    }
    log(`${browserCount} browsers on the Streams wall`);
  }

  async function du(dir: string): Promise<number> {
    const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
    let n = 0;
    for (const e of entries) if (e.isFile()) n += (await fs.stat(path.join(e.parentPath, e.name)).catch(() => null))?.size ?? 0;
    return n;
  }

  async function tableSizes(): Promise<Record<string, number>> {
    if (!d.databaseUrl) return { pglite: round((await du(path.join(d.dataDir, "pglite"))) / 1024 / 1024) };
    const { default: pg } = await import("pg");
    const c = new pg.Client({ connectionString: d.databaseUrl });
    await c.connect();
    try {
      const r = await c.query("SELECT relname, pg_total_relation_size(relid)::bigint AS b FROM pg_catalog.pg_statio_user_tables ORDER BY 2 DESC LIMIT 8");
      return Object.fromEntries(r.rows.map((x: { relname: string; b: string }) => [x.relname, round(Number(x.b) / 1024 / 1024, 2)]));
    } finally {
      await c.end();
    }
  }

  const started = Date.now();
  const samples: Sample[] = [];
  const sample = async () => {
    const texts = await Promise.all(Object.values(d.processes).map((p) => fetch(`${p.url}/metrics`).then((r) => r.text(), () => "")));
    const pullerTexts = await Promise.all(d.pullers.map((p) => fetch(`${p.url}/metrics`).then((r) => r.text(), () => "")));
    const s: Sample = {
      minute: round((Date.now() - started) / 60_000, 2),
      procs: Object.fromEntries(Object.entries(d.processes).map(([name, p]) => [name, sampleProcess(p.pid)])),
      framesCaptured: pullerTexts.reduce((a, m) => a + metricSum(m, /moderation_stream_frames_total\{state="captured"\} (\d+)/g), 0),
      framesNotChecked: pullerTexts.reduce((a, m) => a + metricSum(m, /moderation_stream_frames_total\{state="not_checked"\} (\d+)/g), 0),
      // the outbox is in the shared store: every process reads the same figures
      callbacksPending: Math.max(...texts.map((m) => metricSum(m, /moderation_callbacks\{status="pending"\} (\d+)/g))),
      callbacksExhausted: Math.max(...texts.map((m) => metricSum(m, /moderation_callbacks\{status="exhausted"\} (\d+)/g))),
      callbacksReceived: rx.received.length,
      dataDirMb: round((await du(d.dataDir)) / 1024 / 1024),
      tablesMb: await tableSizes().catch(() => ({})),
    };
    samples.push(s);
    log(JSON.stringify(s));
  };
  await sample();
  while (Date.now() - started < minutes * 60_000) {
    await new Promise((r) => setTimeout(r, Math.min(sampleMs, minutes * 60_000 - (Date.now() - started))));
    await sample();
  }
  const loadSamples = [...samples];
  clearInterval(fileTimer);
  await Promise.all(streamIds.map((id, i) => nodeFor(i).post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id })));
  // everything accepted is called back: stream-ends and file results (callbacks lost = accepted minus received)
  const deadline = Date.now() + 180_000;
  const ended = () => streamIds.filter((id) => rx.received.some((x) => x.body.requestId === id && x.body.statCode === 1)).length;
  const filesDone = () => fileIds.filter((id) => rx.received.some((x) => x.body.requestId === id)).length;
  while (Date.now() < deadline && (ended() < streamIds.length || filesDone() < fileIds.length)) await new Promise((r) => setTimeout(r, 1000));
  await sample();
  const last = samples.at(-1)!;
  const callbacksLost = fileIds.length - filesDone() + streamIds.length - ended();

  const summary = {
    mode: d.mode,
    minutesRun: round((Date.now() - started) / 60_000, 2),
    streams: streamCount,
    browsers: browserCount,
    filesSent,
    filesAccepted: fileIds.length,
    filesCalledBack: filesDone(),
    streamEndsCalledBack: ended(),
    callbacksLost,
    framesCaptured: last.framesCaptured,
    framesNotChecked: last.framesNotChecked,
    outboxAtEnd: { pending: last.callbacksPending, exhausted: last.callbacksExhausted },
    dataDirMbFirstLast: [samples[0].dataDirMb, last.dataDirMb],
    tablesMbFirstLast: [samples[0].tablesMb, last.tablesMb],
    machine: { cpus: os.cpus().length, loadavg: os.loadavg().map((x) => round(x, 2)) },
  };
  const verdict = verdicts(loadSamples, { rssGrowth: 0.1, fdSlack: 5 }, { framesNotChecked: last.framesNotChecked, callbacksLost });
  const pass = verdict.rssFlat.pass && verdict.noFdGrowth.pass && verdict.noUncheckedFrames.pass && verdict.noCallbackLost.pass;
  process.stdout.write(`${JSON.stringify({ pass, summary, verdicts: verdict, samples }, null, 2)}\n`);

  await browser?.close();
  await Promise.all(sources.map((s) => s.close()));
  await web.close();
  await rx.close();
  await d.close();
  process.exit(pass ? 0 : 1);
} catch (err) {
  await d.close().catch(() => undefined);
  throw err;
}
