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

/**
 * Free ports for a run that needs pairs (`p` and `p + 1`: `npm run cluster` gives its second node and worker the
 * next port) and single ports: every one (each pair's second port too) is held until all are chosen, so none is
 * handed out twice or falls inside another's pair.
 */
export async function reservePorts(pairs: number, singles: number): Promise<{ pairs: number[]; singles: number[] }> {
  const held: net.Server[] = [];
  const hold = (port: number) =>
    new Promise<number | null>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(null));
      srv.listen(port, "0.0.0.0", () => {
        held.push(srv);
        resolve((srv.address() as net.AddressInfo).port);
      });
    });
  try {
    const out = { pairs: [] as number[], singles: [] as number[] };
    for (let tries = 0; out.pairs.length < pairs; tries++) {
      if (tries > 50) throw new Error("no two consecutive free ports");
      const first = await hold(0);
      if (first !== null && first < 65535 && (await hold(first + 1)) !== null) out.pairs.push(first);
    }
    for (let i = 0; i < singles; i++) out.singles.push((await hold(0))!);
    return out;
  } finally {
    await Promise.all(held.map((srv) => new Promise<void>((r) => srv.close(() => r()))));
  }
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
