// A private Redis for tests that must stop and start it (never the machine's shared one): `redis-server --port <free>
// --save ''` as a child process; stop kills it (-9, as a crashed Redis), start brings it back on the same port,
// empty (`--save ''`) unless `keepData` (then `--appendonly yes` in a temp folder: restarted with its data).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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
  /** starts it again on the same port; resolves once it answers PING */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(o: { keepData?: boolean } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "private-redis-"));
  let child: ChildProcess | null = null;
  const ping = () => spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout?.trim() === "PONG";
  const start = async () => {
    const persist = o.keepData ? ["--appendonly", "yes", "--appendfsync", "always", "--dir", dir] : ["--appendonly", "no"];
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persist], { stdio: "ignore" });
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
