// Secrets never reach the log: accessKeys (right or wrong), callback URL tokens, stream keys in URLs,
// signing secrets, passwords and session cookies, across a file that fails, a stream that cannot be pulled
// and a burst of bad requests.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { startApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { createAuth } from "../../server/auth";
import { makeCorruptFile, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor } from "../support/net";

test("no secret appears in the server log", async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "secrets-log-"));
  const KEY = "keyNeverLogged20chr";
  const WRONG_KEY = "wrongKeyNeverLogged";
  const SIGNING = "whsec_" + Buffer.from("signing-secret-never-logged-123").toString("base64");
  const lines: string[] = [];
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, MODERATION_ACCESS_KEYS: KEY, ALLOW_PRIVATE_NETWORKS: "1", CALLBACK_RETRY_TIME_SCALE: "0.01", STREAM_RETRY_TIME_SCALE: "0.001", NODE_ENV: "production", RTMP_PORT: "0", CALLBACK_SIGNING_SECRET: SIGNING });
  const app = await startApp(config, { withNext: false, log: (m) => lines.push(m) });
  const receiver = await startReceiver([500, 500]);
  const media = await startStaticServer(mediaDir());
  try {
    const TOKEN = "callback-token-never-logged-7f3a";
    const corrupt = path.basename(await makeCorruptFile("secrets-corrupt"));
    const post = (p: string, body: unknown) => fetch(`${app.url}${p}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const file = await post("/video/v4", { accessKey: KEY, appId: "a", eventId: "e", imgType: "QRCODE", audioType: "NONE", callback: `${receiver.url}?token=${TOKEN}`, data: { btId: "secret-log-file", url: `${media.url.replace(/\/+$/, "")}/${corrupt}` } });
    assert.equal(file.code, 1100, JSON.stringify(file));
    const STREAM_KEY = "streamkey-never-logged-55";
    const stream = await post("/videostream/v4", { accessKey: KEY, appId: "a", eventId: "e", imgType: "QRCODE", audioType: "NONE", imgCallback: `${receiver.url}?token=${TOKEN}`, data: { streamType: "NORMAL", url: `rtmp://127.0.0.1:9/live/${STREAM_KEY}`, tokenId: "u1", returnFinishInfo: 1 } });
    assert.equal(stream.code, 1100, JSON.stringify(stream));
    for (let i = 0; i < 5; i++) assert.equal((await post("/video/query/v4", { accessKey: WRONG_KEY, btId: "x" })).code, 9101);
    await post("/video/v4", "{not json");
    // the file fails (1905) and its callback is retried after two 500s; the stream pull fails and ends
    await receiver.until((r) => r.some((x) => x.status === 200 && (x.body as { btId?: string }).btId === "secret-log-file"));
    await waitFor(async () => receiver.received.some((x) => x.body.statCode === 1) || null, 120_000);
    await post("/finish_videostream/v4", { accessKey: KEY, requestId: stream.requestId });

    const auth = await createAuth({ store: app.engine!.ctx.store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: "initial-password-never-logged", log: (m) => lines.push(m) });
    await auth.bootstrap();
    await auth.signIn("admin", "initial-password-never-logged", "127.0.0.1", null);
    await auth.signIn("admin", "a-wrong-password-never-logged", "127.0.0.1", null).catch(() => undefined);

    const log = lines.join("\n");
    assert.ok(lines.length > 0, "the server did log");
    for (const secret of [KEY, WRONG_KEY, SIGNING, "signing-secret-never-logged", TOKEN, STREAM_KEY, "initial-password-never-logged", "a-wrong-password-never-logged"]) {
      assert.ok(!log.includes(secret), `log contains ${secret}:\n${lines.filter((l) => l.includes(secret)).join("\n")}`);
    }
  } finally {
    await media.close();
    await app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
