import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../server/config";
import { startApp, type App } from "../../server/app";

export const TEST_KEY = "test-key-0001";

/** A real service (no Next) on port 0 with a fresh DATA_DIR; PostgreSQL gets a fresh schema. */
export async function startTestService(o: { databaseUrl?: string | null; env?: Record<string, string>; dataDir?: string; log?: (m: string) => void } = {}): Promise<App & { dataDir: string; post: (p: string, body: unknown) => Promise<Record<string, unknown>> }> {
  const dataDir = o.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), "mod-test-")));
  let databaseUrl = o.databaseUrl ?? null;
  let dropSchema: (() => Promise<void>) | null = null;
  if (databaseUrl && !databaseUrl.includes("search_path")) {
    // isolate each run in its own schema via the libpq "options" parameter; dropped on close
    const schema = `t_${crypto.randomBytes(6).toString("hex")}`;
    const { default: pg } = await import("pg");
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: o.databaseUrl! });
      await c.connect();
      await c.query(sql);
      await c.end();
    };
    await admin(`CREATE SCHEMA ${schema}`);
    dropSchema = () => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    const u = new URL(databaseUrl);
    u.searchParams.set("options", `-c search_path=${schema}`);
    databaseUrl = u.toString();
  }
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    MODERATION_ACCESS_KEYS: TEST_KEY,
    ALLOW_PRIVATE_NETWORKS: "1",
    CALLBACK_RETRY_TIME_SCALE: "0.01",
    STREAM_RETRY_TIME_SCALE: "0.01",
    NODE_ENV: "production",
    RTMP_PORT: "0",
    // one detector thread per test service (the product default is one per core): a test service starts in
    // seconds and two test files run side by side; tests that need more set it in `env`
    DETECT_WORKERS: "1",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...o.env,
  });
  const app = await startApp(config, { withNext: false, log: o.log ?? (() => undefined) });
  const post = async (p: string, body: unknown) => {
    const res = await fetch(`${app.url}${p}`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
    return (await res.json()) as Record<string, unknown>;
  };
  const close = app.close.bind(app);
  return Object.assign(app, {
    dataDir,
    post,
    close: async () => {
      await close();
      await dropSchema?.().catch(() => undefined);
    },
  });
}


/** Polls /video/query/v4 until the file's result is ready (code 1100) and returns it. */
export async function queryUntilDone(svc: { post: (p: string, body: unknown) => Promise<Record<string, unknown>> }, btId: string, timeoutMs = 120_000): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId });
    if (q.code === 1100) return q;
    if (q.code !== 1101) throw new Error(`query ${btId}: ${JSON.stringify(q)}`);
    if (Date.now() > deadline) throw new Error(`query ${btId}: still processing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Submits a generated file (served from `webUrl`) to /video/v4 and returns its result once Query has it. */
export async function moderateFile(svc: { post: (p: string, body: unknown) => Promise<Record<string, unknown>> }, webUrl: string, file: string, o: { btId: string; imgType?: string; imgBusinessType?: string; audioType?: string; data?: Record<string, unknown> }) {
  const types = { ...(o.imgType ? { imgType: o.imgType } : {}), ...(o.imgBusinessType ? { imgBusinessType: o.imgBusinessType } : {}) };
  const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "video", ...types, audioType: o.audioType ?? "NONE", data: { btId: o.btId, url: `${webUrl}/${path.basename(file)}`, detectFrequency: 1, ...o.data } });
  if (ack.code !== 1100) throw new Error(`submit ${o.btId}: ${JSON.stringify(ack)}`);
  return queryUntilDone(svc, o.btId);
}

/** A /videostream/v4 body moderating QR codes on frames every second with a stream-end (tests add `data` fields). */
export const qrStreamRequest = (url: string, cb: string, data: Record<string, unknown> = {}) => ({
  accessKey: TEST_KEY,
  appId: "default",
  eventId: "VIDEOSTREAM",
  imgType: "QRCODE",
  audioType: "NONE",
  imgCallback: cb,
  data: { streamType: "NORMAL", url, tokenId: "u1", detectFrequency: 1, returnFinishInfo: 1, ...data },
});

/**
 * A /videostream/v4 body moderating QR codes on frames and POLITY on audio every second, frames to `cb?lane=img` and
 * audio to `cb?lane=audio`, every result and the stream-end returned (tests override `data` fields and top-level ones).
 */
export const liveStreamRequest = (url: string, cb: string, data: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  accessKey: TEST_KEY,
  appId: "default",
  eventId: "VIDEOSTREAM",
  imgType: "QRCODE",
  audioType: "POLITY",
  imgCallback: `${cb}?lane=img`,
  audioCallback: `${cb}?lane=audio`,
  ...extra,
  data: { streamType: "NORMAL", url, tokenId: "u1", detectFrequency: 1, returnAllImg: 1, returnAllText: 1, returnFinishInfo: 1, ...data },
});
