// Secrets never reach the log: accessKeys (right or wrong), callback URL tokens, stream keys in URLs,
// signing secrets, passwords and session cookies, across a file that fails, a stream that cannot be pulled
// and a burst of bad requests. The server runs as a child process and its real stdout and stderr are scanned
// (whatever prints outside the injected logger too: a library's console.error, an unhandled rejection).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { test } from "node:test";
import { startChildServer } from "../support/child-server";
import { makeCorruptFile, mediaDir, startStaticServer } from "../support/media";
import { startReceiver, waitFor } from "../support/net";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

test("no secret appears in the server's stdout or stderr", { timeout: 240_000 }, async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "secrets-log-"));
  const KEY = "keyNeverLogged20chr";
  const WRONG_KEY = "wrongKeyNeverLogged";
  const SIGNING = "whsec_" + Buffer.from("signing-secret-never-logged-123").toString("base64");
  const PASSWORD = "initial-password-never-logged";
  const WRONG_PASSWORD = "a-wrong-password-never-logged";
  const server = await startChildServer({ dataDir, env: { MODERATION_ACCESS_KEYS: KEY, CALLBACK_RETRY_TIME_SCALE: "0.01", STREAM_RETRY_TIME_SCALE: "0.001", CALLBACK_SIGNING_SECRET: SIGNING, SUPERVISOR_INITIAL_PASSWORD: PASSWORD } });
  const receiver = await startReceiver([500, 500]);
  const media = await startStaticServer(mediaDir());
  let output = "";
  try {
    const TOKEN = "callback-token-never-logged-7f3a";
    const corrupt = path.basename(await makeCorruptFile("secrets-corrupt"));
    const post = (p: string, body: unknown) => fetch(`${server.url}${p}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>);
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
    await server.stop();
    output += server.output();

    // the sign-in path (a dashboard route, not served by this SERVICE_ONLY child) in a process of its own, same store
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", DATA_DIR: dataDir, SUPERVISOR_INITIAL_PASSWORD: PASSWORD, WRONG_PASSWORD };
    const r = await promisify(execFile)(process.execPath, ["--import", "tsx", "tests/support/auth-log-child.ts"], { cwd: ROOT, env, timeout: 60_000 });
    assert.match(r.stdout, /auth-log-child done/);
    output += r.stdout + r.stderr;

    assert.match(output, /> ready on /, "the server's own stdout was captured");
    for (const secret of [KEY, WRONG_KEY, SIGNING, "signing-secret-never-logged", TOKEN, STREAM_KEY, PASSWORD, WRONG_PASSWORD]) {
      assert.ok(!output.includes(secret), `output contains ${secret}:\n${output.split("\n").filter((l) => l.includes(secret)).join("\n")}`);
    }
  } finally {
    await server.stop();
    await receiver.close();
    await media.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
