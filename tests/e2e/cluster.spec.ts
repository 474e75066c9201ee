// `npm run cluster` (docs/deployment.md): two nodes and two workers on one machine, on the real Redis and PostgreSQL.
// Smoke test of the demo itself: every process comes up on a fresh data dir (the first node creates the secrets and
// the accessKey the others read), both nodes answer the dashboard's health and the v4 endpoints with the same key,
// each worker answers /health, and SIGTERM stops all four. Skipped, with the reason, without both URLs.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { reservePorts } from "./second-server";

const { REDIS_URL, DATABASE_URL } = process.env;
test.skip(!REDIS_URL || !DATABASE_URL, "REDIS_URL and DATABASE_URL are not both set: npm run cluster needs a real Redis and PostgreSQL");

const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  await c.query(sql);
  await c.end();
};

test("npm run cluster: two nodes and two workers come up on a fresh data dir, share one key, and stop on SIGTERM", async () => {
  test.setTimeout(240_000);
  const schema = `e2e_cluster_${crypto.randomBytes(5).toString("hex")}`;
  await admin(`CREATE SCHEMA ${schema}`);
  const db = new URL(DATABASE_URL!);
  db.searchParams.set("options", `-c search_path=${schema}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "moderation-cluster-"));
  // two consecutive free ports for the nodes and two for the workers, and the ingest's two, all distinct
  const reserved = await reservePorts(2, 2);
  const [port, workerPort] = reserved.pairs;
  const [rtmp, flv] = reserved.singles;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), WORKER_PORT: String(workerPort), RTMP_PORT: String(rtmp), RTMP_HTTP_PORT: String(flv), DATA_DIR: dataDir, DATABASE_URL: db.toString(), REDIS_URL: REDIS_URL!, QUEUE_PREFIX: `e2e-cluster-${crypto.randomBytes(4).toString("hex")}`, AUTO_INSTALL_PACKAGES: "0", DETECT_WORKERS: "1", PREVIEW_RETENTION_MIN: "0" };
  delete env.MODERATION_ACCESS_KEYS;
  const proc = spawn(process.execPath, ["--import", "tsx", "server/cluster.ts"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  proc.stdout!.on("data", (b: Buffer) => void (out += b.toString()));
  proc.stderr!.on("data", (b: Buffer) => void (out += b.toString()));
  try {
    for (const role of ["node-1", "node-2", "worker-1", "worker-2"]) {
      await expect.poll(() => (proc.exitCode !== null ? `exited: ${out.slice(-2000)}` : new RegExp(`\\[${role}\\] > (worker \\S+ )?ready`).test(out)), { timeout: 180_000, intervals: [500] }).toBe(true);
    }
    const key = readFileSync(path.join(dataDir, "access-key"), "utf8").trim();
    for (const p of [port, port + 1]) {
      const base = `http://127.0.0.1:${p}`;
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      // the same generated key works on both nodes (one key for the deployment, not one per process)
      const res = await fetch(`${base}/video/query/v4`, { method: "POST", body: JSON.stringify({ accessKey: key, btId: "no-such-file" }) });
      const body = (await res.json()) as { code: number; message: string };
      expect(body.code, JSON.stringify(body)).toBe(1902); // "btId not found": the key was accepted (a wrong key is 9101)
    }
    for (const [name, p] of [["worker-1", workerPort], ["worker-2", workerPort + 1]] as const) {
      const h = (await (await fetch(`http://127.0.0.1:${p}/health`)).json()) as { ok: boolean; name: string };
      expect(h).toMatchObject({ ok: true, name });
    }
  } finally {
    if (proc.exitCode === null) {
      const gone = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
      process.kill(-proc.pid!, "SIGTERM");
      const timer = setTimeout(() => process.kill(-proc.pid!, "SIGKILL"), 30_000);
      const code = await gone;
      clearTimeout(timer);
      expect(code, out.slice(-2000)).toBe(0);
      for (const role of ["node-1", "node-2", "worker-1", "worker-2"]) expect(out).toMatch(new RegExp(`> ${role} exited \\(0\\)`));
    }
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
