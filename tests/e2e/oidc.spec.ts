// Issue 31 item 3: sign-in with the company's identity in Chromium. A real OpenID provider (npm oidc-provider, its
// own login and consent pages) runs in this spec; the dashboard is its own server started with OIDC_* pointing at it.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { startSecondServer, type SecondServer } from "./second-server";
import { IDP_CLIENT, startTestIdp, type TestIdp } from "../support/oidc-idp";

let idp: TestIdp | undefined;
let server: SecondServer | undefined;

test.describe.configure({ mode: "serial" });
// every test signs in from a fresh browser
test.use({ storageState: { cookies: [], origins: [] } });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  idp = await startTestIdp();
  server = await startSecondServer({
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: IDP_CLIENT.id,
    OIDC_CLIENT_SECRET: IDP_CLIENT.secret,
    OIDC_ROLE_MAP: "mod-team=moderator,reviewers=reviewer,t&s-leads=supervisor",
    OIDC_SCOPES: "openid profile email groups",
    OIDC_LABEL: "Corp SSO",
  });
  // the browser reaches the dashboard at a loopback address: the redirect URI is that origin's callback
  idp.register(`${server.url}/api/auth/oidc/callback`);
});

test.afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

/** At the provider's own pages: log in as `login`, then consent. */
async function atProvider(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${idp!.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await expect(page.getByRole("button", { name: "Continue" })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("the sign-in page offers the company sign-in and keeps the local form (break-glass)", async ({ page }) => {
  fs.mkdirSync(".test-results", { recursive: true });
  await page.goto(`${server!.url}/signin`);
  await expect(page.getByRole("link", { name: "Sign in with Corp SSO" })).toBeVisible();
  await expect(page.getByLabel("Username")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await page.screenshot({ path: ".test-results/oidc-signin.png" });
  await page.setViewportSize({ width: 390, height: 760 });
  await expect(page.getByRole("link", { name: "Sign in with Corp SSO" })).toBeInViewport();
  await page.screenshot({ path: ".test-results/oidc-signin-390.png" });
});

test("a moderator of the company signs in at the provider and lands on the page she wanted", async ({ page }) => {
  await page.goto(`${server!.url}/incidents`);
  await expect(page).toHaveURL(/\/signin\?next=%2Fincidents$/);
  await page.getByRole("link", { name: "Sign in with Corp SSO" }).click();
  await atProvider(page, "alice");
  await expect(page).toHaveURL(`${server!.url}/incidents`);
  await expect(page.getByTestId("user-name")).toHaveText("alice");
  await expect(page.getByTestId("user-role")).toHaveText("moderator");
  const cookies = await page.context().cookies(server!.url);
  expect(cookies.find((c) => c.name === "mp_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  expect(cookies.find((c) => c.name === "mp_oidc"), "the flow cookie is spent").toBeUndefined();
});

test("a reviewer-mapped user gets the reviewer role and cannot open /users", async ({ page }) => {
  await page.goto(`${server!.url}/signin`);
  await page.getByRole("link", { name: "Sign in with Corp SSO" }).click();
  await atProvider(page, "rita");
  await expect(page.getByTestId("user-role")).toHaveText("reviewer");
  const res = await page.goto(`${server!.url}/users`);
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
});

test("a lead of the company is a supervisor; the users page marks provider accounts and offers them no password reset", async ({ page }) => {
  await page.goto(`${server!.url}/signin?next=%2Fusers`);
  await page.getByRole("link", { name: "Sign in with Corp SSO" }).click();
  await atProvider(page, "sam");
  await expect(page).toHaveURL(`${server!.url}/users`);
  await expect(page.getByTestId("user-role")).toHaveText("supervisor");
  const alice = page.getByRole("row", { name: /alice/ });
  await expect(alice).toContainText("signs in with the identity provider");
  await expect(alice.getByRole("button", { name: "Reset password" })).toHaveCount(0);
  await expect(page.getByRole("row", { name: /admin/ }).getByRole("button", { name: "Reset password" })).toBeVisible();
});

test("a company account in no mapped group is refused with a clear message, and gets no session", async ({ page }) => {
  await page.goto(`${server!.url}/signin`);
  await page.getByRole("link", { name: "Sign in with Corp SSO" }).click();
  await atProvider(page, "mark");
  await expect(page).toHaveURL(`${server!.url}/signin?error=no-role`);
  await expect(page.getByTestId("oidc-error")).toContainText("not in a group that grants a role");
  await page.screenshot({ path: ".test-results/oidc-no-role.png" });
  expect((await page.context().cookies(server!.url)).find((c) => c.name === "mp_session")).toBeUndefined();
});
