// A finished file shows plain PASS only when every requested check ran: NOT CHECKED when none did (types with no
// detector here, e.g. POLITY and VIOLENT frames while the politicians list and hash bank are empty), "partly
// checked" naming the audio types when the file has no audio track; a fully checked clean file stays plain PASS.
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";

const KEY = "e2e-key";
let media: { url: string; close: () => unknown } | undefined;
let silentUrl = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // a plain grey clip without an audio track: nothing in it for QRCODE, and nothing to hear
  const file = await makeVideo({ name: "e2e-coverage-silent", durationSec: 4, audio: "none", background: "gray" });
  media = await startStaticServer(mediaDir());
  silentUrl = `${media.url.replace(/\/+$/, "")}/${path.basename(file)}`;
});

test.afterAll(async () => {
  await media?.close();
});

/** Submit through the public API and wait for Query's 1100; returns the ack's requestId. */
async function submitApiFile(request: APIRequestContext, btId: string, imgType: string): Promise<string> {
  const body = { accessKey: KEY, appId: "e2e", eventId: "video", imgType, audioType: "NONE", data: { btId, url: silentUrl, detectFrequency: 1, videoTitle: btId } };
  const ack = await (await request.post("/video/v4", { data: body })).json();
  expect(ack.code).toBe(1100);
  await expect.poll(async () => (await (await request.post("/video/query/v4", { data: { accessKey: KEY, btId } })).json()).code, { timeout: 60_000 }).toBe(1100);
  return ack.requestId as string;
}

async function doneRow(page: Page, btId: string) {
  await page.goto("/files");
  const row = page.locator(`[data-testid="file-row"][data-btid="${btId}"]`);
  await expect(row).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  return row;
}

test("nothing requested applied: the row and the result page say NOT CHECKED, never PASS", async ({ page, request }) => {
  test.setTimeout(120_000);
  // the precondition the reviewer hit: no politicians and no banked images, so neither type has a detector
  const { capabilities } = (await (await request.get("/api/capabilities")).json()) as { capabilities: Array<{ group: string; type: string; supported: boolean }> };
  for (const t of ["POLITY", "VIOLENT"]) expect(capabilities.find((c) => c.group === "imgType" && c.type === t)?.supported, t).toBe(false);

  const btId = `cov-none-${Date.now()}`;
  const requestId = await submitApiFile(request, btId, "POLITY_VIOLENT");
  const query = await (await request.post("/video/query/v4", { data: { accessKey: KEY, btId } })).json();
  expect(query.riskLevel).toBe("PASS");
  expect([...query.auxInfo.notAppliedTypes].sort()).toEqual(["POLITY", "VIOLENT"]);

  const row = await doneRow(page, btId);
  const verdict = row.getByTestId("file-verdict");
  await expect(verdict).toHaveAttribute("data-coverage", "not-checked");
  await expect(verdict.getByTestId("not-checked-badge")).toHaveText("NOT CHECKED");
  await expect(row.getByTestId("risk-badge")).toHaveCount(0);
  await expect(row.getByTestId("coverage-gaps")).toHaveText("not checked: POLITY, VIOLENT (no detector)");

  await row.getByRole("link", { name: "Result →" }).click();
  await expect(page).toHaveURL(new RegExp(`/files/${requestId}$`));
  const result = page.getByTestId("result-verdict");
  const block = result.getByTestId("file-verdict");
  await expect(block).toHaveAttribute("data-coverage", "not-checked");
  await expect(block.getByTestId("not-checked-badge")).toBeVisible();
  await expect(block.getByTestId("risk-badge")).toHaveCount(0);
  await expect(result.getByTestId("coverage-gaps")).toContainText("Nothing requested was checked");
  await expect(result.getByTestId("not-applied")).toContainText("POLITY, VIOLENT");
  await expect(result.getByTestId("no-risks")).toHaveText("Nothing was found because nothing requested was checked.");
});

test("audio requested from the form, the file has no audio track: partly checked, with the reason", async ({ page, request }) => {
  test.setTimeout(120_000);
  const title = `e2e coverage no-audio ${Date.now()}`;
  await page.goto("/files");
  const form = page.getByTestId("file-form");
  await expect(form).toHaveAttribute("data-capabilities", "success");
  await form.getByLabel("Video URL").fill(silentUrl);
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Interval (s)").fill("1");
  for (const box of await page.locator('input[name="imgType"]').all()) {
    if (await box.isEnabled()) await box.setChecked((await box.getAttribute("value")) === "QRCODE");
  }
  const advert = page.locator('input[name="audioType"][value="ADVERT"]');
  await expect(advert).toBeEnabled(); // speech ADVERT has a detector: the form sends it
  await advert.check();
  await form.getByRole("button", { name: "Submit" }).click();

  const row = page.getByTestId("file-row").filter({ hasText: title });
  await expect(row).toHaveAttribute("data-status", "done", { timeout: 90_000 });
  const btId = (await row.getAttribute("data-btid"))!;
  const verdict = row.getByTestId("file-verdict");
  // the list refetches on "done": the coverage arrives with it
  await expect(verdict).toHaveAttribute("data-coverage", "partial");
  await expect(verdict.getByTestId("risk-badge")).toHaveAttribute("data-level", "PASS");
  await expect(verdict.getByTestId("coverage-tag")).toHaveText("partly checked");
  await expect(row.getByTestId("coverage-gaps")).toHaveText("not checked: ADVERT (no audio track)");

  // the service's own answer: PASS, audio billed 0 s, and nothing saying audio was missing
  const query = await (await request.get(`/api/files/${encodeURIComponent(btId)}/result`)).json();
  expect(query.riskLevel).toBe("PASS");
  expect(query.auxInfo.billingAudioDuration).toBe(0);

  await row.getByRole("link", { name: "Result →" }).click();
  await expect(page).toHaveURL(new RegExp(`/files/${btId}$`));
  const result = page.getByTestId("result-verdict");
  const block = result.getByTestId("file-verdict");
  await expect(block).toHaveAttribute("data-coverage", "partial");
  await expect(block.getByTestId("coverage-tag")).toHaveText("partly checked");
  await expect(result.getByTestId("gap-no-audio-track")).toHaveText("ADVERT — audio requested, but the file has no audio track");
  await expect(result.getByText("no track", { exact: true })).toBeVisible();
  await expect(result.getByTestId("no-risks")).toHaveText("No risky frames or audio segments in what was checked.");
});

test("every requested check ran on a clean file: plain PASS, no coverage note", async ({ page, request }) => {
  test.setTimeout(120_000);
  const btId = `cov-full-${Date.now()}`;
  const requestId = await submitApiFile(request, btId, "QRCODE");

  const row = await doneRow(page, btId);
  const verdict = row.getByTestId("file-verdict");
  await expect(verdict).toHaveAttribute("data-coverage", "checked");
  await expect(verdict.getByTestId("risk-badge")).toHaveAttribute("data-level", "PASS");
  await expect(row.getByTestId("coverage-tag")).toHaveCount(0);
  await expect(row.getByTestId("coverage-gaps")).toHaveCount(0);

  await page.goto(`/files/${requestId}`);
  const result = page.getByTestId("result-verdict");
  const block = result.getByTestId("file-verdict");
  await expect(block).toHaveAttribute("data-coverage", "checked");
  await expect(block.getByTestId("risk-badge")).toHaveAttribute("data-level", "PASS");
  await expect(result.getByTestId("coverage-tag")).toHaveCount(0);
  await expect(result.getByTestId("coverage-gaps")).toHaveCount(0);
  await expect(result.getByTestId("no-risks")).toHaveText("No risky frames or audio segments.");
});
