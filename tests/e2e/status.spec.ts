import path from "node:path";
import { expect, test } from "@playwright/test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";

let media: { url: string; close: () => unknown } | undefined;

test.afterAll(async () => {
  await media?.close();
});

test("the Status page shows disk use by category (frames of a moderated file), free space, retention and queues", async ({ page, request }) => {
  test.setTimeout(120_000);
  const file = await makeVideo({ name: "e2e-status", durationSec: 6, width: 640, height: 360, audio: "tone" });
  media = await startStaticServer(mediaDir());
  const btId = `status-${Date.now()}`;
  const body = { accessKey: "e2e-key", appId: "e2e", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId, url: `${media.url}/${path.basename(file)}`, returnAllImg: 1 } };
  const ack = await (await request.post("/video/v4", { data: body })).json();
  expect(ack.code).toBe(1100);
  await expect.poll(async () => (await (await request.post("/video/query/v4", { data: { accessKey: "e2e-key", btId } })).json()).code, { timeout: 60_000 }).toBe(1100);

  await page.goto("/files");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Status" }).click();
  await expect(page).toHaveURL(/\/status$/);
  await expect(page.getByRole("heading", { name: "Status" })).toBeVisible();

  // the file's frames are on disk; the page refreshes its measurement on its own
  const frames = page.locator('[data-testid="disk-category"][data-category="frames"]');
  await expect(frames).toBeVisible();
  await expect.poll(async () => Number(await frames.getAttribute("data-bytes")), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(frames).toContainText(/\d+(\.\d)? (B|KB|MB|GB)/);
  for (const c of ["audioClips", "database", "referenceLists", "other"]) await expect(page.locator(`[data-testid="disk-category"][data-category="${c}"]`)).toBeVisible();
  expect(Number(await page.locator('[data-testid="disk-category"][data-category="database"]').getAttribute("data-bytes"))).toBeGreaterThan(0);

  await expect(page.getByTestId("free-space")).toContainText(/\d+(\.\d)? (KB|MB|GB|TB)/);
  expect(Number(await page.getByTestId("volume").getAttribute("data-free-bytes"))).toBeGreaterThan(0);

  await expect(page.getByTestId("retention-hours")).toHaveText("72 h");
  await expect(page.getByTestId("next-sweep")).not.toHaveText("—");
  await expect(page.getByTestId("queue-streamsRunning")).toHaveText(/^\d+$/);
  await expect(page.getByTestId("queue-callbacksPending")).toHaveText(/^\d+$/);
});
