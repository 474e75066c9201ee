// Issue #11.2/#11.10: frames the detectors never got to (a real backlog, not detectStep) are never counted or drawn
// as PASS. A second server (tests/e2e/start-server.ts on its own port and data dir, so the shared one keeps its
// defaults) runs with a tiny detector queue — STREAM_FRAME_BACKLOG=1, one detect worker — and eight live streams
// pulled every second with OCR, NSFW and QR: twice the frames one worker checks on this machine (four were enough
// only while the machine was busy with other tests: on a quiet run one worker kept up with four, with the live pulls
// in the server's process group or in their own), so the oldest waiting frame of each stream is called back not
// checked (auxInfo.detectType 2). The browser shows it on the wall card, the
// timeline and the Status page; once the streams are closed, every count and NOW are compared with the server's.
import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { SUPERVISOR } from "./credentials";
import { expectFrameLaneAgrees } from "./frame-lane";
import { startSecondServer, type SecondServer } from "./second-server";

const STREAMS = 8;
const QR_TEXT = "https://spam.example/backlog-e2e";
type Json = Record<string, unknown>;

let server: SecondServer | undefined;
let source: RtmpSource | undefined;
let api: APIRequestContext | undefined;
let context: BrowserContext | undefined;
let csrf = "";
const started: string[] = [];

/** The stream as the server holds it: summary, frames in arrival order (checked or not), the newest checked level. */
async function serverState(requestId: string) {
  const detail = (await (await api!.get(`/api/streams/${requestId}`)).json()) as { stream: Json; events: Array<{ id: number; kind: string; body: Json }> };
  const frames = detail.events
    .filter((e) => e.kind === "frame" && e.body.frameDetail)
    .map((e) => {
      const d = e.body.frameDetail as { riskLevel: string; auxInfo?: { detectType?: number } };
      return { id: String(e.id), level: d.riskLevel, checked: d.auxInfo?.detectType !== 2 };
    });
  return { stream: detail.stream, frames, lastChecked: frames.filter((f) => f.checked).at(-1)?.level };
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ playwright, browser }) => {
  test.setTimeout(180_000);
  // a tiny detector queue: one worker, one waiting frame per stream
  server = await startSecondServer({ STREAM_FRAME_BACKLOG: "1", DETECT_WORKERS: "1", PREVIEW_RETENTION_MIN: "0" });
  api = await playwright.request.newContext({ baseURL: server.url });
  expect((await api.post("/api/auth/signin", { data: SUPERVISOR })).status()).toBe(200);
  const state = await api.storageState();
  csrf = decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
  context = await browser.newContext({ baseURL: server.url, storageState: state });
  // one small looped source: a QR code, then ad text (OCR has work on every frame)
  source = await startRtmpSource({ name: "e2e-backlog", audio: "none", qr: { text: QR_TEXT, fromSec: 0, toSec: 3 }, text: { content: "WhatsApp +1 555 0100 cheap pills", fromSec: 3, toSec: 6 } });
});

test.afterAll(async () => {
  for (const id of started) await api?.post(`/api/streams/${id}/close`, { headers: { "x-csrf-token": csrf }, data: {} }).catch(() => undefined);
  await context?.close();
  await api?.dispose();
  await source?.close();
  await server?.stop();
});

test("with a tiny detector queue, frames left unchecked are 'not checked' on the card, timeline and Status page, never PASS", async () => {
  test.setTimeout(240_000);
  for (let n = 0; n < STREAMS; n++) {
    const res = await api!.post("/api/streams", {
      headers: { "x-csrf-token": csrf },
      data: { kind: "video", url: `${source!.flvUrl}?backlog=${n}`, title: `backlog ${n}`, detectFrequency: 1, imgTypes: ["QRCODE", "ADVERT", "IMGTEXTRISK", "EROTIC"], audioTypes: ["NONE"], returnAllImg: true, returnAllText: false, returnFinishInfo: true },
    });
    expect(res.status(), await res.text()).toBe(200);
    started.push(((await res.json()) as { requestId: string }).requestId);
  }
  const [id] = started;
  // the backlog is real: frames called back not checked, with no detectStep to explain them
  await expect.poll(async () => (await serverState(id)).frames.filter((f) => !f.checked).length, { timeout: 90_000 }).toBeGreaterThanOrEqual(3);
  expect((await serverState(id)).stream.detectStep ?? null).toBeNull();

  const page = await context!.newPage();
  await page.goto("/streams");
  const card = page.locator(`[data-testid="stream-card"][data-request-id="${id}"]`);
  await expect(card.getByTestId("frames-not-checked")).toHaveText(/^[1-9]\d* not checked$/, { timeout: 30_000 });
  const cardBehind = card.getByTestId("detection-behind");
  await expect(cardBehind).toHaveText(/^behind [1-9]\d*\/\d+$/, { timeout: 30_000 });
  await expect(cardBehind).toHaveAttribute("title", /^detection behind: [1-9]\d* of \d+ frames not checked in the last minute$/);

  // the timeline: the same notice in full, a NOT CHECKED chip, and the unchecked frames drawn as such
  await page.goto(`/streams/${id}`);
  const timeline = page.getByTestId("timeline");
  await expect(page.getByTestId("detection-behind")).toHaveText(/^detection behind: [1-9]\d* of \d+ frames not checked in the last minute$/, { timeout: 30_000 });
  await expect(timeline.getByTestId("not-checked-chip")).toBeVisible();
  await expect(timeline.locator('[data-testid="frame-event"][data-checked="false"]').first()).toBeVisible();

  // the Status page lists the stream (and the others, all fed to the one worker)
  await page.goto("/status");
  const behind = page.locator(`[data-testid="stream-behind"][data-request-id="${id}"]`);
  await expect(behind).toBeVisible({ timeout: 30_000 });
  await expect(behind).toContainText(/detection behind: [1-9]\d* of \d+ frames not checked in the last minute/);

  // close them all; once both ends are in, nothing changes and the page must agree with the server exactly
  for (const s of started) expect((await api!.post(`/api/streams/${s}/close`, { headers: { "x-csrf-token": csrf }, data: {} })).status()).toBe(200);
  await expect.poll(async () => (await serverState(id)).stream.status, { timeout: 60_000 }).toBe("ended");
  await page.goto(`/streams/${id}`);
  await expect(page.getByTestId("end-marker")).toHaveAttribute("data-source", "callback", { timeout: 30_000 });
  const s = await serverState(id);
  const checked = s.frames.filter((f) => f.checked);
  const skipped = s.frames.filter((f) => !f.checked);
  expect(skipped.length).toBeGreaterThanOrEqual(3);
  expect(checked.length).toBeGreaterThanOrEqual(1);
  expect(s.stream.framesChecked).toBe(checked.length);
  expect(s.stream.framesNotChecked).toBe(skipped.length);
  expect(s.stream.currentRisk).toBe(s.lastChecked);
  test.info().annotations.push({ type: "frames", description: `${checked.length} checked, ${skipped.length} not checked` });

  const header = page.getByTestId("stream-header");
  await expect(header.getByTestId("frame-checks")).toHaveAttribute("data-not-checked", String(skipped.length));
  await expect(header.getByTestId("frame-checks")).toHaveAttribute("data-checked", String(checked.length));
  await expect(header.getByTestId("current-risk")).toHaveAttribute("data-level", s.lastChecked!);
  await expect(timeline.getByTestId("not-checked-chip")).toHaveAttribute("data-count", String(skipped.length));
  const passChecked = checked.filter((f) => f.level === "PASS").length;
  const passChip = timeline.getByTestId("frame-lane").getByRole("button", { name: /^PASS · \d+$/ });
  if (passChecked === 0) await expect(passChip).toHaveCount(0);
  else await expect(passChip).toHaveText(`PASS · ${passChecked}`);
  // no unchecked frame is drawn as PASS
  await expectFrameLaneAgrees(timeline, s.frames);
});
