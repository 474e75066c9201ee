import { expect, test } from "@playwright/test";
import { startRtmpSource } from "../support/live-sources";

test("shots", async ({ page }) => {
  test.setTimeout(200_000);
  await page.setViewportSize({ width: 1400, height: 1000 });
  const src = await startRtmpSource({ name: "e2e-live-wall", audio: "tone", qr: { text: "https://spam.example/live-e2e", fromSec: 0, toSec: 5 }, text: { content: "Add WeChat: maifen888 cheap followers", fromSec: 5, toSec: 10 } });
  try {
    await page.goto("/streams");
    await page.screenshot({ path: "/tmp/scratch/wall-empty.png", fullPage: true });
    const form = page.getByTestId("stream-form");
    await expect(form).toHaveAttribute("data-capabilities", "success");
    await form.getByLabel("Stream URL").fill(src.rtmpUrl);
    await form.getByLabel("Title").fill("Studio B — evening show");
    await form.getByLabel("Capture every (s)").fill("2");
    await page.locator('input[name="audioType"][value="POLITY"]').check();
    await form.getByRole("button", { name: "Start moderating" }).click();
    const card = page.getByTestId("stream-card").first();
    await expect(card.getByTestId("worst-risk")).toHaveAttribute("data-level", /REVIEW|REJECT/, { timeout: 60_000 });
    await page.getByTestId("sample-start").click();
    await expect(page).toHaveURL(/\/streams\/[0-9a-f]{32}$/, { timeout: 60_000 });
    await expect(page.getByTestId("audio-event").first()).toBeVisible({ timeout: 90_000 });
    await page.screenshot({ path: "/tmp/scratch/sample.png", fullPage: true });
    await page.getByTestId("frame-event").first().getByRole("button").click();
    await page.screenshot({ path: "/tmp/scratch/lightbox.png" });
    await page.keyboard.press("Escape");
    await page.getByTestId("close-stream").click();
    await page.screenshot({ path: "/tmp/scratch/dialog.png" });
    await page.getByTestId("confirm-close").click();
    await expect(page.getByTestId("end-marker")).toHaveAttribute("data-source", "callback", { timeout: 30_000 });
    await page.screenshot({ path: "/tmp/scratch/ended.png", fullPage: true });
    await page.goto("/streams");
    await expect(page.getByTestId("stream-wall")).toHaveAttribute("data-state", "ready");
    await page.screenshot({ path: "/tmp/scratch/wall.png", fullPage: true });
  } finally {
    await src.close();
  }
});
