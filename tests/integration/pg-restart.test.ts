// Issue #30 item 2 (first part): a PostgreSQL restart must not kill a process holding the store. The pooled idle
// connections are terminated by the server ("terminating connection due to administrator command"): without an
// error listener on the pool that 'error' event was unhandled and the worker exited. A private cluster is stopped
// and started again; the store answers again afterwards.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { sql } from "drizzle-orm";
import { openStore } from "../../server/store/db";
import { waitFor } from "../support/net";
import { privatePgSkip, startPrivatePg, type PrivatePg } from "../support/private-pg";

describe("PostgreSQL restart under an open store", { skip: privatePgSkip }, async () => {
  let pg: PrivatePg | null = null;
  const dir = await mkdtemp(path.join(os.tmpdir(), "pg-restart-"));
  after(async () => {
    pg?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  test("idle pooled connections cut by a restart do not crash the process; queries work again after", { timeout: 120_000 }, async () => {
    pg = await startPrivatePg();
    const store = await openStore({ dataDir: dir, databaseUrl: pg.url });
    const logged: string[] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => void logged.push(a.map(String).join(" "));
    try {
      // several idle connections in the pool
      await Promise.all(Array.from({ length: 4 }, () => store.db.execute(sql`SELECT pg_sleep(0.05)`)));
      pg.stop("fast");
      // during the outage a query fails with an error (a clear one), the process lives on
      await assert.rejects(store.db.execute(sql`SELECT 1`));
      pg.start();
      const r = await waitFor(async () => store.db.execute(sql`SELECT 1 AS one`).catch(() => null), 30_000, 200);
      assert.ok(r);
      assert.ok(logged.some((l) => /store: PostgreSQL connection lost/.test(l)), logged.join("\n"));
      assert.ok(!logged.some((l) => /Client \{|_events/.test(l)), "the client object is never printed");
    } finally {
      console.error = original;
      await store.close();
    }
  });
});
