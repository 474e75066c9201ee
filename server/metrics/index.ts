// Prometheus metrics (prom-client): one registry per process, on globalThis (the custom server and Next's route
// handlers are separate module graphs). Counters are bumped where the work happens; gauges read the engines of
// this process at scrape time. Served at GET /metrics to configured networks or a bearer token (./access.ts).
import client from "prom-client";
import { sql } from "drizzle-orm";
import { deliveries } from "../store/schema";
import type { DeliveryOutcome, Dispatcher } from "../callback/dispatcher";
import type { Store } from "../store/db";

/** What the gauges read of an engine (structural: this module imports no task code, so no cycle). */
export interface MetricsSource {
  streams: { size: number };
  files: { waitingCount: number; pending: number };
  ctx: { detect: { stats(): { pending: number } }; config: { detectWorkers: number }; store: Store; dispatcher: Dispatcher };
}
type Engine = MetricsSource;

export interface Metrics {
  registry: client.Registry;
  requests: client.Counter<"endpoint" | "code">;
  frames: client.Counter<"state">;
  segments: client.Counter<"state">;
  detectionLag: client.Histogram;
  pullRetries: client.Counter;
  callbackOutcomes: client.Counter<"outcome">;
  engines: Set<Engine>;
  /** reachability probes of the shared services this process uses (store, queue): 1 up, 0 unreachable */
  dependencies: Map<string, () => Promise<unknown>>;
}

/** A probe slower than this counts as down (a scrape must answer while a service hangs). */
const PROBE_TIMEOUT_MS = 2000;

const KEY = Symbol.for("moderation.metrics");

function build(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "moderation_" });
  const engines = new Set<Engine>();
  const m: Metrics = {
    registry,
    engines,
    dependencies: new Map(),
    requests: new client.Counter({ name: "moderation_requests_total", help: "v4 requests answered, by endpoint and business code", labelNames: ["endpoint", "code"], registers: [registry] }),
    frames: new client.Counter({ name: "moderation_stream_frames_total", help: "live frames by state: captured, checked, not_checked (called back with detectType 2)", labelNames: ["state"], registers: [registry] }),
    segments: new client.Counter({ name: "moderation_stream_segments_total", help: "live audio segments by state: captured, checked, not_checked", labelNames: ["state"], registers: [registry] }),
    detectionLag: new client.Histogram({ name: "moderation_frame_detection_lag_seconds", help: "capture → verdict of a checked live frame", buckets: [0.25, 0.5, 1, 2, 3, 5, 10, 30], registers: [registry] }),
    pullRetries: new client.Counter({ name: "moderation_pull_retries_total", help: "live pulls that failed and were scheduled for another attempt", registers: [registry] }),
    callbackOutcomes: new client.Counter({ name: "moderation_callback_attempts_total", help: "callback delivery attempts by outcome: delivered, retry, exhausted", labelNames: ["outcome"], registers: [registry] }),
  };
  const sum = (f: (e: Engine) => number) => [...engines].reduce((a, e) => a + f(e), 0);
  new client.Gauge({ name: "moderation_streams_running", help: "live streams this process pulls", registers: [registry], collect() { this.set(sum((e) => e.streams.size)); } });
  new client.Gauge({ name: "moderation_files_waiting", help: "accepted files not yet processing", registers: [registry], collect() { this.set(sum((e) => e.files.waitingCount)); } });
  new client.Gauge({ name: "moderation_files_processing", help: "files being processed", registers: [registry], collect() { this.set(sum((e) => e.files.pending - e.files.waitingCount)); } });
  new client.Gauge({ name: "moderation_detect_queue_depth", help: "frames waiting for or in a detector worker", registers: [registry], collect() { this.set(sum((e) => e.ctx.detect.stats().pending)); } });
  new client.Gauge({ name: "moderation_detect_workers", help: "detector worker threads", registers: [registry], collect() { this.set(sum((e) => e.ctx.config.detectWorkers)); } });
  new client.Gauge({
    name: "moderation_callbacks",
    help: "callbacks in the outbox by status (pending = not yet delivered, exhausted = retries ran out)",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const e of engines) {
        const rows = await e.ctx.store.db.select({ status: deliveries.status, n: sql<number>`count(*)` }).from(deliveries).groupBy(deliveries.status).catch(() => []);
        for (const r of rows) if (r.status !== "delivered") this.inc({ status: r.status }, Number(r.n));
      }
      for (const status of ["pending", "exhausted"]) this.inc({ status }, 0);
    },
  });
  new client.Gauge({
    name: "moderation_dependency_up",
    help: "whether this process reaches a shared service right now (store = its database, queue = Redis): 1 up, 0 unreachable",
    labelNames: ["dependency"],
    registers: [registry],
    async collect() {
      this.reset();
      const probes = new Map(m.dependencies);
      // every engine's store (one per process in practice)
      [...engines].forEach((e, i) => probes.set(i ? `store${i}` : "store", () => e.ctx.store.db.execute(sql`SELECT 1`)));
      await Promise.all([...probes].map(async ([dependency, probe]) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), PROBE_TIMEOUT_MS)));
        const up = await Promise.race([probe(), timeout]).then(() => 1, () => 0).finally(() => clearTimeout(timer));
        this.set({ dependency }, up);
      }));
    },
  });
  return m;
}

/** This process's metrics. */
export function metrics(): Metrics {
  const g = globalThis as unknown as Record<symbol, Metrics | undefined>;
  return (g[KEY] ??= build());
}

/** Gauges read `engine` until the returned function is called (the engine stopped). */
export function watchEngine(engine: Engine): () => void {
  const m = metrics();
  m.engines.add(engine);
  const onOutcome = (o: DeliveryOutcome) => m.callbackOutcomes.inc({ outcome: o.status === "retrying" ? "retry" : o.status });
  engine.ctx.dispatcher.on("outcome", onOutcome);
  return () => {
    m.engines.delete(engine);
    engine.ctx.dispatcher.off("outcome", onOutcome);
  };
}
