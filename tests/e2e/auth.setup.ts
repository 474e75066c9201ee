// Runs before the dashboard specs: signs the first supervisor in once and keeps the cookies for them.
import { expect, test as setup } from "@playwright/test";
import { SUPERVISOR, SUPERVISOR_STATE } from "./credentials";

setup("sign in as the first supervisor", async ({ request }) => {
  const res = await request.post("/api/auth/signin", { data: SUPERVISOR });
  expect(res.status()).toBe(200);
  await request.storageState({ path: SUPERVISOR_STATE });
});
