// Issue #30 fault tests' shared set-up: a scaled deployment (API nodes and `npm run worker` processes, all real child
// processes) on a PRIVATE PostgreSQL cluster and a PRIVATE Redis (never the machine's shared services), so a test may
// stop and start them. Also the checks the fault tests share: frames of a stream, one result per callback, alive.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startChildServer, type ChildServer } from "./child-server";
import type { Received } from "./net";
import { privatePgSkip, startPrivatePg, type PrivatePg } from "./private-pg";
import { privateRedisSkip, startPrivateRedis, type PrivateRedis } from "./private-redis";
import { startScaleWorker } from "./scale";
import { TEST_KEY } from "./app";

/** The dashboard's first supervisor on nodes started `dashboard: true` (SUPERVISOR_INITIAL_PASSWORD). */
export const FAULT_SUPERVISOR = { username: "admin", password: "fault-supervisor-password" };

/** false when a private PostgreSQL and a private Redis can be started here, else the reason to skip */
export const faultSkip: false | string = privatePgSkip || privateRedisSkip;
/** false when the nodes can serve the dashboard (a production build in .next/), else why not */
export const dashboardBuildMissing: false | string = existsSync(path.resolve(".next", "BUILD_ID")) ? false : "no production build in .next/ (run `npm run build`): the dashboard nodes serve socket.io only with Next";

export interface FaultCluster {
  pg: PrivatePg;
  redis: PrivateRedis;
  dataDir: string;
  /** the environment every process shares (REDIS_URL, DATABASE_URL, QUEUE_PREFIX, …) */
  env: Record<string, string>;
  nodes: ChildServer[];
  workers: ChildServer[];
  close(): Promise<void>;
}

export interface FaultClusterOptions {
  /** temp-folder prefix */
  name: string;
  nodes?: number;
  workers?: number;
  /** nodes serve the dashboard (Next, socket.io for signed-in sessions; FAULT_SUPERVISOR) */
  dashboard?: boolean;
  /** on top of the shared defaults, for every process */
  env?: Record<string, string>;
  /** on top, for the workers only */
  workerEnv?: Record<string, string>;
}

/** Starts the private services, then the nodes (one after the other: the first creates the secrets), then the workers. */
export async function startFaultCluster(o: FaultClusterOptions): Promise<FaultCluster> {
  const [pg, redis] = await Promise.all([startPrivatePg(), startPrivateRedis()]);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `${o.name}-`));
  const env = { REDIS_URL: redis.url, DATABASE_URL: pg.url, QUEUE_PREFIX: `f-${crypto.randomBytes(3).toString("hex")}`, STREAM_LEASE_SEC: "6", CALLBACK_RETRY_TIME_SCALE: "0.05", ...o.env };
  const nodeEnv = o.dashboard ? { ...env, SERVICE_ONLY: "0", SUPERVISOR_INITIAL_PASSWORD: FAULT_SUPERVISOR.password } : env;
  const nodes: ChildServer[] = [];
  const workers: ChildServer[] = [];
  const cluster: FaultCluster = {
    pg,
    redis,
    dataDir,
    env,
    nodes,
    workers,
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all(nodes.map((n) => n.stop()));
      pg.destroy();
      await redis.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  try {
    for (let i = 0; i < (o.nodes ?? 1); i++) nodes.push(await startChildServer({ dataDir, timeoutMs: 180_000, env: nodeEnv }));
    const workerEnv = { ...env, STREAM_CAPACITY: "4", STREAM_ADMISSION_WINDOW_SEC: "0", ...o.workerEnv };
    workers.push(...(await Promise.all(Array.from({ length: o.workers ?? 1 }, (_, i) => startScaleWorker({ dataDir, databaseUrl: pg.url, name: `w${i + 1}`, env: workerEnv })))));
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}

/** Frame numbers of stream `id` among the callbacks (frame callbacks are `<id>_v<n>`, statCode 0). */
export const framesOf = (r: Array<{ body: Record<string, unknown> }>, id: string) => r.filter((x) => String(x.body.requestId).startsWith(`${id}_v`) && x.body.statCode === 0).map((x) => Number(String(x.body.requestId).slice(id.length + 2)));

/** A /video/v4 request for a file at `url`, QR only, every frame called back. */
export const fileRequest = (btId: string, url: string, callback: string) => ({ accessKey: TEST_KEY, appId: "fault", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback, data: { btId, url, detectFrequency: 1, returnAllImg: 1 } });

/** Posts and returns the HTTP status with the parsed body (a bare 5xx or a non-JSON answer shows as such). */
export async function postRaw(base: string, p: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> | string }> {
  const res = await fetch(`${base}${p}`, { method: "POST", body: JSON.stringify(body) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, body: text };
  }
}

/** /metrics: 1 while this process reaches `dependency` (queue, store), 0 while it does not. */
export const dependencyUp = async (base: string, dependency: "queue" | "store") => new RegExp(`moderation_dependency_up\\{dependency="${dependency}"\\} (\\d)`).exec(await (await fetch(`${base}/metrics`)).text())?.[1];

export const assertAlive = (p: ChildServer, when = "") => assert.doesNotThrow(() => process.kill(p.pid, 0), `process ${p.pid} is alive${when ? ` ${when}` : ""}:\n${p.output().slice(-3000)}`);

/** The worker whose log says it took stream `id` (most recently), or undefined. */
export function holderOf(workers: ChildServer[], id: string): ChildServer | undefined {
  const at = (w: ChildServer) => w.output().lastIndexOf(`stream ${id}: taken by`);
  return [...workers].filter((w) => at(w) >= 0).sort((a, b) => at(b) - at(a))[0];
}

/**
 * One callback per webhook-id: a redelivery (the same webhook-id) must carry the same body, else it is a second,
 * different callback. Returns the distinct callbacks.
 */
export function distinctCallbacks(received: Received[]): Received[] {
  const byId = new Map<string, Received>();
  for (const x of received) {
    const wid = String(x.headers["webhook-id"]);
    const seen = byId.get(wid);
    if (seen) assert.deepEqual(x.body, seen.body, "a redelivery is the same callback");
    else byId.set(wid, x);
  }
  return [...byId.values()];
}

/** No frame number of a stream used by two callbacks; returns its sorted numbers and the gaps between them. */
export function streamNumbers(distinct: Received[], id: string): { sorted: number[]; gaps: string[] } {
  const frames = framesOf(distinct, id);
  assert.equal(new Set(frames).size, frames.length, `stream ${id}: a frame number used by two callbacks: ${frames.join(",")}`);
  const sorted = [...frames].sort((a, b) => a - b);
  const gaps = sorted.flatMap((f, i) => (i > 0 && f !== sorted[i - 1] + 1 ? [`${sorted[i - 1]}→${f}`] : []));
  return { sorted, gaps };
}
