// Issue #12 items 1–3: a running RTMP stream's timeline page plays its live preview (hls.js, signed links) near
// the live edge, marks the hits on a seek bar over the retained preview, seeks to a mark or a frame card, and
// lists the evidence clip of its REJECT frames, which the incident's evidence zip carries too.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { startHlsSource, startRtmpSource } from "../support/live-sources";
import { readZip } from "../support/zip";
import { SUPERVISOR_STATE } from "./credentials";

const QR_TEXT = "https://spam.example/preview-e2e";
let source: Awaited<ReturnType<typeof startRtmpSource>> | undefined;
let requestId = "";
const csrf = () => decodeURIComponent((JSON.parse(fs.readFileSync(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> }).cookies.find((c) => c.name === "mp_csrf")?.value ?? "");

test.beforeAll(async () => {
  test.setTimeout(90_000);
  // a QR code from 2 to 4 s of every 6 s loop (made a REJECT for this spec: each keeps an evidence clip)
  source = await startRtmpSource({ name: "e2e-preview", audio: "tone", qr: { text: QR_TEXT, fromSec: 2, toSec: 4 } });
});

test.afterAll(async ({ request }) => {
  if (requestId) await request.post(`/api/streams/${requestId}/close`, { headers: { "x-csrf-token": csrf() } });
  await request.delete("/api/policy?key=qrcode", { headers: { "x-csrf-token": csrf() } });
  await source?.close();
});

const playingAt = async (page: Page) => Number((await page.getByTestId("preview-player").getAttribute("data-playing-at")) || NaN);

/** After a seek to `at` at `since`, the video plays from there: what it plays lies between `at` and `at` + the time since (a busy machine is slow to click). */
async function seekedTo(page: Page, at: number, since: number): Promise<boolean> {
  const p = await playingAt(page);
  return p >= at - 1000 && p <= at + (Date.now() - since) + 1500;
}

test("the timeline page plays the preview near the live edge and seeks to a hit mark and to a frame card", async ({ page, request }) => {
  test.setTimeout(90_000);
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (load|create|connect)/i.test(m.text())) violations.push(m.text());
  });
  const policy = await request.patch("/api/policy", { headers: { "x-csrf-token": csrf() }, data: { rules: { qrcode: { reject: 1 } } } });
  expect(policy.status(), await policy.text()).toBe(200);
  const res = await request.post("/api/streams", {
    headers: { "x-csrf-token": csrf() },
    data: { kind: "video", url: source!.rtmpUrl, title: `e2e preview ${Date.now()}`, detectFrequency: 1, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: true, returnAllText: false, returnFinishInfo: true },
  });
  expect(res.status(), await res.text()).toBe(200);
  requestId = ((await res.json()) as { requestId: string }).requestId;

  await page.goto(`/streams/${requestId}`);
  const video = page.getByTestId("preview-video");
  await expect(video).toBeVisible({ timeout: 30_000 });
  const currentTime = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(currentTime, { timeout: 30_000 }).toBeGreaterThan(0.5);
  const t0 = await currentTime();
  await expect.poll(currentTime, { timeout: 15_000, message: "the video keeps playing" }).toBeGreaterThan(t0 + 2);

  // how far behind the source it plays: wall clock minus the playing frame's program date-time (the pull's
  // media clock, as imgTime), sampled in the page once playback settled at the live edge
  const latency = async () => Number((await page.getByTestId("preview-player").getAttribute("data-latency-ms")) || NaN);
  await expect.poll(latency, { timeout: 40_000, message: "reaches the live edge" }).toBeLessThan(4000);
  const samples = await page.getByTestId("preview-player").evaluate(
    (el) =>
      new Promise<number[]>((resolve) => {
        const out: number[] = [];
        const timer = setInterval(() => {
          const v = Number(el.getAttribute("data-latency-ms") || NaN);
          if (Number.isFinite(v)) out.push(v);
          if (out.length >= 10) {
            clearInterval(timer);
            resolve(out);
          }
        }, 500);
      }),
  );
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(`preview latency (ms): ${samples.join(", ")}; median ${sorted[Math.floor(sorted.length / 2)]}`);
  // the target is ≤ 4 s (measured 2.8–3.9 s here with the sources' 2 s GOP); a stall on this shared, loaded machine
  // costs a second or two until hls.js has caught up, so the test guards against regressions only
  expect(sorted[Math.floor(sorted.length / 2)], "median latency").toBeLessThanOrEqual(6000);

  // a hit on the seek bar: clicking it plays that moment
  // a mark well inside the retained span (not the stream's first fragment, not the live edge still being written)
  const seekbar = page.getByTestId("preview-seekbar");
  const inside = async () => {
    const start = Number(await seekbar.getAttribute("data-start"));
    const end = Number(await seekbar.getAttribute("data-end"));
    const marks = await page.getByTestId("preview-mark").evaluateAll((els) => els.map((e) => ({ id: e.getAttribute("data-event-id") ?? "", at: Number(e.getAttribute("data-at")) })));
    return marks.filter((m) => m.at >= start + 4000 && m.at <= end - 8000).at(-1) ?? null;
  };
  await expect.poll(inside, { timeout: 60_000, message: "a hit mark inside the retained preview" }).not.toBeNull();
  const chosen = (await inside())!;
  const mark = page.locator(`[data-testid="preview-mark"][data-event-id="${chosen.id}"]`);
  const at = chosen.at;
  const clickedMark = Date.now();
  await mark.click();
  await expect.poll(() => seekedTo(page, at, clickedMark), { timeout: 10_000, message: "plays from the mark" }).toBe(true);
  await expect(page.getByTestId("preview-note")).toHaveCount(0);
  // it stays in the history (plays on from there at normal speed), it is not pulled back to live
  await expect.poll(currentTime, { timeout: 10_000 }).toBeGreaterThan((await currentTime()) + 2);
  expect(await seekedTo(page, at, clickedMark)).toBe(true);

  // back to live, then a hit's frame card seeks the video to that frame too
  await page.getByRole("button", { name: "Go live" }).click();
  await expect.poll(async () => Date.now() - (await playingAt(page)), { timeout: 10_000 }).toBeLessThan(6000);
  const hitId = chosen.id;
  // the frame lane renders only the cards in view (newest first): show only the REJECT frames and scroll back to the hit's card
  await page.getByTestId("only-REJECT").click();
  const card = page.locator(`[data-testid="frame-event"][data-event-id="${hitId}"]`);
  const scroller = page.getByTestId("frame-scroller");
  await expect
    .poll(
      async () => {
        if ((await card.count()) > 0) return true;
        await scroller.evaluate((el) => el.scrollBy({ left: 300 }));
        return false;
      },
      { timeout: 30_000, intervals: [250], message: "the hit's card is drawn" },
    )
    .toBe(true);
  const clickedCard = Date.now();
  await card.click();
  await page.keyboard.press("Escape");
  await expect.poll(() => seekedTo(page, at, clickedCard), { timeout: 10_000, message: "plays from the card's frame" }).toBe(true);

  // the REJECT frames' evidence clip: listed, playable under its signed link, and in the incident's zip
  const clip = page.getByTestId("preview-clip").first();
  await expect(clip).toBeVisible({ timeout: 40_000 });
  const clipUrl = (await clip.getByRole("link", { name: "play" }).getAttribute("href"))!;
  expect(clipUrl).toMatch(new RegExp(`^/api/preview/${requestId}/clips/\\d+\\.mp4\\?exp=\\d+&sig=`));
  const mp4 = await page.request.get(clipUrl);
  expect(mp4.status()).toBe(200);
  expect(mp4.headers()["content-type"]).toBe("video/mp4");
  expect((await mp4.body()).subarray(4, 8).toString("latin1")).toBe("ftyp");
  // and it plays in the browser (muted autoplay of the signed link)
  const played = await page.evaluate(
    (src) =>
      new Promise<number>((resolve) => {
        const v = document.createElement("video");
        v.muted = true;
        v.src = src;
        v.addEventListener("timeupdate", () => v.currentTime > 0.5 && resolve(v.currentTime));
        v.addEventListener("error", () => resolve(-1));
        document.body.append(v);
        void v.play();
      }),
    clipUrl,
  );
  expect(played, "the evidence clip plays").toBeGreaterThan(0.5);
  const clipN = (await clip.getAttribute("data-n"))!;
  const incidents = (await (await page.request.get(`/api/incidents?requestId=${requestId}&status=open`)).json()) as { incidents: Array<{ id: string }> };
  expect(incidents.incidents.length).toBeGreaterThan(0);
  // one after another: a session may run only a few exports at once (INCIDENT_EXPORTS_PER_USER)
  const zips = [];
  for (const i of incidents.incidents) zips.push(readZip(await (await page.request.get(`/api/incidents/${i.id}/export`)).body()));
  expect(zips.some((z) => z.has(`clips/${clipN}.mp4`)), "an incident's evidence zip carries the clip").toBe(true);

  // the playlist and segments come only under signed links
  const playlist = await page.request.get(`/api/preview/${requestId}/index.m3u8`);
  expect(playlist.status()).toBe(403);
  expect(violations).toEqual([]);
});

test("an HLS source's stream plays its preview too (the same pull remuxes it)", async ({ page, request }) => {
  test.setTimeout(90_000);
  const hls = await startHlsSource({ name: "e2e-preview-hls" });
  let id = "";
  try {
    const res = await request.post("/api/streams", {
      headers: { "x-csrf-token": csrf() },
      data: { kind: "video", url: hls.url, title: `e2e preview hls ${Date.now()}`, detectFrequency: 2, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: true, returnAllText: false, returnFinishInfo: true },
    });
    expect(res.status(), await res.text()).toBe(200);
    id = ((await res.json()) as { requestId: string }).requestId;
    await page.goto(`/streams/${id}`);
    const video = page.getByTestId("preview-video");
    await expect(video).toBeVisible({ timeout: 30_000 });
    const currentTime = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await expect.poll(currentTime, { timeout: 40_000 }).toBeGreaterThan(0.5);
    const t0 = await currentTime();
    await expect.poll(currentTime, { timeout: 20_000, message: "the video keeps playing" }).toBeGreaterThan(t0 + 2);

    // the wall card plays it too, muted and small
    await page.goto("/streams");
    const card = page.locator(`[data-testid=stream-card][data-request-id="${id}"]`);
    const small = card.getByTestId("card-preview-video");
    await expect(card.getByTestId("card-preview")).toHaveAttribute("data-state", "playing", { timeout: 30_000 });
    expect(await small.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
    const cardTime = () => small.evaluate((v: HTMLVideoElement) => v.currentTime);
    const c0 = await cardTime();
    await expect.poll(cardTime, { timeout: 20_000, message: "the card's preview plays" }).toBeGreaterThan(c0 + 1);
  } finally {
    if (id) await request.post(`/api/streams/${id}/close`, { headers: { "x-csrf-token": csrf() } });
    await hls.close();
  }
});
