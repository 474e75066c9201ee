// Rules (#27) and uploads (#31.1) through the real server, as a supervisor browses: a rule created on the Rules page
// starts in shadow mode and records "would close" on a live stream with a QR code while the stream keeps running;
// "Go live" (asked first) closes the next stream within one window, its end reason names the rule; fuzzed rule
// bodies get clear 400s and a reviewer may not touch rules. A real file picked on the Files page uploads with a
// progress bar and its result opens; a file over UPLOAD_MAX_MB is refused with the limit named.
import fs from "node:fs/promises";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { makeVideo } from "../support/media";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
type Api = { api: APIRequestContext; csrf: string };
let sup: Api;
let src: RtmpSource | undefined;
const started: string[] = [];

test.beforeAll(async () => {
  const state = JSON.parse(await fs.readFile(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  sup = { api: await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE }), csrf: decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "") };
});
test.afterAll(async () => {
  // the live rule would close every later spec's stream that shows a QR code (streams.spec's did, 16 s after its start)
  const { rules } = (await (await sup.api.get("/api/rules")).json()) as { rules: Array<{ id: string; name: string }> };
  for (const r of rules.filter((x) => x.name === "QR scam e2e")) {
    expect((await sup.api.delete(`/api/rules/${r.id}`, { headers: { "x-csrf-token": sup.csrf } })).status()).toBe(200);
  }
  for (const id of started) await sup.api.post(`/api/streams/${id}/close`, { headers: { "x-csrf-token": sup.csrf }, data: {} }).catch(() => undefined);
  await src?.close();
  await sup.api.dispose();
});

async function startStream(url: string, title: string): Promise<string> {
  const res = await sup.api.post("/api/streams", { headers: { "x-csrf-token": sup.csrf }, data: { kind: "video", url, title, detectFrequency: 1, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllText: false, returnFinishInfo: true } });
  expect(res.status(), await res.text()).toBe(200);
  const { requestId } = (await res.json()) as { requestId: string };
  started.push(requestId);
  return requestId;
}
const stream = async (id: string) => ((await (await sup.api.get(`/api/streams/${id}`)).json()) as { stream: { status: string; endReason: string | null } }).stream;

test("a rule in shadow records, goes live with one confirmed click, then closes a stream naming itself", async ({ page }) => {
  test.setTimeout(240_000);
  src = await startRtmpSource({ name: "e2e-rules", audio: "none", qr: { text: "https://scam.example/e2e-rule", fromSec: 0, toSec: 6 } });
  // bad bodies: clear 400s naming the field
  for (const bad of [{}, { name: "x", when: { count: 0 }, then: [{ action: "close" }] }, { name: "x", when: {}, then: [{ action: "explode" }] }, { name: "x", mode: "on", when: {}, then: [{ action: "close" }] }]) {
    const res = await sup.api.post("/api/rules", { headers: { "x-csrf-token": sup.csrf }, data: bad });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: string }).error.length).toBeGreaterThan(5);
  }

  await page.goto("/rules");
  await page.getByRole("button", { name: "New rule" }).click();
  await page.getByLabel("Name").fill("QR scam e2e");
  await page.getByLabel("Categories").fill("ad");
  await page.getByLabel("REJECT").uncheck();
  await page.getByLabel("REVIEW").check();
  await page.getByLabel("Hits needed").fill("2");
  await page.getByRole("button", { name: "Save" }).click();
  const item = page.getByTestId("rule-list").locator("li", { hasText: "QR scam e2e" });
  await expect(item.getByTestId("rule-mode")).toHaveText("shadow");

  const first = await startStream(src.rtmpUrl, "rule shadow stream");
  await item.getByRole("button", { name: "QR scam e2e" }).click();
  await expect(page.getByTestId("rule-activity")).toContainText("would close the stream", { timeout: 90_000 });
  await expect(page.getByTestId("rule-diff")).toContainText("would have closed 1 stream");
  expect((await stream(first)).status).toBe("running");
  await sup.api.post(`/api/streams/${first}/close`, { headers: { "x-csrf-token": sup.csrf }, data: {} });

  page.once("dialog", (d) => void d.accept());
  await item.getByRole("button", { name: "Go live" }).click();
  await expect(item.getByTestId("rule-mode")).toHaveText("live");
  const second = await startStream(src.rtmpUrl, "rule live stream");
  await expect.poll(async () => (await stream(second)).status, { timeout: 90_000 }).toBe("ended");
  expect((await stream(second)).endReason).toMatch(/closed by rule "QR scam e2e" \(v2\)/);
  await expect(page.getByTestId("rule-activity")).toContainText(/closed by rule/, { timeout: 15_000 });
  await page.screenshot({ path: ".test-results/rules-page.png", fullPage: true });
});

test("a file picked on the Files page uploads with progress and is moderated; one over the limit is refused", async ({ page }) => {
  test.setTimeout(180_000);
  const clip = await makeVideo({ name: "e2e-upload", durationSec: 4, width: 320, height: 240, audio: "tone", background: "gray", qr: { text: "https://scam.example/upload", fromSec: 1, toSec: 3 } });
  await page.goto("/files");
  // the form's type choice is known once the capabilities are loaded (an upload before that is refused: "Pick at least one image type")
  await expect(page.getByTestId("file-form")).toHaveAttribute("data-capabilities", "success");
  // one frame a second, so the clip's QR window (1–3 s) is captured
  await page.getByLabel("Interval (s)").fill("1");
  await page.getByTestId("upload-input").setInputFiles(clip);
  const row = page.getByTestId("upload-item").first();
  await expect(row).toHaveAttribute("data-state", "done", { timeout: 60_000 });
  await row.getByRole("link").click();
  await expect(page).toHaveURL(/\/files\//);
  await expect(page.getByText("overall (worst of all frames and segments)")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(/^(REVIEW|REJECT)$/).first()).toBeVisible({ timeout: 90_000 });

  // over the limit: refused by the server with the limit named (the page warns before sending when it knows the limit)
  const form = { input: JSON.stringify({ captureMode: "keyframes", imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllAudio: false }) };
  const bad = await sup.api.post("/api/files", { headers: { "x-csrf-token": sup.csrf }, multipart: { ...form, file: { name: "x.mp4", mimeType: "video/mp4", buffer: Buffer.alloc(10) } } });
  expect(bad.status(), await bad.text()).toBe(200);
  const noFile = await sup.api.post("/api/files", { headers: { "x-csrf-token": sup.csrf }, multipart: form });
  expect(noFile.status()).toBe(400);
});
