// Scaled mode (#14) on real Redis + PostgreSQL with real worker processes: files per minute with 1 and 2 workers, and
// how long a live stream is without a holder after its worker is killed with -9 (takeover time, and the gap to its
// next frame called back). Needs REDIS_URL and DATABASE_URL; says so instead of a figure when they are unset.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { qrStreamRequest, startTestService, TEST_KEY } from "../support/app";
import { startChildServer, type ChildServer } from "../support/child-server";
import { startRtmpSource } from "../support/live-sources";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor } from "../support/net";

const LEASE_SEC = Number(process.env.STREAM_LEASE_SEC ?? 10);

async function withCluster<T>(workerCount: number, fn: (c: { api: Awaited<ReturnType<typeof startTestService>>; workers: ChildServer[] }) => Promise<T>): Promise<T> {
  const { REDIS_URL, DATABASE_URL } = process.env;
  const schema = `b_${crypto.randomBytes(6).toString("hex")}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const u = new URL(DATABASE_URL!);
  u.searchParams.set("options", `-c search_path=${schema}`);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-scale-"));
  const shared = { REDIS_URL: REDIS_URL!, QUEUE_PREFIX: `bench-${crypto.randomBytes(4).toString("hex")}`, STREAM_LEASE_SEC: String(LEASE_SEC) };
  const api = await startTestService({ databaseUrl: u.toString(), dataDir, env: shared });
  const workers = await Promise.all(
    Array.from({ length: workerCount }, (_, i) =>
      startChildServer({
        dataDir,
        script: "server/worker-main.ts",
        ready: /> worker \S+ ready: health and metrics on (http:\/\/\S+?) /,
        timeoutMs: 120_000,
        // one detector thread each: two workers on this machine use its two cores, as one process with two threads does
        env: { ...shared, DATABASE_URL: u.toString(), WORKER_NAME: `bw${i + 1}`, WORKER_PORT: "0", DETECT_WORKERS: "1", AUTO_INSTALL_PACKAGES: "0", PREVIEW_RETENTION_MIN: "0" },
      }),
    ),
  );
  try {
    return await fn({ api, workers });
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await api.close();
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function filesPerMinute(workerCount: number, files: number): Promise<Record<string, number>> {
  const file = await makeVideo({ name: "bench-scale-30s", durationSec: 30, width: 1280, height: 720, audio: "tone", text: { content: "Add WeChat: maifen888", fromSec: 10, toSec: 20 } });
  const web = await startStaticServer(mediaDir());
  try {
    return await withCluster(workerCount, async ({ api }) => {
      const t0 = Date.now();
      const ids: string[] = [];
      for (let i = 0; i < files; i++) {
        const ack = await api.post("/video/v4", { accessKey: TEST_KEY, appId: "bench", eventId: "video", imgType: "QRCODE_ADVERT_IMGTEXTRISK_EROTIC", audioType: "NONE", data: { btId: `f${i}`, url: `${web.url}/${path.basename(file)}` } });
        if (ack.code !== 1100) throw new Error(JSON.stringify(ack));
        ids.push(`f${i}`);
      }
      for (const btId of ids) await waitFor(async () => (await api.post("/video/query/v4", { accessKey: TEST_KEY, btId })).code === 1100, 600_000, 200);
      const sec = (Date.now() - t0) / 1000;
      return { workers: workerCount, files, wallSec: Math.round(sec * 10) / 10, filesPerMinute: Math.round((files / sec) * 60 * 10) / 10 };
    });
  } finally {
    await web.close();
  }
}

async function takeover(): Promise<Record<string, number>> {
  const src = await startRtmpSource({ name: "bench-takeover", audio: "none" });
  const rx = await startReceiver();
  try {
    return await withCluster(2, async ({ api, workers }) => {
      const ack = await api.post("/videostream/v4", qrStreamRequest(src.rtmpUrl, `${rx.url}/cb`, { returnAllImg: 1 }));
      const id = String(ack.requestId);
      const holder = await waitFor(async () => workers.find((w) => w.output().includes(`stream ${id}: taken by`)) ?? null, 60_000);
      const other = workers.find((w) => w !== holder)!;
      await rx.until((r) => r.filter((x) => String(x.body.requestId).startsWith(`${id}_v`)).length >= 3, 60_000);
      const killed = Date.now();
      const seen = rx.received.length;
      await holder.kill9();
      await waitFor(async () => other.output().includes(`stream ${id}: taken by`), 120_000, 50);
      const taken = Date.now();
      await rx.until((r) => r.slice(seen).some((x) => String(x.body.requestId).startsWith(`${id}_v`) && x.at > taken), 120_000);
      const next = rx.received.slice(seen).find((x) => String(x.body.requestId).startsWith(`${id}_v`) && x.at > taken)!;
      await api.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
      return { leaseSec: LEASE_SEC, takeoverMs: taken - killed, killToNextFrameCallbackMs: next.at - killed };
    });
  } finally {
    await rx.close();
    await src.close();
  }
}

/**
 * Graceful handover: the holder of a stream (a frame a second) is stopped with SIGTERM; the gaps are the time between
 * the last frame callback it sent and the first one from the worker that took the stream over, and the widest
 * capture-time gap between consecutive frame numbers (the new holder pulls before the old one stops: ≈ the cadence).
 */
export async function handover(): Promise<Record<string, number>> {
  const src = await startRtmpSource({ name: "bench-handover", audio: "none" });
  const rx = await startReceiver();
  try {
    return await withCluster(2, async ({ api, workers }) => {
      const ack = await api.post("/videostream/v4", qrStreamRequest(src.rtmpUrl, `${rx.url}/cb`, { returnAllImg: 1 }));
      const id = String(ack.requestId);
      const frames = () => rx.received.filter((x) => String(x.body.requestId).startsWith(`${id}_v`));
      const holder = await waitFor(async () => workers.find((w) => w.output().includes(`stream ${id}: taken by`)) ?? null, 60_000);
      const other = workers.find((w) => w !== holder)!;
      await rx.until(() => frames().length >= 3, 60_000);
      const stopped = Date.now();
      await holder.stop();
      const lastOld = frames().at(-1)!;
      await waitFor(async () => other.output().includes(`stream ${id}: taken by`), 60_000, 50);
      await rx.until(() => frames().some((x) => x.at > lastOld.at && x !== lastOld), 60_000);
      const firstNew = frames().find((x) => x.at > lastOld.at)!;
      await rx.until(() => frames().length >= 3 + frames().indexOf(firstNew), 60_000);
      await api.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id });
      // capture times (imgTime) of consecutive frame numbers: a missed slot of the 1 s cadence shows as ≈ 2 s
      const captured = frames()
        .map((x) => ({ n: Number(String(x.body.requestId).slice(id.length + 2)), at: new Date(String((x.body.frameDetail as { auxInfo: { imgTime: string } }).auxInfo.imgTime).replace(" ", "T")).getTime() }))
        .sort((a, b) => a.n - b.n);
      const widest = Math.max(...captured.slice(1).map((c, i) => c.at - captured[i].at));
      return { cadenceSec: 1, stopToLastOldFrameMs: lastOld.at - stopped, gapBetweenFrameCallbacksMs: firstNew.at - lastOld.at, widestCaptureGapMs: widest, bridged: other.output().includes("(handed over, bridged)") ? 1 : 0 };
    });
  } finally {
    await rx.close();
    await src.close();
  }
}

export async function benchScale(): Promise<Record<string, unknown>> {
  if (!process.env.REDIS_URL || !process.env.DATABASE_URL) return { skipped: "REDIS_URL and DATABASE_URL are not both set: the scale-out bench needs a real Redis and PostgreSQL" };
  const files = Number(process.env.BENCH_SCALE_FILES ?? 6);
  const one = await filesPerMinute(1, files);
  const two = await filesPerMinute(2, files);
  return {
    files: [one, two],
    twoOverOne: Math.round((two.filesPerMinute / one.filesPerMinute) * 100) / 100,
    takeover: await takeover().catch((err: Error) => ({ error: err.message })),
    gracefulHandover: await handover().catch((err: Error) => ({ error: err.message })),
    note: `30 s 720p files (QR + OCR + NSFW), ${files} at once; workers are real processes (one detector thread each) on this ${os.availableParallelism()}-core machine, so 2 workers share its cores: the ratio shows the queue spreading work, not a second machine; takeover = kill -9 of a stream's worker → another worker holds it (lease ${LEASE_SEC} s)`,
  };
}
