import { expect, test } from "@playwright/test";

// Operators tune the thresholds that turn scores into PASS / REVIEW / REJECT; detectors use them from the next frame.
test("Policy page: override a threshold, a contradictory pair is refused with the reason, reset to the default", async ({ page }) => {
  await page.goto("/lists");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Policy" }).click();
  await expect(page).toHaveURL(/\/policy$/);
  await expect(page.locator('[data-testid="policy-table"][data-detector="nsfw"]')).toBeVisible();
  await expect(page.locator('[data-testid="policy-row"][data-key="ocr:ad_contact"]')).toBeVisible();
  await expect(page.locator('[data-testid="policy-row"][data-key="speech:abuse"]')).toBeVisible();

  const qr = page.locator('[data-testid="policy-row"][data-key="qrcode"]');
  await expect(qr).toHaveAttribute("data-overridden", "false");
  await qr.getByLabel("qrcode reject threshold").fill("1");
  await qr.getByRole("button", { name: "Save" }).click();
  await expect(qr).toHaveAttribute("data-overridden", "true");
  await expect(qr.getByLabel("qrcode reject threshold")).toHaveValue("1");

  const porn = page.locator('[data-testid="policy-row"][data-key="nsfw:Porn"]');
  await expect(porn.getByLabel("nsfw:Porn reject threshold")).toHaveValue("0.85");
  await porn.getByLabel("nsfw:Porn review threshold").fill("0.95");
  await porn.getByRole("button", { name: "Save" }).click();
  await expect(porn.getByTestId("policy-error")).toContainText("must be ≥ review");
  await expect(porn).toHaveAttribute("data-overridden", "false");

  await page.reload();
  await expect(qr).toHaveAttribute("data-overridden", "true");
  await qr.getByRole("button", { name: "reset to default" }).click();
  await expect(qr).toHaveAttribute("data-overridden", "false");
  await expect(qr.getByLabel("qrcode reject threshold")).toHaveValue("");
});
