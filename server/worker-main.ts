// `npm run worker`: a process that takes work in scaled mode (REDIS_URL + DATABASE_URL): video files from the BullMQ
// queue, their detection and their callbacks. No v4 endpoints and no dashboard; HTTP only for GET /health and
// GET /metrics (docs/deployment.md).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "./config";
import { createEngine } from "./engine";
import { WorkerDetectPool } from "./detect/pool";
import { watchEngine } from "./metrics";
import { serveMetrics } from "./metrics/serve";
import { allowList } from "./net/peer-allow";
import { ensureProductPackages } from "./setup/debian-packages";
import { createHubBroadcaster } from "./hub";

const config = loadConfig({ ...process.env, PROCESS_ROLE: "worker" });
if (!config.scale.on) {
  console.error("> npm run worker takes work from a shared queue: set REDIS_URL and DATABASE_URL (README \"Deployment\")");
  process.exit(2);
}
const name = config.scale.workerName;
ensureProductPackages({ auto: process.env.AUTO_INSTALL_PACKAGES !== "0", log: (m) => console.log(m) });
const engine = await createEngine(config, { log: (m) => console.log(`[worker ${name}] ${m}`) });
// tests only: every detection takes at least this long (a worker whose detectors fall behind, with the real queue),
// from the moment this worker holds TEST_DETECT_SLOW_FROM_STREAMS streams (0: from the start)
const slow = Number(process.env.TEST_DETECT_MIN_JOB_MS ?? 0);
const slowFrom = Number(process.env.TEST_DETECT_SLOW_FROM_STREAMS ?? 0);
if (slow > 0 && engine.ctx.detect instanceof WorkerDetectPool) {
  const pool = engine.ctx.detect;
  const apply = () => pool.setMinJobMsForTest(engine.streams.active >= slowFrom ? slow : 0);
  apply();
  if (slowFrom > 0) setInterval(apply, 200).unref();
}
await engine.start();
const unwatch = watchEngine(engine);
// the live health of the streams held here reaches the browsers on every dashboard node (through the hubs' Redis stream)
const hub = createHubBroadcaster(config.redisUrl!);
engine.streams.onHealth((u) => hub.streamHealth(u));
const metricsAllow = allowList(config.metrics.allow);

const server = http.createServer((req, res) => {
  if (serveMetrics(req, res, config.metrics, metricsAllow)) return;
  if (req.method === "GET" && req.url === "/health") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, role: "worker", name, files: { active: engine.files.pending - engine.files.waitingCount, queued: engine.files.waitingCount }, detectWorkers: config.detectWorkers }));
    return;
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: "a worker serves only GET /health and GET /metrics" }));
});
const port = Number(process.env.WORKER_PORT ?? 9464);
await new Promise<void>((resolve) => server.listen(port, config.host, resolve));
console.log(`> worker ${name} ready: health and metrics on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${(server.address() as AddressInfo).port} (files ${config.fileConcurrency} at a time, ${config.detectWorkers} detector threads)`);

let closing = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`> ${sig}: worker ${name} hands its files back and stops`);
    const force = setTimeout(() => process.exit(1), 30_000); // a graceful handover waits up to ~8 s for the successor, then drains
    force.unref();
    void (async () => {
      unwatch();
      server.close();
      await engine.stop();
      await hub.close();
      process.exit(0);
    })();
  });
}
