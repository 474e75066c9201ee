// A second production server for specs that need their own settings or data (tests/e2e/start-server.ts as a child
// on free ports and a fresh data dir), so the shared server keeps its defaults.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { expect } from "@playwright/test";

export interface SecondServer {
  proc: ChildProcess;
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Starts the server with `env` on top of the test's environment and waits for /api/health. */
export async function startSecondServer(env: Record<string, string>): Promise<SecondServer> {
  const [port, rtmp, flv] = [await freePort(), await freePort(), await freePort()];
  const all = { ...process.env, E2E_PORT: String(port), E2E_RTMP_PORT: String(rtmp), E2E_RTMP_HTTP_PORT: String(flv), AUTO_INSTALL_PACKAGES: "0", ...env };
  const proc = spawn(process.execPath, ["--import", "tsx", "tests/e2e/start-server.ts"], { env: all, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (b: Buffer) => void (out += b.toString()));
  proc.stderr!.on("data", (b: Buffer) => void (out += b.toString()));
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (proc.exitCode !== null ? `exited: ${out.slice(-1500)}` : await fetch(`${url}/api/health`).then((r) => r.status).catch(() => 0)), { timeout: 120_000, intervals: [250] })
    .toBe(200);
  const stop = async () => {
    if (proc.exitCode !== null) return;
    const gone = new Promise<void>((r) => proc.once("exit", () => r()));
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
    await gone;
    clearTimeout(timer);
  };
  return { proc, url, output: () => out, stop };
}
