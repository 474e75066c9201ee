// Issue #11.3/#11.4: a real file with five QR windows (more than INCIDENT_GAP_SEC apart) submitted as the supervisor
// becomes five incidents; a reviewer lands on the review queue after sign-in and works through them with the
// keyboard alone (j/k, a, c, x, e, Enter), takes a bulk decision on the rest, and exports an evidence zip.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import QRCode from "qrcode";
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { mediaDir, startStaticServer } from "../support/media";
import { readZip } from "../support/zip";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const QR = "https://spam.example/review-queue";
const WINDOWS: Array<[number, number]> = [[1, 5], [15, 19], [29, 33], [43, 47], [57, 61]];
const REVIEWER = { username: "reviewer-e2e", password: "reviewer-e2e-password" };

let media: { url: string; close: () => Promise<void> } | undefined;
let btId = "";

/** Grey 64 s clip with the QR code shown in each window (cached in tests/.media). */
async function qrWindowsVideo(): Promise<string> {
  const file = path.join(mediaDir(), "review-qr-windows-v1.mp4");
  if (existsSync(file)) return file;
  const png = path.join(mediaDir(), "review-qr.png");
  await QRCode.toFile(png, QR, { width: 216, margin: 2 });
  const enable = WINDOWS.map(([a, b]) => `between(t,${a},${b})`).join("+");
  const tmp = `${file}.part.mp4`;
  await runFfmpeg(["-f", "lavfi", "-i", "color=c=gray:size=640x360:rate=10:duration=64", "-i", png, "-filter_complex", `[0:v][1:v]overlay=x=(W-w)/2:y=(H-h)/2:enable='${enable}'[v]`, "-map", "[v]", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-t", "64", "-y", tmp], { timeoutMs: 120_000 });
  await fs.rename(tmp, file);
  await fs.rm(png, { force: true });
  return file;
}

async function supervisorApi(): Promise<{ api: APIRequestContext; csrf: string }> {
  const state = JSON.parse(await fs.readFile(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  return { api: await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE }), csrf: decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "") };
}

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const file = await qrWindowsVideo();
  media = await startStaticServer(mediaDir());
  const { api, csrf } = await supervisorApi();
  const res = await api.post("/api/files", {
    headers: { "x-csrf-token": csrf },
    data: { url: `${media.url}/${path.basename(file)}`, title: "five QR windows", captureMode: "detectFrequency", captureValue: 2, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllAudio: false },
  });
  expect(res.status(), await res.text()).toBe(200);
  btId = ((await res.json()) as { btId: string }).btId;
  // a reviewer account with its own password (the one-time one replaced through the API)
  const created = await api.post("/api/users", { headers: { "x-csrf-token": csrf }, data: { username: REVIEWER.username, role: "reviewer" } });
  expect(created.status(), await created.text()).toBe(201);
  const oneTime = ((await created.json()) as { password: string }).password;
  const rev = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  expect((await rev.post("/api/auth/signin", { data: { username: REVIEWER.username, password: oneTime } })).status()).toBe(200);
  const revCsrf = decodeURIComponent((await rev.storageState()).cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
  expect((await rev.post("/api/auth/password", { headers: { "x-csrf-token": revCsrf }, data: { current: oneTime, next: REVIEWER.password } })).status()).toBe(200);
  await rev.dispose();
  // the file's incidents exist once its result has been received
  await expect.poll(async () => ((await (await api.get(`/api/incidents?requestId=${btId}`)).json()) as { incidents: unknown[] }).incidents.length, { timeout: 120_000 }).toBe(WINDOWS.length);
  await api.dispose();
});

test.afterAll(async () => {
  await media?.close();
});

const rows = (page: Page) => page.getByTestId("incident-row");
const currentRow = (page: Page) => page.locator('[data-testid="incident-row"][aria-selected="true"]');

test.describe("the review queue", () => {
  test.describe.configure({ mode: "serial" });
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a reviewer lands on it, triages with the keyboard alone, takes a bulk decision and exports the evidence", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto("/signin");
    await page.getByLabel("Username").fill(REVIEWER.username);
    await page.getByLabel("Password").fill(REVIEWER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/review$/);
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");

    // only this file's incidents: newest first, in the order they happen in the file
    const source = page.getByLabel("Source id");
    await source.fill(btId);
    await source.blur();
    await expect(rows(page)).toHaveCount(5);
    const ids = await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-id")!));
    const detail = page.getByTestId("incident-detail");
    await expect(detail).toHaveAttribute("data-id", ids[0]);
    await expect(detail.getByTestId("incident-peak-image")).toBeVisible();
    await expect.poll(() => detail.getByTestId("incident-peak-image").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect(detail.getByTestId("evidence-qr")).toContainText(QR);
    await expect(detail.getByTestId("incident-labels")).toHaveText("Advertising: QR code");

    // j/k move; a assigns to me; c confirms (the next one becomes current); x clears; e escalates
    await page.keyboard.press("j");
    await expect(currentRow(page)).toHaveAttribute("data-id", ids[1]);
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    await page.keyboard.press("k");
    await expect(currentRow(page)).toHaveAttribute("data-id", ids[0]);
    await page.keyboard.press("a");
    await expect(currentRow(page).getByTestId("incident-assignee")).toHaveText(`assigned to ${REVIEWER.username}`);
    await page.keyboard.press("c");
    await expect(rows(page)).toHaveCount(4);
    await expect(currentRow(page)).toHaveAttribute("data-id", ids[1]);
    await page.keyboard.press("x");
    await expect(rows(page)).toHaveCount(3);
    await expect(currentRow(page)).toHaveAttribute("data-id", ids[2]);
    await page.keyboard.press("e");
    await expect(rows(page)).toHaveCount(2);

    // the other two at once, with a note
    for (const id of ids.slice(3)) await page.locator(`[data-testid="incident-row"][data-id="${id}"]`).getByTestId("incident-check").check();
    const bulk = page.getByTestId("bulk-bar");
    await bulk.getByLabel("Bulk note").fill("same QR spam");
    await bulk.getByRole("button", { name: "Cleared" }).click();
    await expect(page.getByTestId("incidents-empty")).toBeVisible();

    // decisions are shown with every incident: who decided what
    await page.getByLabel("Status").selectOption("all");
    await expect(rows(page)).toHaveCount(5);
    const want = ["confirmed", "cleared", "escalated", "cleared", "cleared"];
    for (const [n, id] of ids.entries()) {
      const row = page.locator(`[data-testid="incident-row"][data-id="${id}"]`);
      await expect(row).toHaveAttribute("data-status", want[n]);
      await expect(row.getByTestId("incident-decision")).toHaveAttribute("data-decision", want[n]);
      await expect(row.getByTestId("incident-decision")).toContainText(`by ${REVIEWER.username}`);
    }
    await expect(page.locator(`[data-testid="incident-row"][data-id="${ids[4]}"]`)).toContainText("same QR spam");

    // the evidence zip of the first: its frames as JPEGs and incident.json with bodies and decisions
    await page.locator(`[data-testid="incident-row"][data-id="${ids[0]}"]`).click();
    await expect(detail).toHaveAttribute("data-id", ids[0]);
    await expect(detail.getByTestId("incident-decisions")).toContainText("Confirmed violation");
    const [download] = await Promise.all([page.waitForEvent("download"), detail.getByTestId("incident-export").click()]);
    const zip = readZip(await fs.readFile((await download.path())!));
    const frames = [...zip.keys()].filter((n) => n.startsWith("frames/") && n.endsWith(".jpg"));
    const doc = JSON.parse(zip.get("incident.json")!.toString("utf8"));
    expect(frames.length).toBe(doc.incident.hits);
    expect(frames.length).toBeGreaterThanOrEqual(1);
    for (const f of frames) expect([...zip.get(f)!.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(doc.incident.id).toBe(ids[0]);
    expect(doc.hits[0].resultBody.riskDetail.objects[0].qrContent).toBe(QR);
    expect(doc.decisions.map((d: { decision: string; username: string }) => [d.decision, d.username])).toEqual([["confirmed", REVIEWER.username]]);

    // Enter opens the source: the file's result page
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/files/${btId}$`));
  });

  test("decisions are audited; a moderator may read incidents but not decide", async () => {
    const { api } = await supervisorApi();
    const audit = (await (await api.get("/api/audit?action=incident.decision")).json()) as { entries: Array<{ username: string; outcome: string; target: string }> };
    expect(audit.entries.filter((e) => e.username === REVIEWER.username && e.outcome === "ok").length).toBeGreaterThanOrEqual(4);
    const [first] = ((await (await api.get(`/api/incidents?requestId=${btId}`)).json()) as { incidents: Array<{ id: string }> }).incidents;
    const csv = await api.get(`/api/incidents.csv?requestId=${btId}&status=all`);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect((await csv.text()).trim().split("\r\n")).toHaveLength(WINDOWS.length + 1);
    // a reviewer-only action without the role is refused by the server
    const { csrf } = await supervisorApi();
    const mod = await api.post("/api/users", { headers: { "x-csrf-token": csrf }, data: { username: "mod-review-e2e", role: "moderator" } });
    const modPassword = ((await mod.json()) as { password: string }).password;
    const ctx = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    await ctx.post("/api/auth/signin", { data: { username: "mod-review-e2e", password: modPassword } });
    const modCsrf = decodeURIComponent((await ctx.storageState()).cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
    await ctx.post("/api/auth/password", { headers: { "x-csrf-token": modCsrf }, data: { current: modPassword, next: "moderator-review-e2e" } });
    expect((await ctx.get(`/api/incidents/${first.id}`)).status()).toBe(200);
    expect((await ctx.post(`/api/incidents/${first.id}/decision`, { headers: { "x-csrf-token": modCsrf }, data: { decision: "cleared" } })).status()).toBe(403);
    await ctx.dispose();
    await api.dispose();
  });
});
