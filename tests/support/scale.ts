// Scaled-mode test support (#14): the skip reason when Redis or PostgreSQL is missing, a scratch PostgreSQL schema per
// test file, and `npm run worker` child processes with test defaults, all on the real services of REDIS_URL and
// DATABASE_URL (.ci/run sets them).
import crypto from "node:crypto";
import pg from "pg";
import { startChildServer, type ChildServer } from "./child-server";

const { REDIS_URL, DATABASE_URL } = process.env;

/** false when both URLs are set, else the reason the scaled-mode tests are skipped */
export const scaleSkip: false | string = REDIS_URL && DATABASE_URL ? false : "REDIS_URL and DATABASE_URL are not both set: scaled mode needs a real Redis and PostgreSQL (.ci/run sets them)";

/** One statement on DATABASE_URL itself (outside any test schema). */
export async function pgAdmin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A fresh schema: `url` is DATABASE_URL with that schema as its search path; `drop` removes it. */
export async function scratchSchema(prefix = "t"): Promise<{ schema: string; url: string; drop: () => Promise<void> }> {
  const schema = `${prefix}_${crypto.randomBytes(6).toString("hex")}`;
  await pgAdmin(`CREATE SCHEMA ${schema}`);
  const u = new URL(DATABASE_URL!);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return { schema, url: u.toString(), drop: () => pgAdmin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined) };
}

/** `npm run worker` as a child process on the test's data dir and schema; resolves once it printed its ready line. */
export function startScaleWorker(o: { dataDir: string; databaseUrl: string; name: string; env?: Record<string, string> }): Promise<ChildServer> {
  return startChildServer({
    dataDir: o.dataDir,
    script: "server/worker-main.ts",
    ready: /> worker \S+ ready: health and metrics on (http:\/\/\S+?) /,
    timeoutMs: 120_000,
    env: { REDIS_URL: REDIS_URL!, DATABASE_URL: o.databaseUrl, WORKER_NAME: o.name, WORKER_PORT: "0", DETECT_WORKERS: "1", AUTO_INSTALL_PACKAGES: "0", PREVIEW_RETENTION_MIN: "0", ...o.env },
  });
}
