// Issue #26.1 and #26.5 in the browser: three small real files submitted through the dashboard (its file form's API,
// with an end user's tokenId) and moderated by the embedded engine. The REJECT ad-text incident's detail shows the
// ad-text frame as its peak (not the REVIEW QR frame at 1.0) and, beside the decision, the history: the same end
// user's earlier file and its confirmed incident, never the other user's. Checked at 390 px and on a desktop.
import fs from "node:fs/promises";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const USER = "e2e-context-user";
const OTHER = "e2e-context-other";

let media: { url: string; close: () => Promise<void> } | undefined;
let api: APIRequestContext;
let csrf = "";
const ids: Record<"earlier" | "other" | "current", string> = { earlier: "", other: "", current: "" };

interface Listed {
  id: string;
  riskLevel: string;
  peak: { itemId: string; riskLevel: string; evidence: { qr: string[]; words: Array<{ word: string }> } };
}

/** Submits a file as the dashboard's form does and waits for its one incident. */
async function submit(file: string, tokenId: string, title: string, imgTypes: string[]): Promise<Listed> {
  const res = await api.post("/api/files", { headers: { "x-csrf-token": csrf }, data: { url: `${media!.url}/${path.basename(file)}`, title, tokenId, captureMode: "detectFrequency", captureValue: 1, imgTypes, audioTypes: ["NONE"], returnAllImg: false, returnAllAudio: false } });
  expect(res.status(), await res.text()).toBe(200);
  const { btId } = (await res.json()) as { btId: string };
  let found: Listed[] = [];
  await expect
    .poll(async () => {
      found = ((await (await api.get(`/api/incidents?requestId=${btId}`)).json()) as { incidents: Listed[] }).incidents;
      return found.length;
    }, { timeout: 120_000 })
    .toBe(1);
  return found[0];
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const state = JSON.parse(await fs.readFile(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  csrf = decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
  api = await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE });
  const qrOnly = await makeVideo({ name: "context-qr-only", durationSec: 3, width: 640, height: 360, audio: "none", background: "gray", qr: { text: "https://spam.example/context", fromSec: 0, toSec: 3 } });
  const qrThenAd = await makeVideo({ name: "context-qr-then-ad", durationSec: 7, width: 640, height: 360, audio: "none", background: "gray", qr: { text: "https://spam.example/context-peak", fromSec: 0, toSec: 3 }, text: { content: "Add WeChat: maifen888", fromSec: 4, toSec: 7 } });
  media = await startStaticServer(mediaDir());
  // the same user's earlier file (confirmed), another user's file (confirmed), then the file under review
  const earlier = await submit(qrOnly, USER, "context earlier upload", ["QRCODE"]);
  const other = await submit(qrOnly, OTHER, "context other user", ["QRCODE"]);
  for (const i of [earlier, other]) expect((await api.post(`/api/incidents/${i.id}/decision`, { headers: { "x-csrf-token": csrf }, data: { decision: "confirmed", note: "e2e context" } })).status()).toBe(200);
  const current = await submit(qrThenAd, USER, "context current upload", ["QRCODE", "ADVERT"]);
  Object.assign(ids, { earlier: earlier.id, other: other.id, current: current.id });
});

test.afterAll(async () => {
  await api?.dispose();
  await media?.close();
});

test("the REJECT incident's peak is its ad-text frame; the API names the context", async () => {
  const res = await api.get(`/api/incidents/${ids.current}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { incident: Listed & { hitList: Array<{ riskLevel: string; score: number }> }; context: { sameSource: unknown[]; sameUser: Array<{ type: string; id?: string; title?: string; status?: string }>; tokenId: string } };
  expect(body.incident.riskLevel).toBe("REJECT");
  expect(body.incident.peak.riskLevel).toBe("REJECT");
  expect(body.incident.peak.evidence.qr).toEqual([]);
  expect(body.incident.peak.evidence.words.map((w) => w.word).join(" ")).toMatch(/maifen888/i);
  expect(body.incident.hitList.some((h) => h.riskLevel === "REVIEW")).toBe(true);
  expect(body.context.tokenId).toBe(USER);
  expect(body.context.sameSource).toEqual([]);
  expect(body.context.sameUser.map((x) => [x.type, x.title ?? x.id, x.status])).toEqual([
    ["file", "context earlier upload", "done"],
    ["incident", ids.earlier, "confirmed"],
  ]);
  expect(JSON.stringify(body.context)).not.toContain(OTHER);
  expect(JSON.stringify(body.context)).not.toContain(ids.other);
});

for (const [name, viewport] of [["phone", { width: 390, height: 844 }], ["desktop", { width: 1366, height: 900 }]] as const) {
  test(`the detail shows the ad-text peak and the end user's history beside the decision (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`/review?id=${ids.current}&status=all`);
    const detail = page.getByTestId("incident-detail");
    await expect(detail).toHaveAttribute("data-id", ids.current);
    await expect(detail.getByText(/Peak frame at .* · REJECT/)).toBeVisible();
    await expect(detail.getByTestId("evidence-word").first()).toContainText(/maifen888/i);
    await expect(detail.getByTestId("evidence-qr")).toHaveCount(0);
    const ctx = detail.getByTestId("incident-context");
    await expect(ctx.getByTestId("context-token")).toHaveText(USER);
    await expect(ctx.getByTestId("context-same-source-headline")).toHaveText("no other incidents");
    await expect(ctx.getByTestId("context-same-user-headline")).toHaveText("0 other streams, 1 file · 1 earlier incident, 1 confirmed");
    await expect(ctx.getByTestId("context-source")).toHaveCount(1);
    await expect(ctx.getByRole("link", { name: "context earlier upload" })).toBeVisible();
    const earlier = ctx.locator(`[data-testid="context-incident"][data-id="${ids.earlier}"]`);
    await expect(earlier).toContainText("Confirmed violation by admin — e2e context");
    await expect(ctx).not.toContainText("context other user");
    await expect(ctx.getByRole("button").or(ctx.locator("details"))).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await ctx.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `.test-results/incident-context-${name}.png`, fullPage: true });
    // the history's link opens that incident in the review queue
    await earlier.getByRole("link").click();
    await expect(detail).toHaveAttribute("data-id", ids.earlier);
  });
}
