// Issue 26 item 6: a supervisor opens the team metrics page on a server seeded with a known review history
// (tests/support/seed-review-history.ts): the totals, the six charts drawn from it, a table alternative, a CSV
// download, and the page at desktop width and at 390 px (screenshots kept in .test-results/ to look at).
import fs from "node:fs";
import { expect, test, type BrowserContext } from "@playwright/test";
import { SUPERVISOR } from "./credentials";
import { startSecondServer, type SecondServer } from "./second-server";

const H = 3_600_000;
// the history's first hour: three hours back, so all of it (from t0 − 2 h to t0 + 2 h 30) lies in the last 24 hours
const T0 = Math.floor(Date.now() / H) * H - 3 * H;
let server: SecondServer | undefined;
let context: BrowserContext | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ playwright, browser }) => {
  test.setTimeout(180_000);
  server = await startSecondServer({ E2E_SEED_REVIEW_T0: String(T0) });
  const api = await playwright.request.newContext({ baseURL: server.url });
  expect((await api.post("/api/auth/signin", { data: SUPERVISOR })).status()).toBe(200);
  context = await browser.newContext({ baseURL: server.url, storageState: await api.storageState(), viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await api.dispose();
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

test("a supervisor's team metrics: totals, six charts from the seeded history, a table and a CSV download", async () => {
  const page = await context!.newPage();
  await page.goto("/team");
  await expect(page.getByRole("heading", { name: "Team metrics" })).toBeVisible();
  // the last 24 hours hold all seven incidents; five were decided (A–D, G); E and F are open, F since t0 − 2 h
  await expect(page.getByTestId("tile-opened")).toHaveText("7");
  await expect(page.getByTestId("tile-decided")).toHaveText("5");
  await expect(page.getByTestId("tile-open")).toHaveText("2");
  // every hit judged: A 3 cleared, B 1 cleared + 1 confirmed, C 2 confirmed, G 1 confirmed → 4 of 8
  await expect(page.getByTestId("tile-overturn")).toHaveText("50.0 %");
  for (const id of ["opened", "decided", "backlog", "time-to-decision", "reviewers", "overturn"]) {
    const figure = page.getByTestId(`chart-${id}`);
    await expect(figure).toHaveAccessibleName(/.+/);
    await expect(figure.locator("svg.recharts-surface").first()).toBeVisible();
  }
  // drawn from the data: stacked bars per category·level, one bar row per reviewer, a point per bucket
  await expect(page.getByTestId("chart-opened").locator(".recharts-bar-rectangle path")).toHaveCount(7);
  await expect(page.getByTestId("chart-opened")).toContainText("Advertising · REVIEW");
  await expect(page.getByTestId("chart-reviewers").locator(".recharts-bar-rectangle path")).not.toHaveCount(0);
  await expect(page.getByTestId("chart-reviewers")).toContainText("alice");
  await expect(page.getByTestId("chart-reviewers")).toContainText("bob");

  // backlog per review queue at the end of the range: the ads queue holds F (open since t0 − 2 h), the default queue E
  await expect(page.getByTestId("backlog-queues").getByRole("row", { name: /Advertising queue/ })).toContainText("1");
  await expect(page.getByTestId("backlog-queues").getByRole("row", { name: /Default/ })).toContainText("1");

  // the table alternative of the reviewers' chart
  const reviewers = page.getByTestId("table-reviewers");
  await page.getByTestId("chart-reviewers").locator("..").getByText("Show as a table").click();
  await expect(reviewers.getByRole("row", { name: /alice/ })).toContainText("3");
  await expect(reviewers.getByRole("row", { name: /bob/ })).toContainText("3");

  // the CSV of one series downloads with the same figures
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("csv-reviewers").click()]);
  expect(download.suggestedFilename()).toMatch(/^review-reviewers-.*\.csv$/);
  const text = fs.readFileSync((await download.path())!, "utf8");
  const total = (who: string) => text.split("\r\n").filter((l) => l.split(",")[1] === who).reduce((a, l) => a + Number(l.split(",")[2]), 0);
  expect(text.split("\r\n")[0]).toBe("bucket_start,reviewer,decisions");
  expect([total("alice"), total("bob")]).toEqual([3, 3]);

  await page.screenshot({ path: ".test-results/metrics-desktop.png", fullPage: true });
  await page.close();
});

test("at 390 px the page fits the phone: no sideways scroll, charts as wide as the screen", async () => {
  const page = await context!.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/team");
  await expect(page.getByTestId("tile-opened")).toHaveText("7");
  await expect(page.getByTestId("chart-overturn").locator("svg.recharts-surface").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = await page.getByTestId("chart-opened").boundingBox();
  expect(box!.width).toBeGreaterThan(300);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: ".test-results/metrics-390.png", fullPage: true });
  await page.close();
});

test("a reviewer sees their own figures beside the team's intake", async ({ playwright, browser }) => {
  const csrfOf = async (api: Awaited<ReturnType<typeof playwright.request.newContext>>) => decodeURIComponent((await api.storageState()).cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
  const sup = await playwright.request.newContext({ baseURL: server!.url });
  expect((await sup.post("/api/auth/signin", { data: SUPERVISOR })).status()).toBe(200);
  const created = await sup.post("/api/users", { data: { username: "alice", role: "reviewer" }, headers: { "x-csrf-token": await csrfOf(sup) } });
  expect(created.status()).toBe(201);
  const { password } = (await created.json()) as { password: string };
  await sup.dispose();
  const api = await playwright.request.newContext({ baseURL: server!.url });
  expect((await api.post("/api/auth/signin", { data: { username: "alice", password } })).status()).toBe(200);
  expect((await api.post("/api/auth/password", { data: { current: password, next: "alice-e2e-pass-1" }, headers: { "x-csrf-token": await csrfOf(api) } })).status()).toBe(200);
  const ctx = await browser.newContext({ baseURL: server!.url, storageState: await api.storageState(), viewport: { width: 1280, height: 900 } });
  await api.dispose();
  const page = await ctx.newPage();
  await page.goto("/team");
  await expect(page.getByRole("heading", { name: "My review figures" })).toBeVisible();
  await expect(page.getByTestId("tile-opened")).toHaveText("7");
  // alice decided A and B first (C's first decision was bob's)
  await expect(page.getByTestId("tile-decided")).toHaveText("2");
  await expect(page.getByTestId("chart-reviewers")).toContainText("alice");
  await expect(page.getByTestId("chart-reviewers")).not.toContainText("bob");
  // asking the API for bob's figures is refused
  expect((await page.request.get("/api/metrics/review?reviewer=bob")).status()).toBe(403);
  await ctx.close();
});
