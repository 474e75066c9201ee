// Issue #11.3/#11.4/#11.10: a real file with 25 QR windows (more than INCIDENT_GAP_SEC apart) submitted as the
// supervisor becomes 25 incidents; a reviewer lands on the review queue after sign-in, works through 20 of them with
// the keyboard alone (j/k, a, c, x, e, Enter), takes a bulk decision on the other 5, exports an evidence zip and the
// filtered list as CSV; the file's result page shows every incident with its decision.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import QRCode from "qrcode";
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { mediaDir, startStaticServer } from "../support/media";
import { readZip } from "../support/zip";
import { formatMediaTime } from "../../components/ui/format";
import { incidentTime } from "../../lib/incidents";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const QR = "https://spam.example/review-queue";
/** QR code shown 1–5 s into every 14 s: frames every 2 s hit at +2 and +4, 12 s from the next window's first hit */
const PERIOD = 14;
const WINDOWS: Array<[number, number]> = Array.from({ length: 25 }, (_, k) => [k * PERIOD + 1, k * PERIOD + 5]);
const DURATION = WINDOWS.length * PERIOD;
const KEYBOARD = 20;
const REVIEWER = { username: "reviewer-e2e", password: "reviewer-e2e-password" };

let media: { url: string; close: () => Promise<void> } | undefined;
let btId = "";

/** Grey clip (5 fps, so it is cheap to make and to read) with the QR code shown in each window (cached in tests/.media). */
async function qrWindowsVideo(): Promise<string> {
  const file = path.join(mediaDir(), `review-qr-windows-${WINDOWS.length}x${PERIOD}.mp4`);
  if (existsSync(file)) return file;
  const png = path.join(mediaDir(), "review-qr.png");
  await QRCode.toFile(png, QR, { width: 216, margin: 2 });
  const enable = WINDOWS.map(([a, b]) => `between(t,${a},${b})`).join("+");
  const tmp = `${file}.part.mp4`;
  await runFfmpeg(["-f", "lavfi", "-i", `color=c=gray:size=640x360:rate=5:duration=${DURATION}`, "-i", png, "-filter_complex", `[0:v][1:v]overlay=x=(W-w)/2:y=(H-h)/2:enable='${enable}'[v]`, "-map", "[v]", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-t", String(DURATION), "-y", tmp], { timeoutMs: 120_000 });
  await fs.rename(tmp, file);
  await fs.rm(png, { force: true });
  return file;
}

async function supervisorApi(): Promise<{ api: APIRequestContext; csrf: string }> {
  const state = JSON.parse(await fs.readFile(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  return { api: await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE }), csrf: decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "") };
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const file = await qrWindowsVideo();
  media = await startStaticServer(mediaDir());
  const { api, csrf } = await supervisorApi();
  const res = await api.post("/api/files", {
    headers: { "x-csrf-token": csrf },
    data: { url: `${media.url}/${path.basename(file)}`, title: "25 QR windows", captureMode: "detectFrequency", captureValue: 2, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllAudio: false },
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
  await expect.poll(async () => ((await (await api.get(`/api/incidents?requestId=${btId}`)).json()) as { incidents: unknown[] }).incidents.length, { timeout: 180_000 }).toBe(WINDOWS.length);
  await api.dispose();
});

test.afterAll(async () => {
  await media?.close();
});

const rows = (page: Page) => page.getByTestId("incident-row");
const blurAll = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
const currentRow = (page: Page) => page.locator('[data-testid="incident-row"][aria-selected="true"]');

test.describe("the review queue", () => {
  test.describe.configure({ mode: "serial" });
  test.use({ storageState: { cookies: [], origins: [] } });

  let ids: string[] = [];
  const row = (page: Page, id: string) => page.locator(`[data-testid="incident-row"][data-id="${id}"]`);

  async function signInAsReviewer(page: Page) {
    await page.goto("/signin");
    await page.getByLabel("Username").fill(REVIEWER.username);
    await page.getByLabel("Password").fill(REVIEWER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/review(\?.*)?$/);
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");
    // only this file's incidents: newest first, in the order they happen in the file
    const source = page.getByLabel("Source id");
    await source.fill(btId);
    await source.blur();
  }

  test("a reviewer works through 20 incidents with the keyboard alone: each decision stored with who and when, the list advances", async ({ page }) => {
    test.setTimeout(180_000);
    const since = Date.now();
    await signInAsReviewer(page);
    await expect(rows(page)).toHaveCount(WINDOWS.length);
    ids = await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-id")!));
    const detail = page.getByTestId("incident-detail");
    await expect(detail).toHaveAttribute("data-id", ids[0]);
    await expect(detail.getByTestId("incident-peak-image")).toBeVisible();
    await expect.poll(() => detail.getByTestId("incident-peak-image").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect(detail.getByTestId("evidence-qr")).toContainText(QR);
    await expect(detail.getByTestId("incident-labels")).toHaveText("Advertising: QR code");
    // nothing but the keyboard from here (no field holds the focus)
    await blurAll(page);
    const ready = () => expect(detail.getByRole("button", { name: /^Confirmed violation/ })).toBeEnabled();

    const keys = ["c", "x", "e"] as const;
    const want: Record<string, string> = {};
    for (let n = 0; n < KEYBOARD; n++) {
      await expect(currentRow(page)).toHaveAttribute("data-id", ids[n]);
      await expect(detail).toHaveAttribute("data-id", ids[n]);
      if (n % 4 === 1) {
        // j/k move without deciding: next, next, back, back
        await page.keyboard.press("j");
        await expect(currentRow(page)).toHaveAttribute("data-id", ids[n + 1]);
        await expect(detail).toHaveAttribute("data-id", ids[n + 1]);
        await page.keyboard.press("j");
        await expect(currentRow(page)).toHaveAttribute("data-id", ids[n + 2]);
        await page.keyboard.press("k");
        await page.keyboard.press("k");
        await expect(currentRow(page)).toHaveAttribute("data-id", ids[n]);
      }
      if (n % 5 === 0) {
        await ready();
        await page.keyboard.press("a");
        await expect(currentRow(page).getByTestId("incident-assignee")).toHaveText(`assigned to ${REVIEWER.username}`);
      }
      await ready();
      const key = keys[n % keys.length];
      want[ids[n]] = { c: "confirmed", x: "cleared", e: "escalated" }[key];
      await page.keyboard.press(key);
      // decided away: the open list shrinks by one and the next incident becomes current
      await expect(rows(page)).toHaveCount(WINDOWS.length - n - 1);
      await expect(row(page, ids[n])).toHaveCount(0);
      await expect(currentRow(page)).toHaveAttribute("data-id", ids[n + 1]);
    }
    await expect(page.getByTestId("incident-count")).toHaveText(`${WINDOWS.length - KEYBOARD} incidents`);

    // stored on the server: who decided what, and when
    const { api } = await supervisorApi();
    for (const id of ids.slice(0, KEYBOARD)) {
      const { incident } = (await (await api.get(`/api/incidents/${id}`)).json()) as { incident: { status: string; decisions: Array<{ decision: string; username: string; at: string }>; assignee: string | null } };
      expect(incident.status).toBe(want[id]);
      expect(incident.decisions).toHaveLength(1);
      expect(incident.decisions[0].decision).toBe(want[id]);
      expect(incident.decisions[0].username).toBe(REVIEWER.username);
      expect(Date.parse(incident.decisions[0].at)).toBeGreaterThanOrEqual(since - 1000);
      expect(Date.parse(incident.decisions[0].at)).toBeLessThanOrEqual(Date.now());
    }
    for (const n of [0, 5, 10, 15]) {
      const { incident } = (await (await api.get(`/api/incidents/${ids[n]}`)).json()) as { incident: { assignee: string | null } };
      expect(incident.assignee).toBe(REVIEWER.username);
    }
    await api.dispose();

    // and on the page: with every status shown, each row carries its decision, by whom and when
    await page.getByLabel("Status").selectOption("all");
    await expect(rows(page)).toHaveCount(WINDOWS.length);
    for (const id of ids.slice(0, KEYBOARD)) {
      await expect(row(page, id)).toHaveAttribute("data-status", want[id]);
      await expect(row(page, id).getByTestId("incident-decision")).toHaveAttribute("data-decision", want[id]);
      await expect(row(page, id).getByTestId("incident-decision")).toContainText(new RegExp(`by ${REVIEWER.username}, .*\\d{1,2}:\\d{2}`));
    }
    await page.getByLabel("Status").selectOption("open");
    await expect(rows(page)).toHaveCount(WINDOWS.length - KEYBOARD);

    // Enter opens the source: the file's result page, which lists every incident with its decision
    await blurAll(page);
    await expect(currentRow(page)).toHaveAttribute("data-id", ids[KEYBOARD]);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/files/${btId}$`));
    const panel = page.getByTestId("file-incidents");
    await expect(panel).toHaveAttribute("data-count", String(WINDOWS.length));
    await expect(panel).toHaveAttribute("data-open", String(WINDOWS.length - KEYBOARD));
    for (const id of ids.slice(0, KEYBOARD)) {
      const item = panel.locator(`[data-testid="file-incident"][data-id="${id}"]`);
      await expect(item).toHaveAttribute("data-status", want[id]);
      await expect(item.getByTestId("incident-decision")).toContainText(`by ${REVIEWER.username}`);
    }
  });

  test("a bulk decision on 5 incidents, with one note; the file page and the queue show it", async ({ page, browser }) => {
    // a supervisor has the file's page open in another browser: the decisions reach it live
    const other = await browser.newContext({ storageState: SUPERVISOR_STATE });
    const filePage = await other.newPage();
    await filePage.goto(`/files/${btId}`);
    await expect(filePage.getByTestId("file-incidents")).toHaveAttribute("data-open", "5");
    await expect(filePage.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");
    await signInAsReviewer(page);
    const rest = ids.slice(KEYBOARD);
    expect(rest).toHaveLength(5);
    await expect(rows(page)).toHaveCount(rest.length);
    for (const id of rest) await row(page, id).getByTestId("incident-check").check();
    const bulk = page.getByTestId("bulk-bar");
    await expect(bulk).toContainText("5 selected");
    await bulk.getByLabel("Bulk note").fill("same QR spam");
    await bulk.getByRole("button", { name: "Escalated" }).click();
    await expect(page.getByTestId("incidents-empty")).toBeVisible();
    await expect(filePage.getByTestId("file-incidents")).toHaveAttribute("data-open", "0");
    await expect(filePage.locator(`[data-testid="file-incident"][data-id="${rest[0]}"] [data-testid="incident-decision"]`)).toContainText(`Escalated by ${REVIEWER.username}`);
    await other.close();

    const { api } = await supervisorApi();
    for (const id of rest) {
      const { incident } = (await (await api.get(`/api/incidents/${id}`)).json()) as { incident: { status: string; decisions: Array<{ decision: string; username: string; note: string | null }> } };
      expect(incident.status).toBe("escalated");
      expect(incident.decisions.map((d) => [d.decision, d.username, d.note])).toEqual([["escalated", REVIEWER.username, "same QR spam"]]);
    }
    await api.dispose();

    // the file's result page: nothing open, each incident with its decision and a link to it in the queue
    await page.goto(`/files/${btId}`);
    const panel = page.getByTestId("file-incidents");
    await expect(panel).toHaveAttribute("data-open", "0");
    const last = panel.locator(`[data-testid="file-incident"][data-id="${rest[4]}"]`);
    await expect(last).toHaveAttribute("data-status", "escalated");
    await expect(last.getByTestId("incident-decision")).toContainText(`Escalated by ${REVIEWER.username}`);
    await expect(last.getByTestId("incident-decision")).toContainText("same QR spam");
    await last.getByTestId("file-incident-review").click();
    await expect(page).toHaveURL(new RegExp(`/review\\?id=${rest[4]}$`));
    await expect(page.getByTestId("incident-detail")).toHaveAttribute("data-id", rest[4]);
    await expect(page.getByTestId("incident-detail").getByTestId("incident-decisions")).toContainText("same QR spam");
  });

  test("an export zip holds the incident's frames as JPEG and incident.json with the bodies and decisions", async ({ page }) => {
    await signInAsReviewer(page);
    await page.getByLabel("Status").selectOption("all");
    await expect(rows(page)).toHaveCount(WINDOWS.length);
    await row(page, ids[0]).click();
    const detail = page.getByTestId("incident-detail");
    await expect(detail).toHaveAttribute("data-id", ids[0]);
    await expect(detail.getByTestId("incident-decisions")).toContainText("Confirmed violation");
    const [download] = await Promise.all([page.waitForEvent("download"), detail.getByTestId("incident-export").click()]);
    const zip = readZip(await fs.readFile((await download.path())!));
    const frames = [...zip.keys()].filter((n) => n.startsWith("frames/") && n.endsWith(".jpg"));
    const doc = JSON.parse(zip.get("incident.json")!.toString("utf8"));
    expect(doc.incident.id).toBe(ids[0]);
    expect(doc.incident.hits).toBeGreaterThanOrEqual(1);
    expect(frames.length).toBe(doc.incident.hits);
    // real JPEGs: SOI marker, and the end-of-image marker last
    for (const f of frames) {
      const jpeg = zip.get(f)!;
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    }
    expect(doc.hits).toHaveLength(doc.incident.hits);
    for (const h of doc.hits) expect(h.resultBody.riskDetail.objects[0].qrContent).toBe(QR);
    expect(doc.decisions.map((d: { decision: string; username: string }) => [d.decision, d.username])).toEqual([["confirmed", REVIEWER.username]]);
  });

  test("the filtered list exports as CSV, with each decision; decisions are audited; a moderator may read incidents but not decide", async ({ page }) => {
    await signInAsReviewer(page);
    await page.getByLabel("Status").selectOption("escalated");
    const escalated = ids.filter((_, n) => (n < KEYBOARD ? n % 3 === 2 : true));
    await expect(rows(page)).toHaveCount(escalated.length);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("incidents-csv").click()]);
    const lines = (await fs.readFile((await download.path())!, "utf8")).trim().split("\r\n");
    const header = lines[0].split(",");
    expect(lines).toHaveLength(escalated.length + 1);
    const cells = lines.slice(1).map((l) => l.slice(1, -1).split('","'));
    const col = (name: string) => header.indexOf(name);
    expect(cells.map((c) => c[col("id")]).sort()).toEqual([...escalated].sort());
    for (const c of cells) {
      expect(c[col("status")]).toBe("escalated");
      expect(c[col("lastDecision")]).toBe("Escalated");
      expect(c[col("decidedBy")]).toBe(REVIEWER.username);
      expect(c[col("qrContent")]).toBe(QR);
      expect(c[col("link")]).toMatch(new RegExp(`/review\\?id=${c[col("id")]}$`));
    }

    const { api, csrf } = await supervisorApi();
    const audit = (await (await api.get("/api/audit?action=incident.decision")).json()) as { entries: Array<{ username: string; outcome: string; target: string }> };
    expect(audit.entries.filter((e) => e.username === REVIEWER.username && e.outcome === "ok").length).toBeGreaterThanOrEqual(KEYBOARD + 1);
    // a reviewer-only action without the role is refused by the server
    const mod = await api.post("/api/users", { headers: { "x-csrf-token": csrf }, data: { username: "mod-review-e2e", role: "moderator" } });
    const modPassword = ((await mod.json()) as { password: string }).password;
    const ctx = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    await ctx.post("/api/auth/signin", { data: { username: "mod-review-e2e", password: modPassword } });
    const modCsrf = decodeURIComponent((await ctx.storageState()).cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
    await ctx.post("/api/auth/password", { headers: { "x-csrf-token": modCsrf }, data: { current: modPassword, next: "moderator-review-e2e" } });
    expect((await ctx.get(`/api/incidents/${ids[0]}`)).status()).toBe(200);
    expect((await ctx.post(`/api/incidents/${ids[0]}/decision`, { headers: { "x-csrf-token": modCsrf }, data: { decision: "cleared" } })).status()).toBe(403);
    await ctx.dispose();
    await api.dispose();
  });

  test("filters, sort and the current incident live in the URL: after j, a reload and a shared link show the same", async ({ page, browser }) => {
    await signInAsReviewer(page);
    await page.getByLabel("Status").selectOption("escalated");
    await page.getByLabel("Sort").selectOption("worst");
    const escalated = ids.filter((_, n) => (n < KEYBOARD ? n % 3 === 2 : true));
    await expect(rows(page)).toHaveCount(escalated.length);
    await blurAll(page);
    // a filter or sort change starts at the top of the new list
    const first = await rows(page).nth(0).getAttribute("data-id");
    await expect(currentRow(page)).toHaveAttribute("data-id", first!);
    const second = await rows(page).nth(1).getAttribute("data-id");
    await page.keyboard.press("j");
    await expect(currentRow(page)).toHaveAttribute("data-id", second!);
    // replaced, not pushed: the URL names the incident now current
    await expect.poll(() => new URL(page.url()).searchParams.get("id")).toBe(second);
    const url = new URL(page.url());
    expect([url.searchParams.get("status"), url.searchParams.get("sort"), url.searchParams.get("requestId")]).toEqual(["escalated", "worst", btId]);
    // one main landmark on the page (the layout's), not one inside another
    await expect(page.getByRole("main")).toHaveCount(1);

    await page.reload();
    await expect(page.getByLabel("Status")).toHaveValue("escalated");
    await expect(page.getByLabel("Sort")).toHaveValue("worst");
    await expect(page.getByLabel("Source id")).toHaveValue(btId);
    await expect(rows(page)).toHaveCount(escalated.length);
    await expect(currentRow(page)).toHaveAttribute("data-id", second!);
    await expect(page.getByTestId("incident-detail")).toHaveAttribute("data-id", second!);

    const other = await browser.newContext({ storageState: SUPERVISOR_STATE });
    const shared = await other.newPage();
    await shared.goto(page.url());
    await expect(shared.getByLabel("Status")).toHaveValue("escalated");
    await expect(shared.getByTestId("incident-detail")).toHaveAttribute("data-id", second!);
    await other.close();
  });

  test("a frame confirmed in the file's lightbox decides the incident it is a hit of, with the same note and reviewer", async ({ page }) => {
    // cleared by the keyboard test (x); its peak frame is then confirmed on its own
    const target = ids[1];
    const { api } = await supervisorApi();
    type Stored = { status: string; timeBase: "offset"; peak: { t: number }; decisions: Array<{ decision: string; username: string; note: string | null; itemLabel?: string | null }> };
    const before = ((await (await api.get(`/api/incidents/${target}`)).json()) as { incident: Stored }).incident;
    expect(before.status).toBe("cleared");
    await signInAsReviewer(page);
    await page.goto(`/files/${btId}`);
    const when = formatMediaTime(before.peak.t);
    await page.getByRole("button", { name: `Open frame at ${when}` }).click();
    const dialog = page.getByRole("dialog", { name: `Frame at ${when}` });
    await expect(dialog).toBeVisible();
    const itemReview = dialog.getByTestId("item-review-panel");
    await itemReview.getByLabel("review note").fill("QR to scam site");
    await itemReview.getByRole("button", { name: "Confirm violation" }).click();
    const effect = itemReview.getByTestId("item-review-incident");
    await expect(effect).toHaveAttribute("data-decided", "true");
    const frameAt = `frame at ${incidentTime(before, before.peak.t)}`;
    await expect(effect).toContainText(`confirmed through its ${frameAt}`);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // the file's incidents (live) and its review list say what happened, in words
    const item = page.locator(`[data-testid="file-incident"][data-id="${target}"]`);
    await expect(item).toHaveAttribute("data-status", "confirmed");
    await expect(item.getByTestId("incident-decision")).toContainText(`Confirmed violation on its ${frameAt} by ${REVIEWER.username}`);
    await expect(item.getByTestId("incident-decision")).toContainText("QR to scam site");
    await expect(page.getByTestId("review-panel").getByTestId("review-entry-item").first()).toHaveText(`on frame at ${when}`);

    const after = ((await (await api.get(`/api/incidents/${target}`)).json()) as { incident: Stored }).incident;
    expect(after.status).toBe("confirmed");
    expect(after.decisions.map((d) => [d.decision, d.username, d.note, d.itemLabel ?? null])).toEqual([
      ["cleared", REVIEWER.username, null, null],
      ["confirmed", REVIEWER.username, "QR to scam site", frameAt],
    ]);
    await api.dispose();
  });
});
