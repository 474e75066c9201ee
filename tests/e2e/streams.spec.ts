import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { startRtmpSource } from "../support/live-sources";
import { SUPERVISOR } from "./credentials";

const QR_TEXT = "https://spam.example/live-e2e";
const AD_TEXT = "Add WeChat: maifen888 cheap followers";

let source: Awaited<ReturnType<typeof startRtmpSource>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // A 12 s loop: QR for its first half, the advert caption for the second, so risky frames keep coming.
  source = await startRtmpSource({
    name: "e2e-live-wall",
    audio: "tone",
    qr: { text: QR_TEXT, fromSec: 0, toSec: 5 },
    text: { content: AD_TEXT, fromSec: 5, toSec: 10 },
  });
});

test.afterAll(async () => {
  await source?.close();
});

/** Tick exactly the wanted types among the enabled boxes of one checklist. */
async function chooseTypes(page: Page, name: string, wanted: string[]) {
  const boxes = page.locator(`input[name="${name}"]`);
  for (const box of await boxes.all()) {
    const type = await box.getAttribute("value");
    if (await box.isEnabled()) await box.setChecked(wanted.includes(type ?? ""));
  }
  for (const type of wanted) await expect(page.locator(`input[name="${name}"][value="${type}"]`)).toBeChecked();
}

/** Every rendered event id appears once: the live merge never shows a result twice. */
async function expectNoDuplicates(events: Locator) {
  const ids = await events.evaluateAll((els) => els.map((el) => el.getAttribute("data-event-id")));
  expect(ids.length).toBeGreaterThan(0);
  expect(new Set(ids).size).toBe(ids.length);
}

/** Frame event ids the server holds for a stream (the API client is not affected by the page going offline). */
async function serverFrameIds(request: APIRequestContext, requestId: string): Promise<string[]> {
  const res = await request.get(`/api/streams/${requestId}`);
  expect(res.ok()).toBe(true);
  const detail = (await res.json()) as { events: Array<{ id: number; kind: string }> };
  return detail.events.filter((e) => e.kind === "frame").map((e) => String(e.id));
}

test("start a live stream, watch frames and audio arrive on its timeline, close it", async ({ page, context, request }) => {
  test.setTimeout(240_000);
  const title = `e2e live ${Date.now()}`;

  await page.goto("/streams");
  await page.getByTestId("new-stream").click(); // the start form and the sample live in the New stream drawer
  const form = page.getByTestId("stream-form");
  // Capabilities load client-side, so this also proves the form is hydrated.
  await expect(form).toHaveAttribute("data-capabilities", "success");
  await expect(form).toHaveAttribute("data-kind", "video");
  await form.getByLabel("Stream URL").fill(source!.rtmpUrl);
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Capture every (s)").fill("1");
  await chooseTypes(page, "imgType", ["QRCODE", "ADVERT"]);
  // Audio types without a detector stay selectable: segments still flow (as PASS).
  await expect(page.locator('input[name="audioType"][value="NONE"]')).toBeChecked();
  // NONE is exclusive: ticking a real type clears it.
  await page.locator('input[name="audioType"][value="POLITY"]').check();
  await expect(page.locator('input[name="audioType"][value="NONE"]')).not.toBeChecked();
  for (const name of ["Return all frames", "Return all audio"]) await expect(form.getByLabel(name)).toBeChecked();
  // the dashboard always asks for the stream-end (it shows a stream ended by any cause at once): no toggle
  await expect(form.getByLabel("Report stream end")).toHaveCount(0);
  await form.getByRole("button", { name: "Start moderating" }).click();
  await expect(page.getByTestId("start-ok")).toBeVisible({ timeout: 15_000 });
  // the started stream by its name, and its timeline offered plainly (not "Started <hex id>")
  await expect(page.getByTestId("start-ok")).toContainText(`Started ${title}`);
  await expect(page.getByTestId("start-ok").getByRole("link", { name: "Open its timeline →" })).toBeVisible();

  // The card appears on the wall, running.
  const card = page.getByTestId("stream-card").filter({ hasText: title });
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute("data-status", "running");
  const requestId = await card.getAttribute("data-request-id");
  expect(requestId).toMatch(/^[0-9a-f]{32}$/);
  // The wall updates live: the first result turns the card's risk badges on without a reload.
  await expect(card.getByTestId("worst-risk")).toHaveAttribute("data-level", /^(REVIEW|REJECT)$/, { timeout: 60_000 });
  await expect(card.getByTestId("since-last")).not.toHaveText("no results yet");

  // Starting the same URL again is refused as a duplicate, with a link to the running stream.
  await form.getByLabel("Stream URL").fill(source!.rtmpUrl);
  await form.getByRole("button", { name: "Start moderating" }).click();
  // whatever the form answers is shown (a refusal of another kind would name itself here), then it must be the duplicate
  const answer = page.getByTestId("start-duplicate").or(page.getByTestId("start-error")).or(page.getByTestId("start-ok"));
  await expect(answer).toBeVisible();
  const dup = page.getByTestId("start-duplicate");
  await expect(dup, `the form answered: ${await answer.textContent()}`).toContainText("already being moderated");
  await expect(dup.getByRole("link")).toHaveAttribute("href", `/streams/${requestId}`);

  await card.getByRole("link", { name: "Timeline →" }).click();
  await expect(page).toHaveURL(new RegExp(`/streams/${requestId}$`));
  const header = page.getByTestId("stream-header");
  await expect(header).toHaveAttribute("data-status", "running");
  await expect(header).toContainText(title);

  // Frames: every captured frame comes back (returnAllImg); the QR and the caption make them risky.
  const timeline = page.getByTestId("timeline");
  const frames = timeline.getByTestId("frame-event");
  await expect(frames.first()).toBeVisible({ timeout: 60_000 });
  const risky = timeline.locator('[data-testid="frame-event"][data-level="REVIEW"], [data-testid="frame-event"][data-level="REJECT"]');
  await expect(risky.first()).toBeVisible({ timeout: 60_000 });
  // The QR half of the loop comes round within 12 s; its frames carry the decoded payload.
  const qrFrame = risky.filter({ has: page.getByTestId("qr-content") }).first();
  await expect(qrFrame.getByTestId("qr-content")).toContainText(QR_TEXT, { timeout: 60_000 });
  await expect(page.getByTestId("worst-risk")).toHaveAttribute("data-level", /^(REVIEW|REJECT)$/);
  await expect(page.getByTestId("current-risk")).toHaveAttribute("data-level", /^(PASS|REVIEW|REJECT)$/);

  // More frames keep arriving live while the page is open (1 s capture).
  const before = await frames.count();
  await expect.poll(() => frames.count(), { timeout: 60_000 }).toBeGreaterThan(before);

  // The live connection drops while frames keep coming, then returns: the history refetched on rejoin
  // fills the gap, merged by event id, so every frame shows once.
  const indicator = page.getByTestId("live-indicator");
  await expect(indicator).toHaveAttribute("data-connected", "true");
  await context.setOffline(true);
  await expect(indicator).toHaveAttribute("data-connected", "false", { timeout: 30_000 });
  const atDrop = (await serverFrameIds(request, requestId!)).length;
  await expect.poll(async () => (await serverFrameIds(request, requestId!)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(atDrop + 3);
  await context.setOffline(false);
  await expect(indicator).toHaveAttribute("data-connected", "true", { timeout: 30_000 });
  // The lane renders only the cards in view (virtualised), newest first: what it draws must be the head of the
  // server's list with no gap, and the lane must hold every frame up to it, each once (data-total).
  const shownIds = () => frames.evaluateAll((els) => els.map((el) => el.getAttribute("data-event-id") ?? ""));
  const lane = timeline.getByTestId("frame-scroller").locator("ul");
  const inSync = async () => {
    const shown = await shownIds();
    const total = Number(await lane.getAttribute("data-total"));
    const ids = (await serverFrameIds(request, requestId!)).reverse();
    const start = ids.indexOf(shown[0] ?? "");
    if (start < 0 || start > 3) return `head ${shown[0]} is not among the newest server frames`;
    const gap = shown.findIndex((id, k) => ids[start + k] !== id);
    if (gap >= 0) return `drawn card ${gap} is ${shown[gap]}, the server has ${ids[start + gap]}`;
    return total === ids.length - start ? "ok" : `lane holds ${total}, the server ${ids.length - start} up to the head`;
  };
  await expect.poll(inSync, { timeout: 30_000 }).toBe("ok");
  await expectNoDuplicates(frames);

  // Audio: one 10 s segment after another; a tone is not speech for the VAD (vadCode 0), with a playable clip.
  const segments = timeline.getByTestId("audio-event");
  await expect(segments.first()).toBeVisible({ timeout: 90_000 });
  await expect(segments.first()).toHaveAttribute("data-level", /^(PASS|REVIEW|REJECT)$/);
  await expect(segments.first()).toHaveAttribute("data-vad", "0");
  await expect(segments.first().locator("audio")).toHaveAttribute("src", /.+/);

  // Enlarge a risky frame: every label, and the QR payload.
  const lightbox = page.getByTestId("lightbox");
  await expect(lightbox).toBeHidden();
  await qrFrame.getByRole("button").click();
  await expect(lightbox).toBeVisible();
  await expect(lightbox.getByTestId("frame-labels")).toBeVisible();
  await expect(lightbox.getByTestId("qr-content")).toContainText(QR_TEXT);
  await page.keyboard.press("Escape");
  await expect(lightbox).toBeHidden();

  // Enter in the review queue opens this stream at the incident's evidence frame (?at=), enlarged: a named dialog.
  await page.goto(`/review?requestId=${requestId}&status=all`);
  await expect(page.locator('[data-testid="incident-row"][aria-selected="true"]')).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/streams/${requestId}\\?at=\\d+(\\.\\d+)?$`));
  await expect(page.getByRole("dialog", { name: /^Frame at \d\d:\d\d\.\d$/ })).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press("Escape");
  await expect(lightbox).toBeHidden();
  await page.goto(`/streams/${requestId}`);

  // A reload rebuilds the same timeline from history, without duplicates.
  await page.reload();
  await expect(frames.first()).toBeVisible({ timeout: 30_000 });
  await expectNoDuplicates(frames);

  // Close with confirmation: Keep running leaves it alone, Close stream ends it.
  await page.getByTestId("close-stream").click();
  await expect(page.getByTestId("confirm-close")).toBeVisible();
  await page.getByRole("button", { name: "Keep running" }).click();
  await expect(page.getByTestId("confirm-close")).toBeHidden();
  await expect(header).toHaveAttribute("data-status", "running");
  await page.getByTestId("close-stream").click();
  await page.getByTestId("confirm-close").click();

  const marker = page.getByTestId("end-marker");
  await expect(marker).toBeVisible({ timeout: 30_000 });
  await expect(marker).toHaveAttribute("data-source", "callback", { timeout: 30_000 });
  await expect(marker).toHaveAttribute("data-error-code", "");
  // who closed it is on the marker and in the ended list, not only in the audit log
  await expect(marker.getByTestId("end-reason")).toHaveText(`closed by ${SUPERVISOR.username}`);
  await expect(header).toHaveAttribute("data-status", "ended");
  await expect(page.getByTestId("close-stream")).toHaveCount(0);
  await expectNoDuplicates(frames);
  await expectNoDuplicates(segments);

  // Back on the wall the stream is listed under Ended.
  await page.getByRole("link", { name: "← Streams" }).click();
  const ended = page.locator(`[data-testid="stream-card"][data-request-id="${requestId}"]`);
  await expect(ended).toHaveAttribute("data-status", "ended");
  await expect(ended.getByTestId("end-reason")).toHaveText(`closed by ${SUPERVISOR.username}`);
});

test("an audio stream (HTTP-FLV) shows its segments and ends on Close", async ({ page }) => {
  test.setTimeout(120_000);
  const title = `e2e audio ${Date.now()}`;
  await page.goto("/streams");
  await page.getByTestId("new-stream").click(); // the start form and the sample live in the New stream drawer
  const form = page.getByTestId("stream-form");
  await expect(form).toHaveAttribute("data-capabilities", "success");
  await form.getByText("Audio stream", { exact: true }).click();
  await expect(form).toHaveAttribute("data-kind", "audio");
  // No image types for an audio stream; its own `type` list, pre-ticked.
  await expect(page.locator('input[name="imgType"]')).toHaveCount(0);
  await expect(page.locator('input[name="audioType"][value="POLITY"]')).toBeChecked();
  await form.getByLabel("Stream URL").fill(source!.flvUrl);
  await form.getByLabel("Title").fill(title);
  await form.getByRole("button", { name: "Start moderating" }).click();
  await page.getByTestId("start-ok").getByRole("link").click();

  const header = page.getByTestId("stream-header");
  await expect(header).toContainText(title);
  await expect(header).toContainText("audio");
  const segment = page.getByTestId("timeline").getByTestId("audio-event").first();
  await expect(segment).toBeVisible({ timeout: 60_000 });
  await expect(segment).toHaveAttribute("data-level", /^(PASS|REVIEW|REJECT)$/);
  await expect(page.getByTestId("current-risk")).toHaveAttribute("data-level", /^(PASS|REVIEW|REJECT)$/);

  await page.getByTestId("close-stream").click();
  await page.getByTestId("confirm-close").click();
  const marker = page.getByTestId("end-marker");
  await expect(marker).toHaveAttribute("data-source", "callback", { timeout: 30_000 });
  await expect(marker).toHaveAttribute("data-error-code", "");
  await expect(header).toHaveAttribute("data-status", "ended");
});

test("an unsupported stream URL is rejected inline", async ({ page }) => {
  await page.goto("/streams");
  await page.getByTestId("new-stream").click(); // the start form and the sample live in the New stream drawer
  const form = page.getByTestId("stream-form");
  await expect(form).toHaveAttribute("data-capabilities", "success");
  await form.getByLabel("Stream URL").fill("ftp://example.com/live");
  await form.getByRole("button", { name: "Start moderating" }).click();
  await expect(form.getByTestId("start-error")).toContainText("Unsupported protocol");
  await expect(page.getByTestId("start-ok")).toHaveCount(0);
});
