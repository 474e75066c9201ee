import fs from "node:fs";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { io } from "socket.io-client";
import { SUPERVISOR_STATE } from "./credentials";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;

/** The supervisor's API context (cookies from the setup project) plus its CSRF token for writes. */
async function supervisorApi(): Promise<{ api: APIRequestContext; csrf: string }> {
  const state = JSON.parse(fs.readFileSync(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  const csrf = decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
  return { api: await playwrightRequest.newContext({ baseURL, storageState: SUPERVISOR_STATE }), csrf };
}

async function createUser(username: string, role: string): Promise<string> {
  const { api, csrf } = await supervisorApi();
  const res = await api.post("/api/users", { data: { username, role }, headers: { "x-csrf-token": csrf } });
  expect(res.status()).toBe(201);
  const body = (await res.json()) as { password: string };
  await api.dispose();
  return body.password;
}

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("pages send you to sign-in; a moderator replaces the one-time password and sees only what the role allows", async ({ page }) => {
    const oneTime = await createUser("mod-e2e", "moderator");
    await page.goto("/streams");
    await expect(page).toHaveURL(/\/signin\?next=%2Fstreams$/);

    await page.getByLabel("Username").fill("mod-e2e");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("signin-form").getByRole("alert")).toContainText("wrong username or password");

    await page.getByLabel("Password").fill(oneTime);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await page.getByLabel("Current password").fill(oneTime);
    await page.getByLabel("New password (10+ characters)").fill("moderator-e2e-pass");
    await page.getByLabel("New password again").fill("moderator-e2e-pass");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page).toHaveURL(/\/streams$/);

    await expect(page.getByTestId("user-role")).toHaveText("moderator");
    await page.getByTestId("new-stream").click(); // moderators may start streams: the form opens from New stream
    await expect(page.getByRole("heading", { name: "Start a stream" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
    // no Close on any stream for a moderator (the drawer's own close button aside)
    await expect(page.getByTestId("stream-card").getByRole("button", { name: /^Close/ })).toHaveCount(0);
    const denied = await page.goto("/users");
    expect(denied?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();

    // the server, not the UI, enforces the role: Close straight at the API is refused
    const csrf = (await page.context().cookies()).find((c) => c.name === "mp_csrf")?.value ?? "";
    const close = await page.request.post("/api/streams/0123456789abcdef0123456789abcdef/close", { headers: { "x-csrf-token": decodeURIComponent(csrf) } });
    expect(close.status()).toBe(403);

    await page.goto("/streams");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);
    expect((await page.request.get("/api/streams")).status()).toBe(401);
  });

  test("live updates need a session", async () => {
    const socket = io(baseURL, { transports: ["websocket"], reconnection: false });
    const err = await new Promise<Error>((resolve) => socket.on("connect_error", resolve));
    socket.close();
    // refused at the engine.io handshake (allowRequest): the websocket upgrade itself is answered 403
    expect(err.message).toBe("websocket error");
    expect(socket.connected).toBe(false);
    const polling = io(baseURL, { transports: ["polling"], reconnection: false });
    const refused = await new Promise<Error & { context?: { status?: number } }>((resolve) => polling.on("connect_error", resolve));
    polling.close();
    expect(refused.message).toBe("xhr poll error");
  });
});

test("a reviewer records decisions but cannot submit files", async ({ browser }) => {
  const oneTime = await createUser("rev-e2e", "reviewer");
  const api = await playwrightRequest.newContext({ baseURL });
  expect((await api.post("/api/auth/signin", { data: { username: "rev-e2e", password: oneTime } })).status()).toBe(200);
  const csrf = decodeURIComponent((await api.storageState()).cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
  expect((await api.post("/api/auth/password", { data: { current: oneTime, next: "reviewer-e2e-pass" }, headers: { "x-csrf-token": csrf } })).status()).toBe(200);
  const files = await api.post("/api/files", { data: { url: "https://example.com/a.mp4" }, headers: { "x-csrf-token": csrf } });
  expect(files.status()).toBe(403);
  const review = await api.post("/api/reviews", { data: { targetKind: "stream", targetId: "0123456789abcdef0123456789abcdef", decision: "escalated", note: "needs a second look" }, headers: { "x-csrf-token": csrf } });
  expect(review.status()).toBe(201);

  const context = await browser.newContext({ storageState: await api.storageState() });
  const page = await context.newPage();
  await page.goto("/files");
  await expect(page.getByTestId("user-role")).toHaveText("reviewer");
  await expect(page.getByRole("heading", { name: "Submit a video file" })).toHaveCount(0);
  await context.close();
  await api.dispose();
});

test("supervisors manage accounts and read the audit log; pages run under a strict CSP", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto("/users");
  expect(res?.headers()["content-security-policy"]).toMatch(/frame-ancestors 'none'.*|.*'nonce-/);
  expect(res?.headers()["x-frame-options"]).toBe("DENY");

  const form = page.getByTestId("user-create");
  await form.getByLabel("Username", { exact: true }).fill("mod-made-in-ui");
  await form.getByLabel("Role", { exact: true }).selectOption("moderator");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(page.getByTestId("one-time-password")).toHaveText(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
  const row = page.locator('[data-testid="user-row"][data-username="mod-made-in-ui"]');
  await expect(row).toContainText("one-time password pending");
  // a role change asks first: dismissed, nothing changes; accepted, it applies
  page.once("dialog", (d) => void d.dismiss());
  await row.getByRole("combobox").selectOption("reviewer");
  await expect(row.getByRole("combobox")).toHaveValue("moderator");
  await expect(page.getByTestId("user-changed")).not.toContainText("role reviewer");
  page.once("dialog", (d) => {
    expect(d.message()).toContain("from moderator to reviewer");
    void d.accept();
  });
  await row.getByRole("combobox").selectOption("reviewer");
  await expect(page.getByTestId("user-changed")).toContainText("role reviewer");

  await page.goto("/audit");
  const table = page.getByTestId("audit-table");
  await expect(table.locator('[data-action="user.change"]').first()).toBeVisible();
  await expect(table.locator('[data-action="auth.signin"]').first()).toBeVisible();
  await expect(table).toContainText("mod-made-in-ui");

  for (const p of ["/streams", "/files", "/lists", "/capabilities"]) {
    await page.goto(p);
    await expect(page.getByTestId("user-name")).toHaveText("admin");
  }
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");
  expect(violations).toEqual([]);
});

test("on a 390 px phone the header folds behind a Menu button and no main page scrolls sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = page.getByRole("button", { name: "Menu" });
  for (const path of ["/streams", "/files", "/review", "/lists", "/policy", "/capabilities", "/status", "/users", "/audit"]) {
    await page.goto(path);
    // hydrated and connected (the indicator sits in the folded menu)
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");
    await expect(menu).toBeVisible();
    await expect(nav).toBeHidden();
    // what sticks out, named in the failure (an element past the edge whose parent is not)
    const wider = () =>
      page.evaluate(() => {
        const clipped = (e: Element) => {
          for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return true;
          return false;
        };
        const out = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > 391 && (e.parentElement?.getBoundingClientRect().right ?? 0) <= 391 && !clipped(e));
        return [document.documentElement.scrollWidth, ...out.slice(0, 3).map((e) => `${e.tagName.toLowerCase()}.${e.className}`.slice(0, 80))];
      });
    await expect.poll(wider, { message: `${path} is no wider than the phone` }).toEqual([390]);
  }
  await menu.click();
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
  for (const link of await nav.getByRole("link").all()) {
    const box = (await link.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await nav.getByRole("link", { name: "Review" }).click();
  await expect(page).toHaveURL(/\/review/);
  await expect(nav).toBeHidden();
});

test("Skip to content is the first Tab stop and takes the keyboard past the header", async ({ page }) => {
  await page.goto("/streams");
  await expect(page.getByTestId("new-stream")).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  // the next stop is the page's own first control, inside the one main landmark
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest("main#content")))).toBe(true);
  await expect(page.getByRole("main")).toHaveCount(1);
});
