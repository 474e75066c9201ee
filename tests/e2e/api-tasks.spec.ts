// Issue #11.8: a file submitted through the public API shows on the Files page with its accessKey's name (the
// e2e server sets no ACCESS_KEY_NAMES: the default name), and its result page shows the stored result, frames loading.
import crypto from "node:crypto";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";

const KEY = "e2e-key";
const KEY_NAME = `API key ${crypto.createHash("sha256").update(KEY).digest("hex").slice(0, 6)}`;
let media: { url: string; close: () => unknown } | undefined;

test.afterAll(async () => {
  await media?.close();
});

test("an API file: marked with its key's name on the Files list, its result page reads the stored result", async ({ page, request }) => {
  test.setTimeout(120_000);
  const file = await makeVideo({ name: "e2e-api-file", durationSec: 4, audio: "none", background: "gray", qr: { text: "https://api-e2e.example/qr", fromSec: 0, toSec: 4 } });
  media = await startStaticServer(mediaDir());
  const btId = `api-e2e-${Date.now()}`;
  const title = `API e2e ${btId}`;
  const ack = await (await request.post("/video/v4", { data: { accessKey: KEY, appId: "e2e", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId, url: `${media.url}/${path.basename(file)}`, detectFrequency: 1, videoTitle: title } } })).json();
  expect(ack.code).toBe(1100);
  await expect.poll(async () => (await (await request.post("/video/query/v4", { data: { accessKey: KEY, btId } })).json()).code, { timeout: 60_000 }).toBe(1100);

  await page.goto("/files");
  const row = page.locator(`[data-testid="file-row"][data-btid="${btId}"]`);
  await expect(row).toHaveAttribute("data-origin", "api");
  await expect(row).toHaveAttribute("data-status", "done");
  await expect(row.getByTestId("api-key-marker")).toHaveText(`API · ${KEY_NAME}`);

  await row.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/files/${ack.requestId}$`));
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByTestId("api-key-marker")).toHaveText(`API · ${KEY_NAME}`);
  const frames = page.getByTestId("frame-card");
  await expect(frames.first()).toBeVisible();
  await expect.poll(() => frames.first().locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator("body")).not.toContainText(KEY);
});
