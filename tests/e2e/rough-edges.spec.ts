// Issue 31 item 4, the rough edges that are layout or role: one untitled API stream with a QR code (so it has open
// incidents) on one server; the wall card's badges, the queue's names and pills at 1280 and 390 px, what a moderator
// sees in the queue, and no socket while a one-time password is pending.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const KEY = "e2e-key";
const KEY_NAME = `API key ${crypto.createHash("sha256").update(KEY).digest("hex").slice(0, 6)}`;
const MODERATOR = { username: "mod-rough-e2e", password: "moderator-rough-e2e" };
const SHOTS = ".test-results/rough-edges";

let source: RtmpSource | undefined;
let receiver: http.Server | undefined;
let requestId = "";
let supervisor: { api: APIRequestContext; csrf: string };

async function csrfOf(ctx: APIRequestContext): Promise<string> {
  return decodeURIComponent((await ctx.storageState()).cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
}

/** A new user of `role`; with `keep` the one-time password is replaced. Returns the password to sign in with. */
async function createUser(username: string, role: string, keep?: string): Promise<string> {
  const created = await supervisor.api.post("/api/users", { headers: { "x-csrf-token": supervisor.csrf }, data: { username, role } });
  expect(created.status(), await created.text()).toBe(201);
  const oneTime = ((await created.json()) as { password: string }).password;
  if (!keep) return oneTime;
  const ctx = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  expect((await ctx.post("/api/auth/signin", { data: { username, password: oneTime } })).status()).toBe(200);
  expect((await ctx.post("/api/auth/password", { headers: { "x-csrf-token": await csrfOf(ctx) }, data: { current: oneTime, next: keep } })).status()).toBe(200);
  await ctx.dispose();
  return keep;
}

async function signedInPage(browser: Browser, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  expect((await context.request.post("/api/auth/signin", { data: { username, password } })).status()).toBe(200);
  return context.newPage();
}

/** Rendered on one line: no taller than its line height (a word broken over lines doubles it). */
async function oneLine(l: Locator): Promise<void> {
  const { height, line } = await l.evaluate((el) => {
    const cs = getComputedStyle(el);
    const lh = cs.lineHeight === "normal" ? parseFloat(cs.fontSize) * 1.3 : parseFloat(cs.lineHeight);
    return { height: el.getBoundingClientRect().height - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom), line: lh };
  });
  expect(height, `${await l.textContent()} on one line`).toBeLessThan(line * 1.5);
}

async function boxesApart(items: Locator[]): Promise<void> {
  const boxes = await Promise.all(items.map(async (l) => ({ name: (await l.getAttribute("data-testid")) ?? "?", b: (await l.boundingBox())! })));
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, c] = [boxes[i].b, boxes[j].b];
      const overlap = a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height;
      expect(overlap, `${boxes[i].name} overlaps ${boxes[j].name}`).toBe(false);
    }
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  await fs.mkdir(SHOTS, { recursive: true });
  const state = JSON.parse(await fs.readFile(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  supervisor = { api: await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE }), csrf: decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "") };
  // an untitled stream started through the public API: its name must come from its key and URL
  source = await startRtmpSource({ name: "e2e-rough", audio: "none", qr: { text: "https://rough.example/qr", fromSec: 0, toSec: 5 } });
  // the API caller's own callback receiver (it only acknowledges)
  receiver = http.createServer((req, res) => (req.resume(), res.writeHead(200, { "content-type": "application/json" }).end('{"code":1100}')));
  await new Promise<void>((r) => receiver!.listen(0, "127.0.0.1", r));
  const imgCallback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;
  const ack = await (await request.post("/videostream/v4", { data: { accessKey: KEY, appId: "e2e", eventId: "live", imgType: "QRCODE", audioType: "NONE", imgCallback, data: { streamType: "NORMAL", url: source.rtmpUrl, detectFrequency: 1 } } })).json();
  expect(ack.code, JSON.stringify(ack)).toBe(1100);
  requestId = ack.requestId as string;
  await expect
    .poll(async () => ((await (await supervisor.api.get(`/api/incidents?requestId=${requestId}&status=open`)).json()) as { incidents: unknown[] }).incidents.length, { timeout: 90_000 })
    .toBeGreaterThan(0);
  await createUser(MODERATOR.username, "moderator", MODERATOR.password);
});

test.afterAll(async ({ request }) => {
  if (requestId) await request.post("/finish_videostream/v4", { data: { accessKey: KEY, requestId } }).catch(() => undefined);
  await source?.close();
  await supervisor?.api.dispose();
  receiver?.closeAllConnections();
  await new Promise((r) => (receiver ? receiver.close(r) : r(undefined)));
});

for (const width of [1280, 390]) {
  test(`wall card at ${width} px: open incidents, API key marker, captions never overlap`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/streams");
    const card = page.locator(`[data-testid="stream-card"][data-request-id="${requestId}"]`);
    await expect(card.getByTestId("open-incidents")).toHaveAttribute("data-count", /^[1-9]\d*$/, { timeout: 30_000 });
    await expect(card.getByTestId("api-key-marker")).toHaveText(`API · ${KEY_NAME}`);
    await boxesApart([card.getByTestId("open-incidents"), card.getByTestId("api-key-marker"), card.getByTestId("since-last"), card.getByTestId("current-risk")]);
    await card.screenshot({ path: `${SHOTS}/wall-card-${width}.png` });
  });

  test(`review queue at ${width} px: one-line title and pills, the API stream named by its key and URL`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/review?requestId=${requestId}`);
    const row = page.getByTestId("incident-row").first();
    await expect(row).toContainText(`Stream ${KEY_NAME} · 127.0.0.1`, { timeout: 30_000 });
    await expect(row).not.toContainText(/Stream [0-9a-f]{16}/);
    await oneLine(page.getByRole("heading", { level: 1, name: "Review queue" }));
    await oneLine(row.getByTestId("risk-badge"));
    const detail = page.getByTestId("incident-detail");
    await expect(detail).toBeVisible();
    await oneLine(page.locator("section", { has: detail }).locator("header").getByTestId("risk-badge"));
    // where a decision counts is said where it is taken
    await expect(detail.getByTestId("decision-scope")).toContainText("team's record");
    await page.screenshot({ path: `${SHOTS}/review-${width}.png`, fullPage: width === 390 });
  });
}

test("a moderator sees no deciding keys, no Select all and no row checkboxes in the queue", async ({ browser }) => {
  const page = await signedInPage(browser, MODERATOR.username, MODERATOR.password);
  await page.goto(`/review?requestId=${requestId}`);
  await expect(page.getByTestId("incident-row").first()).toBeVisible({ timeout: 30_000 });
  const hints = page.getByTestId("triage-hints");
  await expect(hints).toContainText("next/previous");
  await expect(hints).not.toContainText("confirm");
  await expect(hints).not.toContainText("escalate");
  await expect(page.getByRole("button", { name: "Select all" })).toHaveCount(0);
  await expect(page.getByTestId("incident-check")).toHaveCount(0);
  await expect(page.getByTestId("decision-scope")).toHaveCount(0);
  await page.context().close();
});

test("no socket.io request while the one-time password is pending", async ({ browser }) => {
  const oneTime = await createUser("pending-rough-e2e", "reviewer");
  const page = await signedInPage(browser, "pending-rough-e2e", oneTime);
  const socketRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/socket.io/")) socketRequests.push(r.url());
  });
  await page.goto("/streams");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "false");
  await page.waitForLoadState("networkidle");
  expect(socketRequests).toEqual([]);
  await page.context().close();
});
