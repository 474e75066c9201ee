import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { MIGRATIONS } from "./migrations";
import { privateDir } from "../setup/data-dir";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Store {
  db: Db;
  backend: "pglite" | "postgres";
  close(): Promise<void>;
}

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string | null;
  /** PostgreSQL only: use (and create) this schema, so test runs stay isolated. */
  pgSchema?: string;
}

/** Opens the durable store: embedded PGlite in DATA_DIR, or PostgreSQL when DATABASE_URL is set. */
export async function openStore(opts: StoreOptions): Promise<Store> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.pgSchema) : openPglite(opts.dataDir);
}

type RawExec = (sqlText: string) => Promise<unknown>;

async function migrate(exec: RawExec, applied: () => Promise<Set<string>>): Promise<void> {
  await exec(`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const done = await applied();
  for (const m of MIGRATIONS) {
    if (done.has(m.id)) continue;
    // One transaction per migration; the advisory lock serialises concurrent starters on PostgreSQL.
    await exec(`BEGIN; ${m.sql}; INSERT INTO schema_migrations (id) VALUES ('${m.id}'); COMMIT;`);
  }
}

async function openPglite(dataDir: string): Promise<Store> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = path.join(dataDir, "pglite");
  await privateDir(dir);
  const client = await PGlite.create(dir);
  await migrate(
    (s) => client.exec(s),
    async () => new Set((await client.query<{ id: string }>("SELECT id FROM schema_migrations")).rows.map((r) => r.id)),
  );
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, backend: "pglite", close: () => client.close() };
}

async function openPostgres(url: string, pgSchema?: string): Promise<Store> {
  const pg = (await import("pg")).default;
  const { drizzle } = await import("drizzle-orm/node-postgres");
  if (pgSchema && !/^[a-z_][a-z0-9_]*$/.test(pgSchema)) throw new Error(`bad schema name ${pgSchema}`);
  if (pgSchema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${pgSchema}`);
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: 10, ...(pgSchema ? { options: `-c search_path=${pgSchema}` } : {}) });
  // an idle pooled connection the server ends (restart, failover, "terminating connection due to administrator
  // command") emits 'error' on the pool: unhandled, it killed the process. The pool drops that client and opens a
  // new one on the next query; queries in the outage fail with their own error. Logged once per outage, message only.
  let lostAt = 0;
  pool.on("error", (err: Error) => {
    if (Date.now() - lostAt > 10_000) console.error(`store: PostgreSQL connection lost (${err.message}); reconnecting on the next query`);
    lostAt = Date.now();
  });
  const conn = await pool.connect();
  try {
    await conn.query("SELECT pg_advisory_lock(727274)");
    await migrate(
      (s) => conn.query(s),
      async () => new Set((await conn.query<{ id: string }>("SELECT id FROM schema_migrations")).rows.map((r) => r.id)),
    );
  } finally {
    await conn.query("SELECT pg_advisory_unlock(727274)").catch(() => undefined);
    conn.release();
  }
  const db = drizzle(pool, { schema }) as unknown as Db;
  return { db, backend: "postgres", close: () => pool.end() };
}
