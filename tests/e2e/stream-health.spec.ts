// Issue #12.4 through the real server and a real RTMP source: the stream page's health strip shows the pull
// connected with its measured input and audio level, flags "no media for N s" when the publisher dies, lists the
// stored health events (source lost, retrying k of n) and shows the recovery once the publisher is back.
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

test("the health strip: connected with fps, bitrate and level; flagged and retrying while the source is gone; recovered", async ({ page }) => {
  test.setTimeout(180_000);
  const res = await api!.ctx.post("/api/streams", {
    headers: { "x-csrf-token": api!.csrf },
    data: { kind: "video", url: source!.rtmpUrl, title: `e2e health ${Date.now()}`, detectFrequency: 1, imgTypes: ["QRCODE"], audioTypes: ["ANTHEN"], returnAllImg: false, returnAllText: false, returnFinishInfo: true },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { requestId } = (await res.json()) as { requestId: string };

  await page.goto(`/streams/${requestId}`);
  const strip = page.getByTestId("health-strip");
  await expect(strip.getByTestId("health-state")).toHaveAttribute("data-state", "connected", { timeout: 30_000 });
  await expect(strip.getByTestId("health-input")).toContainText(/\d+ fps · \d+ kbit\/s/, { timeout: 15_000 });
  await expect(strip.getByTestId("health-audio")).toContainText(/-\d+ dBFS/);
  await expect(strip.getByTestId("health-last-media")).toContainText(/\d+ s ago/);

  await source!.stopPublisher();
  await expect(strip.getByTestId("health-flag")).toContainText(/no media for \d+ s/, { timeout: 15_000 });
  await strip.getByTestId("health-events-toggle").click();
  const events = strip.getByTestId("health-events");
  await expect(events.locator('li[data-kind="source_lost"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(events.locator('li[data-kind="retrying"]').first()).toContainText(/retrying 1 of 12/);
  await expect(strip.getByTestId("health-last-error")).toBeVisible();

  await source!.restartPublisher();
  await expect(events.locator('li[data-kind="recovered"]')).toHaveCount(1, { timeout: 45_000 });
  await expect(strip.getByTestId("health-state")).toHaveAttribute("data-state", "connected");
  await expect(strip.getByTestId("health-flag")).toHaveCount(0);
  await expect(strip.getByTestId("health-input")).toContainText(/\d+ fps · \d+ kbit\/s/, { timeout: 15_000 });
  await expect(strip.getByTestId("health-audio")).toContainText(/-\d+ dBFS/, { timeout: 15_000 });
  await page.screenshot({ path: ".test-results/stream-health.png", fullPage: false });

  await api!.ctx.post(`/api/streams/${requestId}/close`, { headers: { "x-csrf-token": api!.csrf }, data: {} });
  await expect(events.locator('li[data-kind="ended"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(strip.getByTestId("health-state")).toHaveAttribute("data-state", "ended");
});
