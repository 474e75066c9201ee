// A private Redis for tests that must stop and start it (never the machine's shared one): `redis-server --port <free>
// --save ''` as a child process with an append-only file in a temp folder; stop kills it (-9, as a crashed Redis),
// start brings it back on the same port with its data, or empty (the file removed: a failover without persistence).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./child-server";
import { waitFor } from "./net";

/** false when redis-server is on PATH, else the reason to skip */
export const privateRedisSkip: false | string = spawnSync("redis-server", ["--version"]).status === 0 ? false : "no redis-server binary on this machine";

export interface PrivateRedis {
  url: string;
  /** SIGKILL (as a crash); resolves once it is gone */
  stop(): Promise<void>;
  /** starts it again on the same port (with its data, or `empty`); resolves once it answers PING */
  start(o?: { empty?: boolean }): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "private-redis-"));
  let child: ChildProcess | null = null;
  const ping = () => spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout?.trim() === "PONG";
  const data = path.join(dir, "data");
  const start = async (o: { empty?: boolean } = {}) => {
    if (o.empty) rmSync(data, { recursive: true, force: true });
    mkdirSync(data, { recursive: true });
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", data], { stdio: "ignore" });
    await waitFor(async () => ping(), 15_000, 50);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((r) => c.once("exit", r));
    c.kill("SIGKILL");
    await gone;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
