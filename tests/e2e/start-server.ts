// Playwright webServer entry: the production custom server on a fresh data dir (run `npm run build` first).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SUPERVISOR } from "./credentials";

if (!existsSync(path.resolve(".next", "BUILD_ID"))) {
  console.error("start-server: no production build in .next/ — run `npm run build` before the e2e tests");
  process.exit(1);
}

// E2E_SCALED=1 (tests/e2e/scale-nodes.spec.ts): one node of a scaled deployment, on the store, Redis and data dir
// the spec made for it (E2E_DATABASE_URL, E2E_REDIS_URL, E2E_DATA_DIR; the spec removes them)
const scaled = process.env.E2E_SCALED === "1";
const dataDir = scaled ? process.env.E2E_DATA_DIR! : mkdtempSync(path.join(os.tmpdir(), "moderation-e2e-"));
if (!scaled) process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));

// The e2e server otherwise gets its own embedded store: a shared PostgreSQL (DATABASE_URL, set by CI for the
// integration tests) would carry tasks from earlier runs into this one.
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL; // the embedded default: one process (tests/integration/hub-redis.test.ts covers Redis)
if (scaled) Object.assign(process.env, { DATABASE_URL: process.env.E2E_DATABASE_URL, REDIS_URL: process.env.E2E_REDIS_URL });

// Object.assign: Next's typings declare NODE_ENV read-only.
Object.assign(process.env, {
  PORT: process.env.E2E_PORT ?? "3100",
  HOST: process.env.HOST ?? "127.0.0.1",
  DATA_DIR: dataDir,
  ALLOW_PRIVATE_NETWORKS: "1",
  NODE_ENV: "production",
  MODERATION_ACCESS_KEYS: "e2e-key",
  // the first supervisor gets a known password instead of a printed one-time one (tests/e2e/auth.setup.ts signs in)
  SUPERVISOR_INITIAL_PASSWORD: SUPERVISOR.password,
  // own ports, so a dev server on 1935/8000 does not collide
  RTMP_PORT: process.env.E2E_RTMP_PORT ?? "19350",
  RTMP_HTTP_PORT: process.env.E2E_RTMP_HTTP_PORT ?? "18000",
});

// a spec's own server may start with a long stream's history already in its store (tests/support/seed-stream.ts)
if (process.env.E2E_SEED_STREAM && process.env.E2E_SEED_OUT) {
  const { seedLongStream } = await import("../support/seed-stream");
  const seeded = await seedLongStream(dataDir, JSON.parse(process.env.E2E_SEED_STREAM));
  writeFileSync(process.env.E2E_SEED_OUT, JSON.stringify(seeded));
}

// a spec's own server may start with a known review history (tests/support/seed-review-history.ts; tests/e2e/metrics.spec.ts)
if (process.env.E2E_SEED_REVIEW_T0) {
  const { seedReviewHistoryDir } = await import("../support/seed-review-history");
  await seedReviewHistoryDir(dataDir, Number(process.env.E2E_SEED_REVIEW_T0));
}

await import("../../server/main");
