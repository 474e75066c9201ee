import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { Dispatcher } from "../../server/callback/dispatcher";
import { checkUrl } from "../../server/ingest/url-guard";
import { openStore, type Store } from "../../server/store/db";
import { startReceiver, storeBackends, waitFor } from "../support/net";

for (const backend of storeBackends()) {
  describe(`callback dispatcher on ${backend.name}`, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "disp-"));
    const schema = `t_disp_${Date.now().toString(36)}`;
    const store: Store = await openStore({ dataDir, databaseUrl: backend.databaseUrl, pgSchema: schema });
    const make = () => new Dispatcher({ db: store.db, timeScale: 0.01, checkTarget: (url) => checkUrl(url, { protocols: ["http"], allowPrivate: true }) });
    after(async () => {
      await store.close();
      if (backend.databaseUrl) {
        const { default: pg } = await import("pg");
        const c = new pg.Client({ connectionString: backend.databaseUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      }
    });

    test("500, 500, then 200 → delivered on the 3rd attempt, every attempt recorded", async () => {
      const rx = await startReceiver([500, 500]);
      const d = make();
      d.start();
      const id = await d.enqueue({ requestId: "task-a", url: rx.url, body: { hello: 1 }, schedule: "video" });
      await rx.until((r) => r.length >= 3);
      const rows = await waitFor(async () => {
        const [row] = await d.deliveriesFor("task-a");
        return row?.status === "delivered" ? row : null;
      });
      assert.equal(rows.attemptCount, 3);
      const attempts = await d.attemptsFor("task-a");
      assert.deepEqual(attempts.map((a) => a.httpStatus), [500, 500, 200]);
      assert.deepEqual(attempts.map((a) => a.attempt), [1, 2, 3]);
      assert.equal(attempts[0].error, "HTTP 500");
      // the same delivery id on every attempt lets receivers drop duplicates
      assert.deepEqual(new Set(rx.received.map((r) => r.headers["webhook-id"])), new Set([id]));
      assert.deepEqual(rx.received[2].body, { hello: 1 });
      // retry intervals follow the (scaled) schedule: 5 s and 10 s × 0.01
      assert.ok(rx.received[1].at - rx.received[0].at >= 45);
      assert.ok(rx.received[2].at - rx.received[1].at >= 95);
      await d.stop();
      await rx.close();
    });

    test("two dispatchers sharing one store (two processes) send each delivery exactly once", async () => {
      const rx = await startReceiver([500, 500, 500]);
      const [a, b] = [make(), make()];
      a.start();
      b.start();
      const ids = new Set<string>();
      for (let i = 0; i < 12; i++) ids.add(await (i % 2 ? a : b).enqueue({ requestId: `task-shared-${i % 3}`, url: rx.url, body: { i }, schedule: "video" }));
      await rx.until((r) => new Set(r.filter((x) => x.status === 200).map((x) => x.headers["webhook-id"])).size === ids.size);
      await Promise.all([a.stop(), b.stop()]);
      const ok = rx.received.filter((x) => x.status === 200).map((x) => String(x.headers["webhook-id"]));
      assert.equal(ok.length, ids.size, "no delivery is sent again after its 200");
      assert.deepEqual(new Set(ok), ids);
      await rx.close();
    });

    test("a pending delivery survives a dispatcher restart", async () => {
      const rx = await startReceiver([503]);
      const d1 = make();
      d1.start();
      await d1.enqueue({ requestId: "task-b", url: rx.url, body: { n: 1 }, schedule: "video" });
      await rx.until((r) => r.length >= 1);
      await d1.stop();
      const d2 = make();
      d2.start();
      await rx.until((r) => r.length >= 2);
      const [row] = await waitFor(async () => {
        const rows = await d2.deliveriesFor("task-b");
        return rows[0]?.status === "delivered" ? rows : null;
      });
      assert.equal(row.attemptCount, 2);
      await d2.stop();
      await rx.close();
    });

    test("deliveries of one task to one URL go out in order even while the first is retried", async () => {
      const rx = await startReceiver([500]);
      const d = make();
      d.start();
      for (let i = 1; i <= 3; i++) await d.enqueue({ requestId: "task-c", url: rx.url, body: { i }, schedule: "videostream" });
      await rx.until((r) => r.filter((x) => x.status === 200).length >= 3);
      assert.deepEqual(rx.received.map((r) => r.body.i), [1, 1, 2, 3]);
      await d.stop();
      await rx.close();
    });

    test("unreachable target: exhausted after the whole schedule", async () => {
      const d = make();
      d.start();
      await d.enqueue({ requestId: "task-d", url: "http://127.0.0.1:9/cb", body: {}, schedule: "videostream" });
      const row = await waitFor(async () => {
        const [r] = await d.deliveriesFor("task-d");
        return r?.status === "exhausted" ? r : null;
      }, 30_000);
      assert.equal(row.attemptCount, 13);
      await d.stop();
    });
  });
}
