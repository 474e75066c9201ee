import fs from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { mediaDir } from "../support/media";

// Operators fill the reference lists from the dashboard; detectors pick entries up without a restart.
// A photo of a few MB, as operators upload (#25.8: the route handler refused anything over 64 KB with 413)
test("add an image to the hash bank from the Lists page, see it listed, remove it", async ({ page }) => {
  const file = path.join(mediaDir(), "lists-e2e.jpg");
  await sharp({ create: { width: 2400, height: 1800, channels: 3, background: "#884422", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .composite([{ input: Buffer.from(`<svg width="2400" height="1800"><circle cx="720" cy="900" r="540" fill="#2266dd"/><rect x="1440" y="360" width="720" height="1080" fill="#eeeeee"/></svg>`) }])
    .jpeg({ quality: 95 })
    .toFile(file);
  expect((await fs.stat(file)).size).toBeGreaterThan(1_000_000);
  await page.goto("/lists");
  const bank = page.getByTestId("list-images");
  await expect(bank).toContainText("No entries yet");
  await bank.getByLabel("entry").fill("e2e banned image");
  await bank.getByLabel("file").setInputFiles(file);
  await bank.getByRole("button", { name: "Add" }).click();
  await expect(bank.getByTestId("list-added")).toContainText("image hashed");
  await expect(bank.getByTestId("list-entry")).toContainText("e2e banned image");
  await expect(page.getByTestId("keyword-lists")).toContainText("ad_contact");
  page.once("dialog", (d) => void d.accept());
  await bank.getByRole("button", { name: "remove" }).click();
  await expect(bank.getByTestId("list-entry")).toHaveCount(0);
});

test("add a keyword to an image-text list, see it listed, remove it; a non-English speech entry is refused", async ({ page }) => {
  await page.goto("/lists");
  const row = page.locator('[data-testid="keyword-list"][data-list="image/ad_words"]');
  await row.getByRole("button", { name: /ad_words/ }).click();
  const detail = page.locator('[data-testid="keyword-list-detail"][data-list="image/ad_words"]');
  await detail.getByLabel("keyword").fill("E2E  Zorblax");
  await detail.getByRole("button", { name: "Add keyword" }).click();
  const added = detail.getByTestId("keyword-entry").filter({ hasText: "e2e zorblax" });
  await expect(added).toHaveCount(1);
  await detail.getByRole("button", { name: "remove e2e zorblax" }).click();
  await expect(added).toHaveCount(0);

  await page.locator('[data-testid="keyword-list"][data-list="speech/ad_words"]').getByRole("button", { name: /ad_words/ }).click();
  const speech = page.locator('[data-testid="keyword-list-detail"][data-list="speech/ad_words"]');
  await speech.getByLabel("keyword").fill("加微信");
  await speech.getByRole("button", { name: "Add keyword" }).click();
  await expect(speech.getByTestId("keyword-error")).toContainText("English words");
});
