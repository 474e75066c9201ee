// Review queues (issue #26.3/#26.7): a supervisor makes a queue through the API (its rule routes a real file's QR
// incidents to it); two reviewers in two browsers press Start reviewing on it and get distinct incidents; a decision
// loads the next; a reviewer who drops off the network loses the claim when its lease (CLAIM_LEASE_SEC=3) lapses and
// the other gets that incident; back online, the first is told and goes on; Skip gives an incident back.
// Its own server (second-server.ts): the short lease must not reach the other specs.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import QRCode from "qrcode";
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { mediaDir, startStaticServer } from "../support/media";
import { SUPERVISOR } from "./credentials";
import { startSecondServer, type SecondServer } from "./second-server";

const QR = "https://spam.example/queues-e2e";
const PERIOD = 14;
const WINDOWS = 5;
const REVIEWERS = ["queue-rev-a", "queue-rev-b"] as const;
type Json = Record<string, unknown>;

let server: SecondServer | undefined;
let media: { url: string; close: () => Promise<void> } | undefined;
let api: APIRequestContext | undefined;
let csrf = "";
let queueId = "";
const contexts: BrowserContext[] = [];

/** Grey 5 fps clip with the QR code 1–5 s into every 14 s: one incident per window (cached in tests/.media). */
async function qrWindowsVideo(): Promise<string> {
  const file = path.join(mediaDir(), `queues-qr-windows-${WINDOWS}x${PERIOD}.mp4`);
  if (existsSync(file)) return file;
  const png = path.join(mediaDir(), "queues-qr.png");
  await QRCode.toFile(png, QR, { width: 216, margin: 2 });
  const enable = Array.from({ length: WINDOWS }, (_, k) => `between(t,${k * PERIOD + 1},${k * PERIOD + 5})`).join("+");
  const tmp = `${file}.part.mp4`;
  await runFfmpeg(["-f", "lavfi", "-i", `color=c=gray:size=640x360:rate=5:duration=${WINDOWS * PERIOD}`, "-i", png, "-filter_complex", `[0:v][1:v]overlay=x=(W-w)/2:y=(H-h)/2:enable='${enable}'[v]`, "-map", "[v]", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-y", tmp], { timeoutMs: 120_000 });
  await fs.rename(tmp, file);
  await fs.rm(png, { force: true });
  return file;
}

const csrfOf = (state: { cookies: Array<{ name: string; value: string }> }) => decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "");

/** A reviewer account with its own password, signed in inside a fresh browser context. */
async function reviewerContext(browser: Browser, username: string): Promise<BrowserContext> {
  const created = await api!.post("/api/users", { headers: { "x-csrf-token": csrf }, data: { username, role: "reviewer" } });
  expect(created.status(), await created.text()).toBe(201);
  const oneTime = ((await created.json()) as { password: string }).password;
  const context = await browser.newContext({ baseURL: server!.url });
  contexts.push(context);
  expect((await context.request.post("/api/auth/signin", { data: { username, password: oneTime } })).status()).toBe(200);
  const res = await context.request.post("/api/auth/password", { headers: { "x-csrf-token": csrfOf(await context.storageState()) }, data: { current: oneTime, next: `${username}-password` } });
  expect(res.status(), await res.text()).toBe(200);
  return context;
}

const incident = async (id: string) => ((await (await api!.get(`/api/incidents/${id}`)).json()) as { incident: Json & { queue: { id: string; name: string } | null; claimedBy: string | null; claimExpiresAt: string | null } }).incident;
const claimedId = async (page: Page) => (await page.getByTestId("claimed-incident").getAttribute("data-id"))!;
const card = (page: Page) => page.locator(`[data-testid="queue-card"][data-queue="${queueId}"]`);

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  const file = await qrWindowsVideo();
  media = await startStaticServer(mediaDir());
  server = await startSecondServer({ CLAIM_LEASE_SEC: "3", DETECT_WORKERS: "1", PREVIEW_RETENTION_MIN: "0" });
  api = await playwright.request.newContext({ baseURL: server.url });
  expect((await api.post("/api/auth/signin", { data: SUPERVISOR })).status()).toBe(200);
  csrf = csrfOf(await api.storageState());
  // the queue first, so the file's incidents are routed to it as they are made
  const made = await api.post("/api/queues", { headers: { "x-csrf-token": csrf }, data: { name: "QR ads", rule: { labels: ["ad"], kinds: ["file"] }, order: "oldest" } });
  expect(made.status(), await made.text()).toBe(201);
  queueId = ((await made.json()) as { queue: { id: string } }).queue.id;
  const res = await api.post("/api/files", {
    headers: { "x-csrf-token": csrf },
    data: { url: `${media.url}/${path.basename(file)}`, title: "QR windows for queues", captureMode: "detectFrequency", captureValue: 2, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllAudio: false },
  });
  expect(res.status(), await res.text()).toBe(200);
  const openInQueue = async () => {
    if (server!.proc.exitCode !== null) throw new Error(`the server exited: ${server!.output().slice(-3000)}`);
    const r = await api!.get(`/api/queues/${queueId}`).catch(() => null); // a dropped keep-alive connection: next poll
    return r ? ((await r.json()) as { queue: { counts: { open: number } } }).queue.counts.open : -1;
  };
  await expect.poll(openInQueue, { timeout: 180_000, intervals: [500] }).toBe(WINDOWS);
});

test.afterAll(async () => {
  for (const c of contexts) await c.close();
  await api?.dispose();
  await media?.close();
  await server?.stop();
});

test("the queue API: validation, supervisors only, routing named on the incident", async () => {
  const bad = await api!.post("/api/queues", { headers: { "x-csrf-token": csrf }, data: { name: "x", rule: { labels: ["Not A Slug"], regex: ".*" }, order: "newest" } });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: string }).error).toMatch(/rule/);
  const list = (await (await api!.get("/api/queues")).json()) as { queues: Array<{ id: string; name: string; isDefault: boolean; rule: Json; order: string }> };
  expect(list.queues.map((q) => q.name)).toEqual(["QR ads", "Default"]);
  expect(list.queues[0]).toMatchObject({ rule: { labels: ["ad"], kinds: ["file"] }, order: "oldest" });
  expect((await api!.delete("/api/queues/default", { headers: { "x-csrf-token": csrf } })).status()).toBe(409);
  const open = (await (await api!.get("/api/incidents?status=open")).json()) as { incidents: Array<{ id: string }> };
  for (const i of open.incidents) expect(await incident(i.id)).toMatchObject({ queue: { id: queueId, name: "QR ads" }, claimedBy: null, claimExpiresAt: null });
});

test("two reviewers in two browsers: distinct incidents, a decision loads the next, a lapsed claim returns to the queue, Skip gives one back", async ({ browser }) => {
  test.setTimeout(120_000);
  const [ctxA, ctxB] = [await reviewerContext(browser, REVIEWERS[0]), await reviewerContext(browser, REVIEWERS[1])];
  // a reviewer may not manage queues
  expect((await ctxA.request.post("/api/queues", { headers: { "x-csrf-token": csrfOf(await ctxA.storageState()) }, data: { name: "mine", rule: {}, order: "oldest" } })).status()).toBe(403);
  const [a, b] = [await ctxA.newPage(), await ctxB.newPage()];
  for (const p of [a, b]) {
    await p.goto("/review");
    await expect(card(p).getByTestId("queue-open")).toHaveText(String(WINDOWS));
  }
  await card(a).getByRole("button", { name: "Start reviewing QR ads" }).click();
  await expect(a.getByTestId("claimed-incident")).toBeVisible();
  const idA = await claimedId(a);
  await card(b).getByRole("button", { name: "Start reviewing QR ads" }).click();
  await expect(b.getByTestId("claimed-incident")).toBeVisible();
  const idB = await claimedId(b);
  expect(idB).not.toBe(idA);
  expect(await incident(idA)).toMatchObject({ claimedBy: REVIEWERS[0], queue: { id: queueId } });
  expect(await incident(idB)).toMatchObject({ claimedBy: REVIEWERS[1] });
  // the counts on both pages follow, live
  for (const p of [a, b]) await expect(card(p).getByTestId("queue-claimed")).toHaveText("2");
  // B may not decide A's incident
  const taken = await ctxB.request.post(`/api/incidents/${idA}/decision`, { headers: { "x-csrf-token": csrfOf(await ctxB.storageState()) }, data: { decision: "cleared" } });
  expect(taken.status()).toBe(409);
  expect(((await taken.json()) as { error: string }).error).toContain(`claimed by ${REVIEWERS[0]}`);

  // B confirms (keyboard): the next incident loads, neither A's nor the one decided
  await b.keyboard.press("c");
  await expect(b.locator('[data-testid="claimed-incident"]')).not.toHaveAttribute("data-id", idB);
  const idC = await claimedId(b);
  expect([idA, idB]).not.toContain(idC);
  expect((await incident(idB)).status).toBe("confirmed");

  // A drops off the network: its page cannot renew, the lease lapses and the incident is back in the queue
  await ctxA.setOffline(true);
  await expect.poll(async () => (await incident(idA)).claimedBy, { timeout: 20_000 }).toBeNull();
  await expect(card(b).getByTestId("queue-claimed")).toHaveText("1");
  // B clears its incident: the oldest waiting one is A's lapsed incident
  await b.getByRole("button", { name: /^Cleared/ }).click();
  await expect(b.locator('[data-testid="claimed-incident"]')).toHaveAttribute("data-id", idA);
  expect(await incident(idA)).toMatchObject({ claimedBy: REVIEWERS[1] });

  // A is back: told the claim ended, it goes on with another incident
  await ctxA.setOffline(false);
  await expect(a.getByTestId("queue-notice")).toContainText(`Your claim on incident ${idA} ended`, { timeout: 20_000 });
  await expect(a.locator('[data-testid="claimed-incident"]')).not.toHaveAttribute("data-id", idA);
  const idD = await claimedId(a);
  expect([idA, idB, idC]).not.toContain(idD);

  // Skip: A's incident goes back (not offered to A again at once), A gets the last one
  await a.getByRole("button", { name: /^Skip/ }).click();
  await expect(a.locator('[data-testid="claimed-incident"]')).not.toHaveAttribute("data-id", idD);
  const idE = await claimedId(a);
  expect([idA, idB, idC, idD]).not.toContain(idE);
  expect((await incident(idD)).claimedBy).toBeNull();
  await a.screenshot({ path: ".test-results/queues-claimed.png", fullPage: true });
  // Stop: the claim goes back and the list returns
  await a.getByRole("button", { name: "Stop reviewing" }).click();
  await expect(a.getByTestId("incident-count")).toBeVisible();
  await expect.poll(async () => (await incident(idE)).claimedBy).toBeNull();
  // at phone width the panel and the claimed work fit the screen
  await b.setViewportSize({ width: 390, height: 844 });
  await expect(b.getByTestId("claimed-incident")).toBeVisible();
  expect(await b.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await b.screenshot({ path: ".test-results/queues-phone.png", fullPage: true });
});
