// Scaled mode (#14.5/#14.7) in a real browser: two dashboard nodes on one PostgreSQL, one Redis and one data dir.
// A moderator on node A starts a stream (node A is also the worker: WORKER=1); its callbacks are received by node A's
// receiver; a supervisor's browser on node B, whose page stays open, sees the frames arrive live over node B's
// socket.io (carried between the nodes by the Redis adapter), sees on node B's Status page that worker node-a holds
// it (the cluster view comes from the store), and closes the stream from node B.
// Skipped, with the reason, without REDIS_URL and DATABASE_URL (.ci/run sets them).
import crypto from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext } from "@playwright/test";
import pg from "pg";
import { startRtmpSource } from "../support/live-sources";
import { SUPERVISOR } from "./credentials";
import { startSecondServer, type SecondServer } from "./second-server";

const { REDIS_URL, DATABASE_URL } = process.env;
const QR_TEXT = "https://spam.example/two-nodes";
test.skip(!REDIS_URL || !DATABASE_URL, "REDIS_URL and DATABASE_URL are not both set: two dashboard nodes need a real Redis and PostgreSQL");

let nodeA: SecondServer | undefined;
let nodeB: SecondServer | undefined;
let source: Awaited<ReturnType<typeof startRtmpSource>> | undefined;
const schema = `e2e_${crypto.randomBytes(6).toString("hex")}`;
let dataDir = "";

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  await c.query(sql);
  await c.end();
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await admin(`CREATE SCHEMA ${schema}`);
  const u = new URL(DATABASE_URL!);
  u.searchParams.set("options", `-c search_path=${schema}`);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "moderation-e2e-nodes-"));
  const shared = { E2E_SCALED: "1", E2E_DATABASE_URL: u.toString(), E2E_REDIS_URL: REDIS_URL!, E2E_DATA_DIR: dataDir, QUEUE_PREFIX: `e2e-${crypto.randomBytes(4).toString("hex")}`, DETECT_WORKERS: "1", PREVIEW_RETENTION_MIN: "0" };
  // one after the other: the first creates the supervisor and the secrets in the shared data dir
  nodeA = await startSecondServer({ ...shared, WORKER: "1", WORKER_NAME: "node-a" });
  nodeB = await startSecondServer(shared);
  source = await startRtmpSource({ name: "e2e-two-nodes", audio: "none", qr: { text: QR_TEXT, fromSec: 0, toSec: 6 } });
});

test.afterAll(async () => {
  await nodeB?.stop();
  await nodeA?.stop();
  await source?.close();
  await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(context: BrowserContext, base: string): Promise<void> {
  const res = await context.request.post(`${base}/api/auth/signin`, { data: SUPERVISOR, headers: { origin: base } });
  expect(res.status()).toBe(200);
}

test("a stream started on node A shows live on node B, and node B closes it", async ({ browser }) => {
  test.setTimeout(300_000);
  const a = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const b = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  await signIn(a, nodeA!.url);
  await signIn(b, nodeB!.url);

  // node A: start a stream from the New stream drawer
  const pageA = await a.newPage();
  await pageA.goto(`${nodeA!.url}/streams`);
  await pageA.getByTestId("new-stream").click();
  const form = pageA.getByTestId("stream-form");
  await expect(form).toHaveAttribute("data-capabilities", "success");
  const title = `two nodes ${Date.now()}`;
  await form.getByLabel("Stream URL").fill(source!.rtmpUrl);
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Capture every (s)").fill("1");
  for (const box of await pageA.locator('input[name="imgType"]').all()) if (await box.isEnabled()) await box.setChecked((await box.getAttribute("value")) === "QRCODE");
  await form.getByRole("button", { name: "Start moderating" }).click();
  await expect(pageA.getByTestId("start-ok")).toBeVisible({ timeout: 30_000 });
  const card = pageA.getByTestId("stream-card").filter({ hasText: title });
  const requestId = await card.getAttribute("data-request-id");
  expect(requestId).toMatch(/^[0-9a-f]{32}$/);

  // node B: the same stream on the wall (shared store), its timeline open before results come in
  const pageB = await b.newPage();
  await pageB.goto(`${nodeB!.url}/streams/${requestId}`);
  const header = pageB.getByTestId("stream-header");
  await expect(header).toContainText(title);
  await expect(pageB.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true", { timeout: 30_000 });
  const frames = pageB.getByTestId("timeline").getByTestId("frame-event");
  // frames keep arriving on B without a reload: each was received by A's receiver and crossed over Redis
  await expect(frames.first()).toBeVisible({ timeout: 90_000 });
  const seen = await frames.count();
  await expect.poll(() => frames.count(), { timeout: 60_000 }).toBeGreaterThan(seen);
  await expect(pageB.getByTestId("qr-content").first()).toContainText(QR_TEXT, { timeout: 60_000 });
  expect(nodeA!.output()).toMatch(new RegExp(`stream ${requestId}: taken by node-a`));

  // node B's Status page, though B runs no stream itself, shows the cluster from the store: worker node-a holds it
  const status = await b.newPage();
  await status.goto(`${nodeB!.url}/status`);
  await expect(status.getByTestId("cluster-worker").filter({ hasText: "node-a" })).toHaveAttribute("data-alive", "true", { timeout: 30_000 });
  const row = status.getByTestId("cluster-stream").and(status.locator(`[data-request-id="${requestId}"]`));
  await expect(row).toHaveAttribute("data-holder", "node-a", { timeout: 30_000 });
  await expect(row).toHaveAttribute("data-state", "held");
  await expect(row).toContainText(title);
  await expect(status.getByTestId("queue-streamsRunning")).toHaveText("1");
  await status.close();

  // a supervisor on B closes it on the spot; the holder (A) ends it, and B shows it ended
  await pageB.getByTestId("close-stream").click();
  await pageB.getByTestId("confirm-close").click();
  const marker = pageB.getByTestId("end-marker");
  await expect(marker).toBeVisible({ timeout: 60_000 });
  await expect(marker).toHaveAttribute("data-source", "callback", { timeout: 60_000 });
  await expect(header).toHaveAttribute("data-status", "ended");
  await a.close();
  await b.close();
});
