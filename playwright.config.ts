import { defineConfig } from "@playwright/test";
import { SUPERVISOR_STATE } from "./tests/e2e/credentials";

const port = Number(process.env.E2E_PORT ?? 3100);

// Runs against the production build (`npm run build` first) served by the real custom server.
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // tests/run.mjs reads the JSON report to print the closing "N passed, N failed" line
  reporter: [["list"], ["json", { outputFile: ".test-results/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  // the dashboard needs a session: "setup" signs the supervisor in, every spec starts with its cookies
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts$/ },
    { name: "dashboard", dependencies: ["setup"], use: { storageState: SUPERVISOR_STATE } },
  ],
  webServer: {
    command: "node --import tsx tests/e2e/start-server.ts",
    url: `http://127.0.0.1:${port}/api/health`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    // SIGTERM lets the server close its store and the script remove its temp data dir.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
