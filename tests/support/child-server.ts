// The real server (`node --import tsx server/main.ts`, SERVICE_ONLY=1: no Next) as a child process,
// so a test can kill -9 it and start it again on the same DATA_DIR / database.
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_KEY } from "./app";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const READY = /> ready on (http:\/\/\S+?)\s/;

export interface ChildServer {
  url: string;
  pid: number;
  /** Everything the process printed so far (stdout + stderr). */
  output(): string;
  post(p: string, body: unknown): Promise<Record<string, unknown>>;
  /** SIGKILL to the server's whole process group (node and its ffmpeg children), like a crashed container. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful), then SIGKILL if it is still alive after `graceMs` (default 8 s). */
  stop(graceMs?: number): Promise<void>;
}

/** Starts the server and resolves once it prints its "ready" line (and the engine has resumed). */
export async function startChildServer(o: { dataDir: string; env?: Record<string, string>; timeoutMs?: number; script?: string; ready?: RegExp }): Promise<ChildServer> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TZ: process.env.TZ,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: o.dataDir,
    MODERATION_ACCESS_KEYS: TEST_KEY,
    ALLOW_PRIVATE_NETWORKS: "1",
    CALLBACK_RETRY_TIME_SCALE: "0.01",
    STREAM_RETRY_TIME_SCALE: "0.01",
    RTMP_PORT: "0",
    SERVICE_ONLY: "1",
    NODE_ENV: "production",
    // one detector thread, as startTestService: callbacks of a stream then leave in capture order
    DETECT_WORKERS: "1",
    ...o.env,
  };
  // detached: its own process group, so kill9 takes its children with it (a live pull's ffmpeg has a group of its
  // own, as a supervisor's signal must not end it: the kernel kills it when the server dies, setpriv --pdeathsig)
  const child = spawn(process.execPath, ["--import", "tsx", o.script ?? "server/main.ts"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  // CHILD_SERVER_LOG=<file>: also append everything the server prints there (debugging a failed run)
  const append = (b: Buffer) => {
    out += b.toString();
    if (process.env.CHILD_SERVER_LOG) appendFileSync(process.env.CHILD_SERVER_LOG, b);
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`server not ready in ${o.timeoutMs ?? 60_000} ms:\n${out.slice(-2000)}`)), o.timeoutMs ?? 60_000);
    const check = () => {
      const m = (o.ready ?? READY).exec(out);
      if (m) done(null, m[1]);
    };
    const onExit = (code: number | null) => done(new Error(`server exited (${code}) before ready:\n${out.slice(-2000)}`));
    function done(err: Error | null, u?: string) {
      clearTimeout(timer);
      child.stdout!.off("data", check);
      child.off("exit", onExit);
      if (err) {
        killGroup(child, "SIGKILL");
        reject(err);
      } else resolve(u!);
    }
    child.stdout!.on("data", check);
    child.once("exit", onExit);
  });
  return {
    url,
    pid: child.pid!,
    output: () => out,
    async post(p, body) {
      const res = await fetch(`${url}${p}`, { method: "POST", body: JSON.stringify(body) });
      return (await res.json()) as Record<string, unknown>;
    },
    async kill9() {
      killGroup(child, "SIGKILL");
      await exited;
    },
    async stop(graceMs = 8000) {
      killGroup(child, "SIGTERM");
      const t = setTimeout(() => killGroup(child, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(t);
      // whatever the server left behind in its group (it stops its own children on SIGTERM)
      killGroup(child, "SIGKILL");
    },
  };
}

/** A TCP port free right now on 127.0.0.1 (so a restarted server keeps the URLs it handed out). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, sig);
  } catch {
    // already gone
  }
}
