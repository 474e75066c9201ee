// Honest live state through the real server: frames the detectors skip (detectStep → auxInfo.detectType 2)
// are counted and drawn as "not checked", never as PASS; NOW is the last checked frame; the stream-end shows
// the worst each lane saw; a tone reads "no speech".
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startRtmpSource } from "../support/live-sources";
import { expectFrameLaneAgrees } from "./frame-lane";

const QR_TEXT = "https://spam.example/honest-e2e";

let source: Awaited<ReturnType<typeof startRtmpSource>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // a 6 s loop with a QR code for its first 4 s: checked frames are REVIEW or PASS; the audio is a tone
  source = await startRtmpSource({ name: "e2e-honest", audio: "tone", qr: { text: QR_TEXT, fromSec: 0, toSec: 4 } });
});

test.afterAll(async () => {
  await source?.close();
});

async function chooseTypes(page: Page, name: string, wanted: string[]) {
  for (const box of await page.locator(`input[name="${name}"]`).all()) {
    if (await box.isEnabled()) await box.setChecked(wanted.includes((await box.getAttribute("value")) ?? ""));
  }
}

type Json = Record<string, unknown>;
type Frame = { id: string; level: string; checked: boolean };

/** The stream as the server holds it: its summary and its frame results in arrival order. */
async function serverState(request: APIRequestContext, requestId: string) {
  const res = await request.get(`/api/streams/${requestId}`);
  expect(res.ok()).toBe(true);
  const detail = (await res.json()) as { stream: Json; events: Array<{ id: number; kind: string; body: Json }> };
  const frames: Frame[] = detail.events
    .filter((e) => e.kind === "frame" && e.body.frameDetail)
    .map((e) => {
      const d = e.body.frameDetail as { riskLevel: string; auxInfo?: { detectType?: number } };
      return { id: String(e.id), level: d.riskLevel, checked: d.auxInfo?.detectType !== 2 };
    });
  const audio = detail.events.filter((e) => e.kind === "audio").map((e) => (e.body.audioDetail as { riskLevel: string }).riskLevel);
  // the newest result the detectors produced: a checked frame or an audio segment (events come oldest first)
  const lastChecked = detail.events
    .filter((e) => (e.kind === "frame" && (e.body.frameDetail as { auxInfo?: { detectType?: number } } | undefined)?.auxInfo?.detectType !== 2) || e.kind === "audio")
    .map((e) => ((e.body.frameDetail ?? e.body.audioDetail) as { riskLevel?: string } | undefined)?.riskLevel)
    .filter((l) => l !== undefined)
    .at(-1);
  return { stream: detail.stream, frames, audio, lastChecked };
}

test("frames skipped by detectStep are 'not checked' on the card and the timeline, never PASS", async ({ page, request }) => {
  test.setTimeout(240_000);
  const title = `e2e honest ${Date.now()}`;

  await page.goto("/streams");
  await page.getByTestId("new-stream").click(); // the start form and the sample live in the New stream drawer
  const form = page.getByTestId("stream-form");
  await expect(form).toHaveAttribute("data-capabilities", "success");
  await form.getByLabel("Stream URL").fill(source!.rtmpUrl);
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Capture every (s)").fill("1");
  // detectStep 2: one captured frame in two is checked, the other is called back with detectType 2
  await form.getByLabel("Frame step").fill("2");
  await chooseTypes(page, "imgType", ["QRCODE"]);
  await page.locator('input[name="audioType"][value="POLITY"]').check();
  await form.getByRole("button", { name: "Start moderating" }).click();
  await expect(page.getByTestId("start-ok")).toBeVisible({ timeout: 15_000 });

  // The wall card counts the skipped frames apart, live.
  const card = page.getByTestId("stream-card").filter({ hasText: title });
  await expect(card).toHaveAttribute("data-status", "running");
  const requestId = (await card.getAttribute("data-request-id"))!;
  const notChecked = card.getByTestId("frames-not-checked");
  await expect(notChecked).toHaveText(/^[1-9]\d* not checked$/, { timeout: 60_000 });
  await expect(card.getByTestId("frames-checked")).toHaveText(/^\d+ checked$/);

  // The timeline: skipped frames carry their own state, and the PASS chip does not count them.
  await card.getByRole("link", { name: "Timeline →" }).click();
  await expect(page).toHaveURL(new RegExp(`/streams/${requestId}$`));
  const timeline = page.getByTestId("timeline");
  await expect(timeline.locator('[data-testid="frame-event"][data-checked="false"]').first()).toBeVisible({ timeout: 30_000 });
  await expect(timeline.getByTestId("not-checked-chip")).toBeVisible();

  // Enough of everything before closing: skipped frames, a checked risky (QR) frame and one 10 s audio segment.
  await expect.poll(async () => {
    const s = await serverState(request, requestId);
    return s.frames.filter((f) => !f.checked).length >= 3 && s.frames.some((f) => f.checked && f.level !== "PASS") && s.audio.length >= 1;
  }, { timeout: 90_000 }).toBe(true);

  await page.getByTestId("close-stream").click();
  await page.getByTestId("confirm-close").click();
  const marker = page.getByTestId("end-marker");
  await expect(marker).toHaveAttribute("data-source", "callback", { timeout: 30_000 });
  // both stream-ends (image and audio) are in: nothing arrives after them
  await expect(marker.getByTestId("end-lane")).toHaveCount(2, { timeout: 30_000 });

  // From here the stream is still: compare what is shown with what the server received.
  const s = await serverState(request, requestId);
  const checked = s.frames.filter((f) => f.checked);
  const skipped = s.frames.filter((f) => !f.checked);
  expect(skipped.length).toBeGreaterThanOrEqual(3);
  expect(checked.length).toBeGreaterThanOrEqual(1);
  expect(s.stream.framesChecked).toBe(checked.length);
  expect(s.stream.framesNotChecked).toBe(skipped.length);
  expect(s.stream.frames).toBe(s.frames.length);
  // NOW is the newest checked frame or segment, never a skipped frame's PASS; worst counts checked results only
  const order = ["PASS", "REVIEW", "REJECT"];
  const worst = (levels: string[]) => levels.reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a));
  const worstChecked = worst(checked.map((f) => f.level));
  const worstAudio = worst(s.audio);
  expect(s.stream.currentRisk).toBe(s.lastChecked);
  expect(s.stream.worstRisk).toBe(worst([worstChecked, worstAudio]));

  const header = page.getByTestId("stream-header");
  await expect(header).toHaveAttribute("data-status", "ended");
  await expect(header.getByTestId("frame-checks")).toHaveAttribute("data-checked", String(checked.length));
  await expect(header.getByTestId("frame-checks")).toHaveAttribute("data-not-checked", String(skipped.length));
  await expect(header.getByTestId("frames-not-checked")).toHaveText(`${skipped.length} not checked`);
  await expect(header.getByTestId("current-risk")).toHaveAttribute("data-level", s.lastChecked!);

  // Chips: PASS/REVIEW/REJECT count checked frames only; NOT CHECKED counts the rest.
  await expect(timeline.getByTestId("not-checked-chip")).toHaveAttribute("data-count", String(skipped.length));
  for (const level of order) {
    const n = checked.filter((f) => f.level === level).length;
    const chip = timeline.getByTestId("frame-lane").getByRole("button", { name: new RegExp(`^${level} · \\d+$`) });
    if (n === 0) await expect(chip).toHaveCount(0);
    else await expect(chip).toHaveText(`${level} · ${n}`);
  }
  // the lane agrees with the server: no skipped frame drawn as PASS; "show only NOT CHECKED" leaves the skipped ones
  const lane = await expectFrameLaneAgrees(timeline, s.frames);
  await timeline.getByTestId("not-checked-chip").click();
  await expect(lane).toHaveAttribute("data-total", String(s.frames.length));

  // The stream-end: each lane shows the worst it saw (frames: checked only; audio: the tone's PASS segments),
  // not the stream verdict the callbacks carry for both.
  await expect(marker.locator('[data-testid="end-lane"][data-lane="frames"]')).toHaveAttribute("data-level", worstChecked);
  await expect(marker.locator('[data-testid="end-lane"][data-lane="audio"]')).toHaveAttribute("data-level", worstAudio);
  await expect(marker.getByTestId("end-overall")).toHaveAttribute("data-level", worst([worstChecked, worstAudio]));

  // A tone has no voice activity: it reads "no speech", never "silent".
  const segment = timeline.getByTestId("audio-event").first();
  await expect(segment).toHaveAttribute("data-vad", "0");
  await expect(segment.getByTestId("no-speech")).toHaveText(/no speech/i);
  await expect(timeline).not.toContainText(/silent/i);
});
