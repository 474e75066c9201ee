// Issue 26.2 and 26.4 through the real server, a real looping RTMP source and Debian chromium: a stream whose sample
// loops opens an incident per loop, and a reviewer gets ONE alert entry that updates in place (open incidents rise,
// one sound), listed by the bell; the alerts never cover the Review page's decision buttons (desktop and 390 px);
// a reviewer sees frames, the wall's thumbnails and the alert's frame blurred and greyscale until hover or `v`
// reveals them, each REJECT item revealed counts today, and the break reminder comes at the chosen count.
import fs from "node:fs/promises";
import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const QR = "https://spam.example/loop-e2e";
const REVIEWER = { username: "wellness-rev", password: "wellness-rev-password" };

type Api = { api: APIRequestContext; csrf: string };
const csrfOf = (state: { cookies: Array<{ name: string; value: string }> }) => decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "");

let sup: Api;
let rev: Api;
let reviewer: BrowserContext;
let source: RtmpSource | undefined;
let requestId = "";

/** One beep is two oscillators: counted in the page. */
const COUNT_OSCILLATORS = () => {
  const w = window as unknown as { __osc: number };
  w.__osc = 0;
  const create = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function (this: AudioContext) {
    w.__osc += 1;
    return create.call(this);
  };
};

async function signedInReviewer(browser: Browser, who = REVIEWER): Promise<{ api: Api; context: BrowserContext }> {
  const created = await sup.api.post("/api/users", { headers: { "x-csrf-token": sup.csrf }, data: { username: who.username, role: "reviewer" } });
  expect(created.status(), await created.text()).toBe(201);
  const oneTime = ((await created.json()) as { password: string }).password;
  const r = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  expect((await r.post("/api/auth/signin", { data: { username: who.username, password: oneTime } })).status()).toBe(200);
  expect((await r.post("/api/auth/password", { headers: { "x-csrf-token": csrfOf(await r.storageState()) }, data: { current: oneTime, next: who.password } })).status()).toBe(200);
  const state = await r.storageState();
  const context = await browser.newContext({ storageState: state });
  await context.addInitScript(COUNT_OSCILLATORS);
  return { api: { api: r, csrf: csrfOf(state) }, context };
}

const box = async (l: Locator) => (await l.boundingBox())!;
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const filterOf = (l: Locator) => l.evaluate((el) => getComputedStyle(el).filter);

/** Every alert box on screen against every decision button: no intersection. */
async function assertAlertsClearOfDecisions(page: Page) {
  const buttons = page.getByTestId("incident-detail").getByRole("button").filter({ hasText: /Confirmed violation|Cleared|Escalated|Assign to me/ });
  await expect(buttons).toHaveCount(4);
  const alerts = page.locator('[data-testid="alert-stack"], [data-testid="alert-toast"]');
  expect(await alerts.count()).toBeGreaterThan(0);
  for (const b of await buttons.all()) {
    await b.scrollIntoViewIfNeeded();
    const bb = await box(b);
    for (const a of await alerts.all()) if (await a.isVisible()) expect(overlaps(bb, await box(a)), `${await b.textContent()} is covered by an alert`).toBe(false);
  }
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  const state = JSON.parse(await fs.readFile(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  sup = { api: await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE }), csrf: csrfOf(state) };
  const r = await signedInReviewer(browser);
  rev = r.api;
  reviewer = r.context;
});

test.afterAll(async () => {
  if (requestId) await sup.api.post(`/api/streams/${requestId}/close`, { headers: { "x-csrf-token": sup.csrf }, data: {} }).catch(() => undefined);
  await sup.api.delete("/api/policy?key=qrcode", { headers: { "x-csrf-token": sup.csrf } }).catch(() => undefined);
  await sup.api.put("/api/settings/team", { headers: { "x-csrf-token": sup.csrf }, data: { wellness: {} } }).catch(() => undefined);
  await source?.close().catch(() => undefined);
  await reviewer?.close();
  await rev?.api.dispose();
  await sup?.api.dispose();
});

test("a looping stream gives one alert entry that updates in place; the bell lists it; alerts never cover the Review page's decisions", async () => {
  test.setTimeout(180_000);
  // every decoded QR code is REJECT for this test (reset in afterAll); the reviewer wants a sound (kept on the server)
  const policy = await sup.api.patch("/api/policy", { headers: { "x-csrf-token": sup.csrf }, data: { rules: { qrcode: { review: 1, reject: 1, enabled: true } } } });
  expect(policy.status(), await policy.text()).toBe(200);
  expect((await rev.api.put("/api/me/settings", { headers: { "x-csrf-token": rev.csrf }, data: { alerts: { sound: true } } })).status()).toBe(200);

  const page = await reviewer.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/files");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");

  // a QR code at 11-12 s of every 14 s loop: further apart than INCIDENT_GAP_SEC (10), so each loop opens an incident
  source = await startRtmpSource({ name: "e2e-loop-alert", audio: "none", qr: { text: QR, fromSec: 11, toSec: 12 } });
  const started = await sup.api.post("/api/streams", {
    headers: { "x-csrf-token": sup.csrf },
    data: { kind: "video", url: source.rtmpUrl, title: `looping sample ${Date.now()}`, detectFrequency: 1, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: true, returnAllText: false, returnFinishInfo: true },
  });
  expect(started.status(), await started.text()).toBe(200);
  requestId = ((await started.json()) as { requestId: string }).requestId;

  const toast = page.locator(`[data-testid="alert-toast"][data-request-id="${requestId}"]`);
  await expect(toast).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId("alert-stack")).toHaveAttribute("data-mode", "dock");
  await expect(toast).toHaveAttribute("data-incidents", "1");
  // three loops, three incidents: still one entry, updated in place, raised (and sounded) once
  await expect.poll(async () => Number(await toast.getAttribute("data-incidents")), { timeout: 90_000 }).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId("alert-toast")).toHaveCount(1);
  await expect(toast).toHaveAttribute("data-raises", "1");
  await expect(toast.getByTestId("alert-counts")).toContainText(/^[3-9] open/);
  const incidents = (await (await sup.api.get(`/api/incidents?requestId=${requestId}&status=open&limit=50`)).json()) as { incidents: Array<{ id: string }> };
  expect(incidents.incidents.length).toBeGreaterThanOrEqual(3);
  expect(await page.evaluate(() => (window as unknown as { __osc: number }).__osc)).toBe(2);
  await page.screenshot({ path: ".test-results/alerts-dock-desktop.png" });

  // the Review page: the alerts sit in its own slot above the queue; opened, they never cover a decision button.
  // A new page of this tab remembers the stream: its next loop lists it again, with the open incidents the join
  // fetched, without a second sound
  await page.goto(`/review?status=open&requestId=${requestId}`);
  await expect(page.getByTestId("incident-detail")).toBeVisible({ timeout: 30_000 });
  const stack = page.getByTestId("alert-stack");
  await expect(stack).toBeVisible({ timeout: 60_000 });
  await expect(stack).toHaveAttribute("data-mode", "inline");
  await expect(stack).toHaveAttribute("data-collapsed", "true");
  await stack.getByTestId("alert-dock-toggle").click();
  await expect(page.getByTestId("alert-toast")).toHaveCount(1);
  expect(Number(await page.getByTestId("alert-toast").getAttribute("data-incidents"))).toBeGreaterThanOrEqual(3);
  expect(await page.evaluate(() => (window as unknown as { __osc: number }).__osc)).toBe(0);
  await assertAlertsClearOfDecisions(page);
  await page.screenshot({ path: ".test-results/alerts-review-desktop.png" });

  await page.setViewportSize({ width: 390, height: 844 });
  await assertAlertsClearOfDecisions(page);
  await page.screenshot({ path: ".test-results/alerts-review-phone.png", fullPage: true });

  // elsewhere on a phone: a bottom sheet, a slim bar until opened
  await page.goto("/streams");
  const sheet = page.getByTestId("alert-stack");
  await expect(sheet).toHaveAttribute("data-mode", "sheet", { timeout: 60_000 });
  await expect(sheet).toHaveAttribute("data-collapsed", "true");
  expect((await box(sheet)).height).toBeLessThan(56);
  await page.screenshot({ path: ".test-results/alerts-sheet-phone.png" });

  // dismissed, it leaves the dock and stays in the bell's list, across a reload too
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId("alert-stack")).toHaveAttribute("data-mode", "dock");
  await page.locator(`[data-testid="alert-toast"][data-request-id="${requestId}"]`).getByTestId("alert-dismiss").click();
  await expect(page.getByTestId("alert-toast")).toHaveCount(0);
  await page.getByTestId("alert-settings-button").click();
  const item = page.locator(`[data-testid="alert-list-item"][data-request-id="${requestId}"]`);
  await expect(item).toHaveAttribute("data-dismissed", "true");
  expect(Number(await item.getAttribute("data-incidents"))).toBeGreaterThanOrEqual(3);
  await page.keyboard.press("Escape");
  await page.reload();
  await page.getByTestId("alert-settings-button").click();
  await expect(item).toHaveAttribute("data-dismissed", "true", { timeout: 60_000 });
  await expect(page.getByTestId("alert-toast")).toHaveCount(0);
  await page.close();
});

test("a reviewer sees frames blurred and greyscale until hover or v reveals them; each REJECT item revealed counts; the break reminder comes", async ({ page: supPage, browser }) => {
  test.setTimeout(180_000);
  // a reviewer of their own: today's exposure count starts at 0 (the first test's reviewer may have revealed a frame)
  const fresh = await signedInReviewer(browser, { username: "wellness-rev-2", password: "wellness-rev-2-password" });
  expect((await fresh.api.api.put("/api/me/settings", { headers: { "x-csrf-token": fresh.api.csrf }, data: { wellness: { breakAfter: 1 } } })).status()).toBe(200);
  const page = await fresh.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/review?status=open&requestId=${requestId}`);
  const frame = page.getByTestId("incident-peak-image");
  await expect(frame).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => frame.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await page.mouse.move(5, 5);
  await expect.poll(() => filterOf(frame)).toContain("blur(");
  expect(await filterOf(frame)).toContain("grayscale(1)");
  await expect(page.getByTestId("exposure-count")).toHaveAttribute("data-count", "0");
  await expect(page.getByTestId("break-reminder")).toHaveCount(0);
  await frame.screenshot({ path: ".test-results/wellness-blurred.png" });

  // hover reveals (and counts the REJECT item once); moving away blurs again
  await frame.hover();
  await expect.poll(() => filterOf(frame)).toBe("none");
  await frame.screenshot({ path: ".test-results/wellness-revealed.png" });
  await expect(page.getByTestId("exposure-count")).toHaveAttribute("data-count", "1");
  await page.mouse.move(5, 5);
  await expect.poll(() => filterOf(frame)).toContain("blur(");

  // the keyboard flow: v reveals the current incident, v again hides it
  await page.keyboard.press("v");
  await expect.poll(() => filterOf(frame)).toBe("none");
  await page.keyboard.press("v");
  await expect.poll(() => filterOf(frame)).toContain("blur(");
  // j moves on: the next incident starts blurred again; revealing it counts a second item
  await page.keyboard.press("j");
  await expect.poll(() => filterOf(frame)).toContain("blur(");
  await page.keyboard.press("v");
  await expect(page.getByTestId("exposure-count")).toHaveAttribute("data-count", "2");

  // breakAfter 1: the reminder is in the page's flow, not over the decision buttons; dismissed until the next one
  const reminder = page.getByTestId("break-reminder");
  await expect(reminder).toBeVisible();
  for (const b of await page.getByTestId("incident-detail").getByRole("button").all()) expect(overlaps(await box(b), await box(reminder))).toBe(false);
  await page.getByTestId("break-dismiss").click();
  await expect(reminder).toHaveCount(0);

  // the wall and the alerts follow the same setting
  await page.goto("/streams");
  const thumb = page.locator(`[data-testid="stream-card"][data-request-id="${requestId}"] [data-testid="safe-media"]`);
  await expect(thumb).toHaveAttribute("data-blurred", "true");
  const media = thumb.locator("img, video").first();
  await expect.poll(() => filterOf(media)).toContain("blur(");

  // a supervisor sees media plainly by default and sets the team default: unblurred for reviewers who did not choose
  await supPage.goto(`/review?status=open&requestId=${requestId}`);
  await expect(supPage.getByTestId("incident-peak-image")).toBeVisible({ timeout: 30_000 });
  expect(await filterOf(supPage.getByTestId("incident-peak-image"))).toBe("none");
  await supPage.goto("/users");
  const team = supPage.getByTestId("team-wellness");
  await team.getByLabel("Blur and greyscale frames, thumbnails, previews and clips until revealed").uncheck();
  await expect(team.getByText("Saved.")).toBeVisible();
  await page.goto(`/review?status=open&requestId=${requestId}`);
  await expect(page.getByTestId("incident-peak-image")).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => filterOf(page.getByTestId("incident-peak-image"))).toBe("none");
  // the reviewer's own choice wins over the team's
  await page.goto("/account");
  // the toggles are enabled once the server's settings are in (before that they show the role's defaults)
  await expect(page.getByTestId("wellness-prefs")).toBeEnabled();
  await expect(page.getByTestId("wellness-prefs").getByLabel("Blur and greyscale frames, thumbnails, previews and clips until revealed")).not.toBeChecked();
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/me/settings") && r.request().method() === "PUT" && r.ok());
  // a click, then the state as the server settles it (check() would fail if a refetch in flight answered first)
  await page.getByTestId("wellness-prefs").getByLabel("Blur and greyscale frames, thumbnails, previews and clips until revealed").click();
  await saved;
  await expect(page.getByTestId("wellness-prefs").getByLabel("Blur and greyscale frames, thumbnails, previews and clips until revealed")).toBeChecked();
  await page.goto(`/review?status=open&requestId=${requestId}`);
  await expect(page.getByTestId("incident-peak-image")).toBeVisible({ timeout: 30_000 });
  await page.mouse.move(5, 5);
  await expect.poll(() => filterOf(page.getByTestId("incident-peak-image"))).toContain("blur(");
  await page.close();
  await fresh.context.close();
  await fresh.api.api.dispose();
});
