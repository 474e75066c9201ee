import { expect, test } from "@playwright/test";

// First-run demo: the built-in sample source is published to the app's own RTMP ingest and moderated.
test("start the sample stream from the wall, watch frames arrive, close it", async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto("/streams");
  await page.getByTestId("new-stream").click(); // the start form and the sample live in the New stream drawer
  await expect(page.getByTestId("ingest-info")).toContainText("rtmp://");
  // WebRTC (WHIP) publishing: the URL to paste into OBS's WHIP service
  await expect(page.getByRole("region", { name: "WebRTC (WHIP)" })).toContainText(/http:\/\/[^ ]+:\d+\/whip\/my-stream/);
  // a WHIP publish moderated over the ingest's WHEP playback: the form switches to Source WebRTC with that endpoint
  await page.getByTestId("whep-use").click();
  await expect(page.locator("#s-source")).toHaveValue("whep");
  await expect(page.locator("#s-url")).toHaveValue(/^http:\/\/[^ ]+:\d+\/whep\/my-stream$/);
  await expect(page.getByText("WHEP endpoint", { exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/whip-drawer.png", fullPage: true });
  await page.getByTestId("sample-start").click();
  await expect(page).toHaveURL(/\/streams\/[0-9a-f]{32}$/, { timeout: 60_000 });
  await expect(page.getByTestId("frame-event").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("audio-event").first()).toBeVisible({ timeout: 60_000 });
  const first = page.url();
  // a second start (a real second click) re-opens the running task instead of starting a duplicate
  await page.goto("/streams");
  await page.getByTestId("new-stream").click();
  await page.getByTestId("sample-start").click();
  await expect(page).toHaveURL(first, { timeout: 60_000 });
  await page.goto("/streams");
  await expect(page.getByTestId("stream-card").filter({ hasText: "Sample stream" })).toHaveCount(1);
  await page.getByTestId("stream-card").filter({ hasText: "Sample stream" }).getByTestId("close-stream").click();
  await page.getByTestId("confirm-close").click();
  await expect(page.getByTestId("stream-card").filter({ hasText: "Sample stream" }).first()).toHaveAttribute("data-status", "ended", { timeout: 30_000 });
});
