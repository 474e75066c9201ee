// Issue #12.4 through the real server and a real RTMP source: the stream page's health strip shows the pull
// connected with its measured input and audio level, flags "no media for N s" when the publisher dies, lists the
// stored health events (source lost, retrying k of n) and shows the recovery once the publisher is back; the state
// pill is green "live" only while media flows (a stream that never connected reads connecting/retrying, "no media
// for N s" since its start); an audio stream's strip shows audio figures.
import fs from "node:fs/promises";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
let source: RtmpSource | undefined;
let api: { ctx: APIRequestContext; csrf: string } | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  source = await startRtmpSource({ name: "e2e-health", audio: "tone" });
  const state = JSON.parse(await fs.readFile(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  api = { ctx: await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE }), csrf: decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "") };
});

test.afterAll(async () => {
  await source?.close();
  await api?.ctx.dispose();
});

async function startStream(data: Record<string, unknown>): Promise<string> {
  const res = await api!.ctx.post("/api/streams", { headers: { "x-csrf-token": api!.csrf }, data: { returnAllImg: false, returnAllText: false, returnFinishInfo: true, imgTypes: [], audioTypes: [], ...data } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { requestId: string }).requestId;
}

const closeStream = (requestId: string) => api!.ctx.post(`/api/streams/${requestId}/close`, { headers: { "x-csrf-token": api!.csrf }, data: {} });

test("an audio stream's strip shows its bitrate, level and segments, no fps or frames", async ({ page }) => {
  const requestId = await startStream({ kind: "audio", url: source!.rtmpUrl, title: `e2e health audio ${Date.now()}`, audioTypes: ["ANTHEN"] });
  await page.goto(`/streams/${requestId}`);
  const strip = page.getByTestId("health-strip");
  await expect(strip.getByTestId("health-state")).toHaveAttribute("data-state", "connected", { timeout: 30_000 });
  await expect(strip.getByTestId("health-input")).toContainText(/\d+ kbit\/s/, { timeout: 15_000 });
  await expect(strip.getByTestId("health-input")).not.toContainText("fps");
  await expect(strip.getByTestId("health-audio")).toContainText(/-\d+ dBFS/);
  await expect(strip.getByTestId("health-delivered")).toContainText(/^segments \d+ checked · \d+ not checked of \d+$/);
  await expect(page.getByTestId("stream-header").getByTestId("stream-status")).toHaveAttribute("data-media", "live");
  await closeStream(requestId);
});

test("a stream that never connected is not 'live': its state, 'no media for N s' since its start, no media yet", async ({ page }) => {
  // a key nobody publishes on a real RTMP server: the pull connects, gets nothing and retries
  const title = `e2e health never ${Date.now()}`;
  const startedAt = Date.now();
  const requestId = await startStream({ kind: "video", url: source!.rtmpUrl.replace(/[^/]+$/, `nobody-${Date.now()}`), title, detectFrequency: 1, imgTypes: ["QRCODE"] });
  await page.goto("/streams");
  await expect(page.getByRole("heading", { name: /^Running \(\d+\)$/ })).toBeVisible();
  const card = page.getByTestId("stream-card").filter({ hasText: title });
  await expect(card).toHaveAttribute("data-media", /^(connecting|retrying|no-media)$/, { timeout: 15_000 });
  await expect(card.getByTestId("stream-status")).not.toHaveText("live");
  // flagged after 2 cadences and the first connection's 10 s grace; counted from the start, not from the flag
  await expect(card.getByTestId("health-badge")).toContainText(/no media for \d+ s/, { timeout: 20_000 });
  const shown = Number((await card.getByTestId("health-badge").textContent())!.match(/no media for (\d+) s/)![1]);
  expect(shown).toBeGreaterThanOrEqual(Math.floor((Date.now() - startedAt) / 1000) - 3);
  await expect(card.getByTestId("stream-thumb-empty")).toHaveText("no media yet");

  await page.goto(`/streams/${requestId}`);
  const header = page.getByTestId("stream-header");
  await expect(header.getByTestId("stream-status")).toHaveAttribute("data-media", /^(connecting|retrying)$/);
  const flag = header.getByTestId("health-flag");
  await expect(flag).toContainText(/no media for \d+ s/);
  expect(Number((await flag.textContent())!.match(/(\d+) s/)![1])).toBeGreaterThanOrEqual(Math.floor((Date.now() - startedAt) / 1000) - 3);
  await expect(page.getByText(/No preview yet: no media from the source yet/)).toBeVisible();
  await closeStream(requestId);
});

test("the health strip: connected with fps, bitrate and level; flagged and retrying while the source is gone; recovered", async ({ page }) => {
  test.setTimeout(180_000);
  // every frame called back (returnAllImg): NOW has a level within seconds
  const requestId = await startStream({ kind: "video", url: source!.rtmpUrl, title: `e2e health ${Date.now()}`, detectFrequency: 1, imgTypes: ["QRCODE"], audioTypes: ["ANTHEN"], returnAllImg: true });

  await page.goto(`/streams/${requestId}`);
  const strip = page.getByTestId("health-strip");
  await expect(strip.getByTestId("health-state")).toHaveAttribute("data-state", "connected", { timeout: 30_000 });
  await expect(strip.getByTestId("health-input")).toContainText(/\d+ fps · \d+ kbit\/s/, { timeout: 15_000 });
  await expect(strip.getByTestId("health-audio")).toContainText(/-\d+ dBFS/);
  await expect(strip.getByTestId("health-last-media")).toContainText(/\d+ s ago/);

  // NOW is a fresh result while media flows, and marked stale (not a fresh PASS) once it stops
  const header = page.getByTestId("stream-header");
  await expect(header.getByTestId("stream-status")).toHaveAttribute("data-media", "live");
  await expect(header.getByTestId("current-risk")).toHaveAttribute("data-level", /.+/, { timeout: 30_000 });
  await expect(header.getByTestId("current-risk")).toHaveAttribute("data-stale", "0");

  await source!.stopPublisher();
  await expect(strip.getByTestId("health-flag")).toContainText(/no media for \d+ s/, { timeout: 15_000 });
  await expect(header.getByTestId("stream-status")).not.toHaveAttribute("data-media", "live");
  await expect(header.getByTestId("current-risk")).toHaveAttribute("data-stale", "1");
  await strip.getByTestId("health-events-toggle").click();
  const events = strip.getByTestId("health-events");
  await expect(events.locator('li[data-kind="source_lost"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(events.locator('li[data-kind="retrying"]').first()).toContainText(/retrying 1 of 12/);
  await expect(strip.getByTestId("health-last-error")).toBeVisible();

  await source!.restartPublisher();
  await expect(events.locator('li[data-kind="recovered"]')).toHaveCount(1, { timeout: 45_000 });
  await expect(strip.getByTestId("health-state")).toHaveAttribute("data-state", "connected");
  await expect(strip.getByTestId("health-flag")).toHaveCount(0);
  await expect(header.getByTestId("stream-status")).toHaveAttribute("data-media", "live");
  await expect(header.getByTestId("current-risk")).toHaveAttribute("data-stale", "0");
  await expect(strip.getByTestId("health-input")).toContainText(/\d+ fps · \d+ kbit\/s/, { timeout: 15_000 });
  await expect(strip.getByTestId("health-audio")).toContainText(/-\d+ dBFS/, { timeout: 15_000 });
  await page.screenshot({ path: ".test-results/stream-health.png", fullPage: false });

  await closeStream(requestId);
  await expect(events.locator('li[data-kind="ended"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(strip.getByTestId("health-state")).toHaveAttribute("data-state", "ended");
});
