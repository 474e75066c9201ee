import { expect, test } from "@playwright/test";

test("the Capabilities page lists supported detectors first, per group", async ({ page }) => {
  await page.goto("/files");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Capabilities" }).click();
  await expect(page).toHaveURL(/\/capabilities$/);

  const img = page.locator('[data-testid="capability-table"][data-group="imgType"]');
  await expect(img).toBeVisible();
  const qr = img.getByTestId("capability-row").filter({ hasText: "QRCODE" });
  await expect(qr).toHaveAttribute("data-supported", "true");

  // Within each group every supported row precedes every unsupported one.
  for (const table of await page.getByTestId("capability-table").all()) {
    const flags = await table.getByTestId("capability-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-supported")));
    const firstUnsupported = flags.indexOf("false");
    if (firstUnsupported >= 0) expect(flags.slice(firstUnsupported)).not.toContain("true");
  }
});
