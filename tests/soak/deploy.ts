// The deployment a soak runs against (tests/soak/run.ts): one embedded process (PGlite in DATA_DIR, or the PostgreSQL
// of DATABASE_URL), or scaled mode — two API nodes and two `npm run worker` processes on a private PostgreSQL and a
// private Redis (tests/support/fault-cluster.ts). With browsers the nodes serve the dashboard (Next: `npm run build`
// first) and a supervisor signs in.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startChildServer, type ChildServer } from "../support/child-server";
import { FAULT_SUPERVISOR, startFaultCluster } from "../support/fault-cluster";

export interface SoakDeployment {
  mode: "embedded" | "scaled";
  /** where requests and browsers go (API nodes) */
  nodes: ChildServer[];
  /** every process to sample, by name */
  processes: Record<string, ChildServer>;
  /** processes whose /metrics count live frames (the ones that pull) */
  pullers: ChildServer[];
  dataDir: string;
  /** PostgreSQL to measure table sizes on, or null (PGlite: its folder is measured) */
  databaseUrl: string | null;
  supervisor: { username: string; password: string };
  close(): Promise<void>;
}

export async function deploy(o: { mode: "embedded" | "scaled"; streams: number; dashboard: boolean; retentionHours: number }): Promise<SoakDeployment> {
  const shared = { MAX_CONCURRENT_STREAMS: String(Math.max(8, o.streams)), STREAM_ADMISSION_WINDOW_SEC: "0", RESULT_RETENTION_HOURS: String(o.retentionHours), AUTO_INSTALL_PACKAGES: "0", PREVIEW_RETENTION_MIN: "0" };
  const dash: Record<string, string> = o.dashboard ? { SERVICE_ONLY: "0", SUPERVISOR_INITIAL_PASSWORD: FAULT_SUPERVISOR.password } : {};
  if (o.mode === "scaled") {
    const c = await startFaultCluster({
      name: "soak",
      nodes: 2,
      workers: 2,
      dashboard: o.dashboard,
      // the product's lease and retry pace, not the fault tests' short ones
      env: { ...shared, STREAM_LEASE_SEC: "15", CALLBACK_RETRY_TIME_SCALE: "1" },
      workerEnv: { STREAM_CAPACITY: String(Math.ceil(o.streams / 2) + 1), FILE_CONCURRENCY: "1" },
    });
    const processes: Record<string, ChildServer> = {};
    c.nodes.forEach((n, i) => (processes[`node-${i + 1}`] = n));
    c.workers.forEach((w, i) => (processes[`worker-${i + 1}`] = w));
    return { mode: "scaled", nodes: c.nodes, processes, pullers: c.workers, dataDir: c.dataDir, databaseUrl: c.pg.url, supervisor: FAULT_SUPERVISOR, close: () => c.close() };
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "soak-"));
  const databaseUrl = process.env.DATABASE_URL ?? null;
  const env: Record<string, string> = { ...shared, ...dash, DETECT_WORKERS: String(Math.max(1, Math.min(2, os.cpus().length - 1))), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const server = await startChildServer({ dataDir, timeoutMs: 180_000, env });
  return {
    mode: "embedded",
    nodes: [server],
    processes: { server },
    pullers: [server],
    dataDir,
    databaseUrl,
    supervisor: FAULT_SUPERVISOR,
    close: async () => {
      await server.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
