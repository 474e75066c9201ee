// `npm run cluster`: a scaled deployment on one machine, for a demo: two nodes (dashboard + v4 endpoints) and two
// workers (files and live streams), on the Redis and PostgreSQL of REDIS_URL / DATABASE_URL (defaults: the local
// ones), sharing one DATA_DIR. Put any load balancer in front of the two nodes, or open either (docs/deployment.md).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const basePort = Number(process.env.PORT ?? 3000);
const shared: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  REDIS_URL: process.env.REDIS_URL || "redis://127.0.0.1:6379",
  DATABASE_URL: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  DATA_DIR: process.env.DATA_DIR || path.join(root, ".data-cluster"),
};

const roles: Array<{ name: string; script: string; env: Record<string, string> }> = [
  { name: "node-1", script: "server/main.ts", env: { PORT: String(basePort) } },
  // one RTMP ingest is enough (the sample stream): the second node leaves the port to the first
  { name: "node-2", script: "server/main.ts", env: { PORT: String(basePort + 1), RTMP_PORT: "0" } },
  { name: "worker-1", script: "server/worker-main.ts", env: { WORKER_NAME: "worker-1", WORKER_PORT: String(Number(process.env.WORKER_PORT ?? 9464)) } },
  { name: "worker-2", script: "server/worker-main.ts", env: { WORKER_NAME: "worker-2", WORKER_PORT: String(Number(process.env.WORKER_PORT ?? 9464) + 1) } },
];

console.log(`> cluster: 2 nodes on http://localhost:${basePort} and :${basePort + 1}, 2 workers; Redis ${shared.REDIS_URL}, PostgreSQL ${shared.DATABASE_URL?.replace(/\/\/[^@]*@/, "//…@")}, data in ${shared.DATA_DIR}`);
const children: ChildProcess[] = [];
/** Starts one role; resolves once it printed `ready` (or at once without one). */
function start(r: (typeof roles)[number], ready?: RegExp): Promise<void> {
  // detached: a Ctrl-C reaches only this process, which stops each child once (SIGTERM: graceful hand-back)
  const child = spawn(process.execPath, ["--import", "tsx", r.script], { cwd: root, env: { ...shared, ...r.env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.push(child);
  const prefix = (b: Buffer) => b.toString().split("\n").filter(Boolean).map((l) => `[${r.name}] ${l}`).join("\n");
  let isReady: () => void = () => undefined;
  const readyNow = new Promise<void>((resolve) => (isReady = resolve));
  child.stdout!.on("data", (b: Buffer) => {
    console.log(prefix(b));
    if (ready?.test(b.toString())) isReady();
  });
  child.stderr!.on("data", (b: Buffer) => console.error(prefix(b)));
  child.on("exit", (code) => {
    console.log(`> ${r.name} exited (${code})`);
    isReady();
    if (!stopping) shutdown(1);
  });
  return ready ? readyNow : Promise.resolve();
}

let stopping = false;
function shutdown(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  const force = setTimeout(() => process.exit(code), 20_000);
  force.unref();
  void Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null))).then(() => process.exit(code));
}
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => shutdown(0));

// the first node alone until it is ready: on a fresh DATA_DIR it creates the secrets and the accessKey every other
// process then reads (started together, each would make its own)
await start(roles[0], /> ready on /);
if (!stopping) await Promise.all(roles.slice(1).map((r) => start(r)));
