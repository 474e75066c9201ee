import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";

const QR_TEXT = "https://spam.example/join-e2e";
const AD_TEXT = "Add WeChat: maifen888 cheap followers";

let media: { url: string; close: () => unknown } | undefined;
let videoUrl = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const file = await makeVideo({
    name: "e2e-qr-ad",
    durationSec: 12,
    width: 960,
    height: 540,
    audio: "tone",
    qr: { text: QR_TEXT, fromSec: 2, toSec: 6 },
    text: { content: AD_TEXT, fromSec: 6, toSec: 11 },
  });
  const server = await startStaticServer(mediaDir());
  media = server;
  videoUrl = `${server.url.replace(/\/+$/, "")}/${path.basename(file)}`;
});

test.afterAll(async () => {
  await media?.close();
});

/** Tick exactly the wanted image types among those the server supports. */
async function chooseImgTypes(page: Page, wanted: string[]) {
  const boxes = page.locator('input[name="imgType"]');
  await expect(boxes).toHaveCount(6);
  for (const box of await boxes.all()) {
    const type = await box.getAttribute("value");
    if (await box.isEnabled()) await box.setChecked(wanted.includes(type ?? ""));
  }
  for (const type of wanted) await expect(page.locator(`input[name="imgType"][value="${type}"]`)).toBeChecked();
}

test("submit a video, watch it finish live, inspect frames, QR and OCR", async ({ page }) => {
  test.setTimeout(150_000);
  const title = `e2e qr+ad ${Date.now()}`;

  await page.goto("/files");
  const form = page.getByTestId("file-form");
  // Capabilities load client-side, so this also proves the form is hydrated before typing into it.
  await expect(form).toHaveAttribute("data-capabilities", "success");
  await form.getByLabel("Video URL").fill(videoUrl);
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Capture mode").selectOption("detectFrequency");
  await form.getByLabel("Interval (s)").fill("2");
  // Unsupported types are disabled and say why.
  await expect(page.locator('input[name="imgType"][value="QRCODE"]')).toBeEnabled();
  for (const box of await page.locator('input[name="imgType"]:disabled').all()) {
    await expect(box).toHaveAttribute("title", /^Not supported: .+/);
  }
  await chooseImgTypes(page, ["QRCODE", "ADVERT"]);
  await expect(page.locator('input[name="audioType"][value="NONE"]')).toBeChecked();
  await form.getByRole("button", { name: "Submit" }).click();

  const row = page.getByTestId("file-row").filter({ hasText: title });
  await expect(row).toHaveCount(1);
  const btId = await row.getAttribute("data-btid");
  expect(btId).toBeTruthy();

  // Live progress (socket.io) carries the row to done; no reloads, no sleeps.
  const badge = row.getByTestId("risk-badge");
  await expect(badge).toBeVisible({ timeout: 90_000 });
  await expect(row).toHaveAttribute("data-status", "done");
  await expect(badge).toHaveAttribute("data-level", /^(REVIEW|REJECT)$/);

  await row.getByRole("link", { name: "Result →" }).click();
  await expect(page).toHaveURL(new RegExp(`/files/${btId}$`));

  const risky = page.locator('[data-testid="frame-card"][data-level="REVIEW"], [data-testid="frame-card"][data-level="REJECT"]');
  await expect(risky.first()).toBeVisible({ timeout: 30_000 });
  expect(await risky.count()).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("risk-badge").first()).toHaveAttribute("data-level", /^(REVIEW|REJECT)$/);

  // "Show only": pressing a level shows only that level's frames; pressing it again shows all
  const cards = page.getByTestId("frame-card");
  const all = await cards.count();
  const level = (await risky.first().getAttribute("data-level")) ?? "REVIEW";
  await page.getByTestId(`only-${level}`).click();
  await expect(page.getByTestId(`only-${level}`)).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => cards.evaluateAll((els, l) => els.filter((el) => el.getAttribute("data-level") !== l).length, level)).toBe(0);
  expect(await cards.count()).toBeLessThanOrEqual(all);
  await page.getByTestId(`only-${level}`).click();
  await expect(cards).toHaveCount(all);

  const qrCard = page.getByTestId("frame-card").filter({ has: page.getByTestId("qr-content") }).first();
  await expect(qrCard.getByTestId("qr-content")).toContainText(QR_TEXT);
  const ocrCard = page.getByTestId("frame-card").filter({ has: page.getByTestId("ocr-text").filter({ hasText: /maifen888/i }) }).first();
  await expect(ocrCard).toBeVisible();

  // The lightbox shows every label and the OCR text with its matched word highlighted.
  const lightbox = page.getByTestId("lightbox");
  await expect(lightbox).toBeHidden();
  await ocrCard.getByRole("button").click();
  await expect(lightbox).toBeVisible();
  await expect(lightbox.getByTestId("frame-labels")).toBeVisible();
  await expect(lightbox.getByTestId("ocr-text")).toContainText(/maifen888/i);
  await expect(lightbox.locator("mark").first()).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(lightbox).toBeHidden();

  await qrCard.getByRole("button").click();
  await expect(lightbox.getByTestId("qr-content")).toContainText(QR_TEXT);
  // a decision on this one frame, from its lightbox; the file's own review lists it as on that frame
  const itemReview = lightbox.getByTestId("item-review-panel");
  await expect(itemReview).toHaveAttribute("data-item", /_v\d+$/);
  await itemReview.getByLabel("review note").fill("this frame: QR spam");
  await itemReview.getByRole("button", { name: "Escalate" }).click();
  await expect(itemReview.getByTestId("review-entry").first()).toHaveAttribute("data-decision", "escalated");
  await page.keyboard.press("Escape");
  const onItem = page.getByTestId("review-panel").getByTestId("review-entry").filter({ has: page.getByTestId("review-entry-item") });
  await expect(onItem.first()).toContainText(/escalated on frame at \d\d:\d\d\.\d by admin/);

  // a human decision on the result, kept with who made it
  const review = page.getByTestId("review-panel");
  await review.getByLabel("review note").fill("QR spam confirmed");
  await review.getByRole("button", { name: "Confirm violation" }).click();
  const entry = review.getByTestId("review-entry").filter({ hasNotText: "escalated on" }).first();
  await expect(entry).toHaveAttribute("data-decision", "confirmed");
  await expect(entry).toContainText("QR spam confirmed");
  await expect(entry).toContainText("admin");
});

test("an invalid URL is rejected inline", async ({ page }) => {
  await page.goto("/files");
  await expect(page.getByTestId("file-form")).toHaveAttribute("data-capabilities", "success");
  await expect(page.getByTestId("file-list")).toHaveAttribute("data-state", "ready");
  const rowsBefore = await page.getByTestId("file-row").count();
  const form = page.getByTestId("file-form");
  await form.getByLabel("Video URL").fill("ftp://x");
  await form.getByRole("button", { name: "Submit" }).click();
  const error = form.getByTestId("form-error");
  await expect(error).toBeVisible();
  await expect(error).not.toBeEmpty();
  await expect(page.getByTestId("submit-ok")).toHaveCount(0);
  expect(await page.getByTestId("file-row").count()).toBe(rowsBefore);
});
