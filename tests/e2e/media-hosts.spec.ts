// Workbench #11.1/#11.10: evidence (frames, audio clips) loads whatever name the browser uses for the server —
// the dashboard's media links are same-origin, and the CSP allows exactly that.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { SUPERVISOR, SUPERVISOR_STATE } from "./credentials";

const port = Number(process.env.E2E_PORT ?? 3100);
let media: { url: string; close: () => unknown } | undefined;
let btId = "";

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(150_000);
  const file = await makeVideo({ name: "e2e-hosts", durationSec: 10, width: 640, height: 360, audio: "tone", qr: { text: "https://spam.example/hosts", fromSec: 1, toSec: 4 } });
  media = await startStaticServer(mediaDir());
  const state = JSON.parse(fs.readFileSync(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  const csrf = decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
  const api = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}`, storageState: SUPERVISOR_STATE });
  const res = await api.post("/api/files", {
    headers: { "x-csrf-token": csrf },
    data: { url: `${media.url.replace(/\/+$/, "")}/${path.basename(file)}`, title: "hosts", captureMode: "detectFrequency", captureValue: 2, imgTypes: ["QRCODE"], audioTypes: ["POLITY"], returnAllImg: true, returnAllAudio: true },
  });
  expect(res.status(), await res.text()).toBe(200);
  btId = ((await res.json()) as { btId: string }).btId;
  await expect.poll(async () => ((await (await api.get(`/api/files/${btId}/result`)).json()) as { code: number }).code, { timeout: 120_000 }).toBe(1100);
  await api.dispose();
});

test.afterAll(async () => {
  await media?.close();
});

for (const host of ["localhost", "127.0.0.1"]) {
  test(`frames and audio clips load at http://${host}:PORT, with no CSP violation`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: `http://${host}:${port}`, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to load/i.test(m.text())) violations.push(m.text());
    });
    await page.goto("/signin");
    await page.getByLabel("Username").fill(SUPERVISOR.username);
    await page.getByLabel("Password").fill(SUPERVISOR.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/streams$/);
    await page.goto(`/files/${btId}`);
    const frames = page.getByTestId("frame-card").locator("img");
    await expect(frames.first()).toBeVisible({ timeout: 20_000 });
    const src = await frames.first().getAttribute("src");
    expect(src, "a same-origin link").toMatch(/^\/media\//);
    await expect.poll(() => frames.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
    // the audio clip of the tone's segment: same-origin, and the browser reads it (metadata loaded, a duration)
    const clip = page.getByTestId("audio-segment").locator("audio").first();
    await expect(clip).toBeAttached();
    expect(await clip.getAttribute("src"), "a same-origin link").toMatch(/^\/media\//);
    await clip.evaluate((a: HTMLAudioElement) => {
      a.preload = "metadata";
      a.load();
    });
    await expect.poll(() => clip.evaluate((a: HTMLAudioElement) => (a.error ? -1 : a.readyState)), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await clip.evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    await context.close();
  });
}
