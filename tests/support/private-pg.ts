// A private PostgreSQL cluster for tests that must stop and start their database (never the machine's shared one):
// initdb in a temp folder owned by the postgres user (initdb refuses root), pg_ctl on a free port, trust auth.
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const BIN = (() => {
  const root = "/usr/lib/postgresql";
  const v = existsSync(root) ? readdirSync(root).sort().pop() : undefined;
  return v ? path.join(root, v, "bin") : null;
})();

/** null when this machine has no PostgreSQL server binaries, else the reason to skip */
export const privatePgSkip: false | string = BIN && existsSync(path.join(BIN, "initdb")) ? false : "no PostgreSQL server binaries (initdb) on this machine";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface PrivatePg {
  url: string;
  stop(mode?: "fast" | "immediate"): void;
  start(): void;
  destroy(): void;
}

export async function startPrivatePg(): Promise<PrivatePg> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "private-pg-"));
  chmodSync(dir, 0o700);
  const port = await freePort();
  const asPg = (cmd: string, args: string[]) => {
    const root = process.getuid?.() === 0;
    if (root) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), Number(execFileSync("id", ["-g", "postgres"]).toString().trim()));
    return execFileSync(root ? "runuser" : path.join(BIN!, cmd), root ? ["-u", "postgres", "--", path.join(BIN!, cmd), ...args] : args, { stdio: "pipe" });
  };
  asPg("initdb", ["-D", path.join(dir, "data"), "-A", "trust", "-U", "postgres", "--no-sync"]);
  const start = () => void asPg("pg_ctl", ["-D", path.join(dir, "data"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "-l", path.join(dir, "log"), "-w", "start"]);
  const stop = (mode: "fast" | "immediate" = "fast") => void asPg("pg_ctl", ["-D", path.join(dir, "data"), "-m", mode, "-w", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: () => {
      try {
        stop("immediate");
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
