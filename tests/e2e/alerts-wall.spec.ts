// Issue #11.5/#11.6 through the real server and real RTMP sources: a REJECT incident on a live stream raises one
// alert (toast, sound, desktop notification) on a second signed-in user's page within a second, extensions update
// it, its actions work per role; the wall shows 8 live streams with refreshing thumbnails in tiles that fit 16 on a
// 1440×900 screen, and its filter shows only the chosen levels.
import fs from "node:fs/promises";
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const QR_ALERT = "https://spam.example/alert-e2e";
const QR_WALL = "https://spam.example/wall-e2e";
const WATCHER = { username: "watcher-e2e", password: "watcher-e2e-password" };

type Api = { api: APIRequestContext; csrf: string };
const sources: RtmpSource[] = [];
const started: string[] = [];
let sup: Api | undefined;

const csrfOf = (state: { cookies: Array<{ name: string; value: string }> }) => decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "");

async function supervisorApi(): Promise<Api> {
  const state = JSON.parse(await fs.readFile(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  return { api: await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE }), csrf: csrfOf(state) };
}

/** POST /api/streams as the dashboard's start form does: QRCODE only, every frame called back. */
async function startStream(s: Api, url: string, title: string, detectFrequency: number): Promise<string> {
  const res = await s.api.post("/api/streams", {
    headers: { "x-csrf-token": s.csrf },
    data: { kind: "video", url, title, detectFrequency, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: true, returnAllText: false, returnFinishInfo: true },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { requestId } = (await res.json()) as { requestId: string };
  started.push(requestId);
  return requestId;
}

async function closeStream(s: Api, requestId: string) {
  await s.api.post(`/api/streams/${requestId}/close`, { headers: { "x-csrf-token": s.csrf }, data: {} });
}

async function streamStatus(s: Api, requestId: string): Promise<string> {
  // a kept-alive connection the server closed at that instant resets once: ask again on a fresh one
  const get = () => s.api.get(`/api/streams/${requestId}`);
  return ((await (await get().catch(get)).json()) as { stream: { status: string } }).stream.status;
}

/** Every new toast's first appearance (ms), every desktop notification and every oscillator, recorded in the page. */
const RECORDERS = () => {
  const w = window as unknown as { __toastSeen: Record<string, number>; __notes: Array<{ title: string; tag?: string }>; __oscillators: number };
  w.__toastSeen = {};
  w.__notes = [];
  w.__oscillators = 0;
  new MutationObserver(() => {
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid="alert-toast"]')) {
      const id = el.dataset.incidentId ?? "";
      if (!(id in w.__toastSeen)) w.__toastSeen[id] = Date.now();
    }
  }).observe(document, { subtree: true, childList: true });
  const Original = window.Notification;
  class Recorded extends Original {
    constructor(title: string, options?: NotificationOptions) {
      w.__notes.push({ title, tag: options?.tag });
      super(title, options);
    }
  }
  Recorded.requestPermission = Original.requestPermission.bind(Original);
  window.Notification = Recorded;
  const create = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function (this: AudioContext) {
    w.__oscillators += 1;
    return create.call(this);
  };
};

type Recorded = { __toastSeen: Record<string, number>; __notes: Array<{ title: string; tag?: string }>; __oscillators: number };
const recorded = (page: Page): Promise<Recorded> =>
  page.evaluate(() => {
    const w = window as unknown as Recorded;
    return { __toastSeen: w.__toastSeen, __notes: w.__notes, __oscillators: w.__oscillators };
  });

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  sup = await supervisorApi();
});

test.afterAll(async () => {
  if (sup) {
    for (const id of started) await closeStream(sup, id).catch(() => undefined);
    await sup.api.delete("/api/policy?key=qrcode", { headers: { "x-csrf-token": sup.csrf } }).catch(() => undefined);
    await sup.api.dispose();
  }
  for (const s of sources) await s.close().catch(() => undefined);
});

test("a REJECT on a live stream alerts a second signed-in user once, live, with the actions their role allows", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const s = sup!;
  // every decoded QR code is REJECT for this test (reset in afterAll)
  const policy = await s.api.patch("/api/policy", { headers: { "x-csrf-token": s.csrf }, data: { rules: { qrcode: { review: 1, reject: 1, enabled: true } } } });
  expect(policy.status(), await policy.text()).toBe(200);

  // a second account (moderator) with its own password, signed in in its own browser context
  const created = await s.api.post("/api/users", { headers: { "x-csrf-token": s.csrf }, data: { username: WATCHER.username, role: "moderator" } });
  expect(created.status(), await created.text()).toBe(201);
  const oneTime = ((await created.json()) as { password: string }).password;
  const w = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  expect((await w.post("/api/auth/signin", { data: { username: WATCHER.username, password: oneTime } })).status()).toBe(200);
  expect((await w.post("/api/auth/password", { headers: { "x-csrf-token": csrfOf(await w.storageState()) }, data: { current: oneTime, next: WATCHER.password } })).status()).toBe(200);
  const watcherContext = await browser.newContext({ storageState: await w.storageState(), permissions: ["notifications"] });
  await w.dispose();
  await watcherContext.addInitScript(RECORDERS);
  const watcher = await watcherContext.newPage();

  // the moderator turns sound and desktop notifications on; the settings survive a reload (kept on the server)
  await watcher.goto("/files");
  await watcher.getByTestId("alert-settings-button").click();
  const settings = watcher.getByTestId("alert-settings");
  await settings.getByLabel("Play a sound").check();
  await settings.getByLabel("Desktop notification").check();
  await expect(settings.getByLabel("Desktop notification")).toBeChecked();
  await watcher.reload();
  await watcher.getByTestId("alert-settings-button").click();
  await expect(watcher.getByTestId("alert-settings").getByLabel("Play a sound")).toBeChecked();
  await expect(watcher.getByTestId("alert-settings").getByLabel("Desktop notification")).toBeChecked();
  await watcher.keyboard.press("Escape");
  await expect(watcher.getByTestId("alert-settings")).toHaveCount(0);
  await expect(watcher.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");

  // the supervisor is on another page
  await page.goto("/review");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");

  // a real RTMP source: a QR code for 3 s of every 7 s loop, so the incident keeps growing
  const source = await startRtmpSource({ name: "e2e-alert", audio: "none", qr: { text: QR_ALERT, fromSec: 2, toSec: 5 } });
  sources.push(source);
  const requestId = await startStream(s, source.rtmpUrl, `alert e2e ${Date.now()}`, 1);

  const toast = watcher.locator(`[data-testid="alert-toast"][data-request-id="${requestId}"]`);
  await expect(toast).toHaveCount(1, { timeout: 60_000 });
  const incidentId = (await toast.getAttribute("data-incident-id"))!;
  // a kept-alive connection the server closed at that instant resets once: ask again on a fresh one
  const incidentRes = await s.api.get(`/api/incidents/${incidentId}`).catch(() => s.api.get(`/api/incidents/${incidentId}`));
  const incident = ((await incidentRes.json()) as { incident: { createdAt: string; riskLevel: string; source: { requestId: string } } }).incident;
  expect(incident.riskLevel).toBe("REJECT");
  expect(incident.source.requestId).toBe(requestId);
  // within a second of the incident's creation on the server (same machine, same clock)
  const seenAt = (await recorded(watcher)).__toastSeen[incidentId];
  expect(seenAt - Date.parse(incident.createdAt)).toBeLessThan(1000);

  // the peak frame, same-origin, loaded; the evidence; the moderator may open, not decide or close
  const peak = toast.getByTestId("alert-peak");
  await expect.poll(() => peak.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  expect(await peak.getAttribute("src")).toMatch(/^\/media\//);
  await expect(toast.getByTestId("alert-summary")).toContainText(QR_ALERT);
  await expect(toast.getByTestId("alert-confirm")).toHaveCount(0);
  await expect(toast.getByTestId("alert-close-stream")).toHaveCount(0);
  await expect(toast.getByTestId("alert-open")).toHaveAttribute("href", new RegExp(`^/streams/${requestId}\\?at=\\d+$`));

  // the incident grows (the next QR frames, the next loop): the same toast updates, nothing is raised again
  await expect.poll(async () => Number(await toast.getAttribute("data-hits")), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
  await expect(toast).toHaveAttribute("data-updates", /^[1-9]\d*$/);
  await expect(watcher.getByTestId("alert-toast")).toHaveCount(1);
  const rec = await recorded(watcher);
  // one notification per stream alert (the stream as its tag)
  expect(rec.__notes.filter((n) => n.tag === requestId)).toHaveLength(1);
  expect(rec.__notes[0].title).toContain("REJECT");
  expect(rec.__oscillators).toBe(2); // one beep: two tones

  // the supervisor got the same alert, with every action; Confirm records the decision, seen live by the moderator
  // on the Review page the alerts sit in the page's own slot, collapsed until opened (never over its decision buttons)
  const supToast = page.locator(`[data-testid="alert-toast"][data-incident-id="${incidentId}"]`);
  await expect(page.getByTestId("alert-stack")).toHaveAttribute("data-mode", "inline");
  await page.getByTestId("alert-dock-toggle").click();
  await expect(supToast).toHaveCount(1);
  await supToast.getByTestId("alert-confirm").click();
  await expect(supToast.getByTestId("alert-decided")).toHaveText("Confirmed violation by admin");
  await expect(toast).toHaveAttribute("data-status", "confirmed");
  await expect(toast.getByTestId("alert-decided")).toHaveText("Confirmed violation by admin");

  // Open: the stream's timeline with the frame of that moment enlarged
  await toast.getByTestId("alert-open").click();
  await expect(watcher).toHaveURL(new RegExp(`/streams/${requestId}\\?at=\\d+$`));
  await expect(watcher.getByTestId("lightbox")).toBeVisible({ timeout: 30_000 });
  await expect(watcher.getByTestId("lightbox").getByTestId("qr-content")).toContainText(QR_ALERT);

  // Close the stream from the alert, after its confirmation
  await supToast.getByTestId("alert-close-stream").click();
  await supToast.getByRole("button", { name: "Keep running" }).click();
  expect(await streamStatus(s, requestId)).toBe("running");
  await supToast.getByTestId("alert-close-stream").click();
  await supToast.getByTestId("alert-confirm-close").click();
  await expect(supToast.getByTestId("alert-stream-closed")).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => streamStatus(s, requestId), { timeout: 30_000 }).toBe("ended");
  await supToast.getByTestId("alert-dismiss").click();
  await expect(supToast).toHaveCount(0);

  await s.api.delete("/api/policy?key=qrcode", { headers: { "x-csrf-token": s.csrf } });
  await watcherContext.close();
});

test.describe("the wall", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("8 live streams with refreshing thumbnails fit a 16-stream grid; the filter shows only the chosen levels", async ({ page }) => {
    test.setTimeout(150_000);
    const s = sup!;
    // the wall uses all 8 of the dashboard's stream slots (DASHBOARD_MAX_STREAMS): nothing else may be live
    const live = ((await (await s.api.get("/api/streams")).json()) as { streams: Array<{ requestId: string; status: string }> }).streams.filter((x) => x.status === "running");
    for (const x of live) await closeStream(s, x.requestId);

    // two small sources, four HTTP-FLV pulls each (distinct URLs): 3 with a QR code most of the time, 5 without
    const qr = await startRtmpSource({ name: "e2e-wall-qr", audio: "none", qr: { text: QR_WALL, fromSec: 0, toSec: 5 } });
    const plain = await startRtmpSource({ name: "e2e-wall-plain", audio: "none" });
    sources.push(qr, plain);
    const qrIds: string[] = [];
    const plainIds: string[] = [];
    for (let n = 0; n < 8; n++) {
      const src = n < 3 ? qr : plain;
      const id = await startStream(s, `${src.flvUrl}?wall=${n}`, `wall ${n}`, n % 2 === 0 ? 2 : 3);
      (n < 3 ? qrIds : plainIds).push(id);
    }
    const ours = [...qrIds, ...plainIds];

    await page.goto("/streams");
    const cards = page.locator('[data-testid="stream-grid"] [data-testid="stream-card"]');
    await expect(cards).toHaveCount(8);
    // the cards' live previews (on by default: tests/e2e/preview.spec.ts) off: each card shows its latest frame
    await expect(page.getByTestId("wall-previews")).toBeChecked();
    await page.getByTestId("wall-previews").uncheck();
    await expect(page.getByTestId("card-preview")).toHaveCount(0);
    const thumb = (id: string) => page.locator(`[data-testid="stream-card"][data-request-id="${id}"] [data-testid="stream-thumb"]`);
    for (const id of ours) await expect(thumb(id)).toHaveAttribute("src", /^\/media\//, { timeout: 60_000 });

    // each card's thumbnail changes as frames arrive, without a reload
    const first = new Map<string, string>();
    for (const id of ours) first.set(id, (await thumb(id).getAttribute("src"))!);
    await expect
      .poll(async () => {
        const still: string[] = [];
        for (const id of ours) if ((await thumb(id).getAttribute("src")) === first.get(id)) still.push(id);
        return still;
      }, { timeout: 60_000 })
      .toEqual([]);
    for (const id of ours) await expect.poll(() => thumb(id).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);

    // every tile shows risk now, open incidents, time since the last result
    for (const id of ours) {
      const card = page.locator(`[data-testid="stream-card"][data-request-id="${id}"]`);
      await expect(card.getByTestId("current-risk")).toHaveAttribute("data-level", /^(PASS|REVIEW)$/, { timeout: 30_000 });
      await expect(card.getByTestId("open-incidents")).toHaveAttribute("data-count", /^\d+$/);
      await expect(card.getByTestId("since-last")).toHaveText(/ago$/);
    }
    // the QR streams' incidents are counted on their tiles, live
    for (const id of qrIds) {
      await expect.poll(async () => Number(await page.locator(`[data-testid="stream-card"][data-request-id="${id}"] [data-testid="open-incidents"]`).getAttribute("data-count")), { timeout: 60_000 }).toBeGreaterThan(0);
    }

    // tiles of at most 360×225, and 16 of them (4 rows) fit the 900 px screen
    const boxes = await cards.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }));
    for (const b of boxes) {
      expect(b.width).toBeLessThanOrEqual(360);
      expect(b.height).toBeLessThanOrEqual(225);
    }
    const columns = new Set(boxes.map((b) => Math.round(b.x))).size;
    const rowTops = [...new Set(boxes.map((b) => Math.round(b.y)))].sort((a, b) => a - b);
    expect(columns).toBeGreaterThanOrEqual(4);
    const rowPitch = rowTops.length > 1 ? rowTops[1] - rowTops[0] : boxes[0].height;
    const rows16 = Math.ceil(16 / columns);
    expect(rowTops[0] + (rows16 - 1) * rowPitch + Math.max(...boxes.map((b) => b.height))).toBeLessThanOrEqual(900);

    // "Show only REVIEW" (worst so far): only the QR streams; the others are hidden, not the other way round
    for (const id of qrIds) await expect(page.locator(`[data-testid="stream-card"][data-request-id="${id}"]`)).toHaveAttribute("data-worst", "REVIEW", { timeout: 60_000 });
    await page.getByTestId("wall-basis").selectOption("worst");
    await page.getByTestId("wall-only-REVIEW").click();
    await expect(page.getByTestId("wall-only-REVIEW")).toHaveAttribute("aria-pressed", "true");
    const shownIds = () => cards.evaluateAll((els) => els.map((el) => el.getAttribute("data-request-id")!).sort());
    await expect.poll(shownIds).toEqual([...qrIds].sort());
    await expect(page.getByTestId("wall-shown")).toHaveText("3 of 8 shown");
    // "Show only PASS" as well: both levels
    await page.getByTestId("wall-only-PASS").click();
    await expect.poll(shownIds).toEqual([...ours].sort());
    // only PASS: the QR streams leave
    await page.getByTestId("wall-only-REVIEW").click();
    await expect.poll(shownIds).toEqual([...plainIds].sort());
    // "risk now": each shown card is PASS now (a QR stream shows up while its current frame has no code)
    await page.getByTestId("wall-basis").selectOption("now");
    const levelsNow = () => cards.evaluateAll((els) => els.map((el) => el.getAttribute("data-current")));
    await expect.poll(async () => (await levelsNow()).every((l) => l === "PASS")).toBe(true);
    await page.getByTestId("wall-show-all").click();
    await expect(cards).toHaveCount(8);

    // the start form opens from New stream, beside the wall
    await page.getByTestId("new-stream").click();
    await expect(page.getByTestId("stream-form")).toBeVisible();
    await page.getByTestId("new-stream-close").click();
    await expect(page.getByTestId("stream-form")).toBeHidden();

    for (const id of ours) await closeStream(s, id);
    await expect(cards).toHaveCount(0, { timeout: 30_000 });
  });
});
