import { count, eq } from "drizzle-orm";
import type { StatusReport, StreamBehind } from "../../lib/status";
import { behindNotice } from "../../lib/stream-state";
import type { Engine } from "../engine";
import { measureDiskUse } from "../store/disk-use";
import type { Store } from "../store/db";
import type { RetentionJob } from "../store/retention";
import type { Db } from "../store/db";
import { dashboardStreams, deliveries } from "../store/schema";
import { summariesOf } from "./stream-window";
import { clusterQueues, clusterStatus } from "../scale/cluster-status";

/** Walking DATA_DIR is not free: a measurement is reused for this long. */
const DISK_CACHE_MS = 10_000;

/** The Status page's data: disk use by category, retention and its sweeps, queue depths. */
export function createStatus(o: { store: Store; dataDir: string; retention: RetentionJob; engine: Engine | null }) {
  let disk: { at: number; value: Promise<StatusReport["disk"]> } | null = null;
  return {
    async report(): Promise<StatusReport> {
      if (!disk || Date.now() - disk.at > DISK_CACHE_MS) disk = { at: Date.now(), value: measureDiskUse(o.dataDir, o.store) };
      const e = o.engine;
      if (e?.ctx.config.scale.on) {
        // scaled mode: this node runs little or nothing itself; the store knows the whole cluster
        const cluster = await clusterStatus(o.store.db, e.ctx.config.scale.streamLeaseSec);
        const queues = await clusterQueues(o.store.db, cluster.streams.length);
        return { disk: await disk.value, retention: o.retention.status(), queues, streamsBehind: await streamsBehind(o.store.db), cluster };
      }
      const queues = e
        ? {
            filesWaiting: e.files.waitingCount,
            filesProcessing: e.files.pending - e.files.waitingCount,
            streamsRunning: e.streams.size,
            callbacksPending: (await o.store.db.select({ n: count() }).from(deliveries).where(eq(deliveries.status, "pending")))[0]?.n ?? 0,
          }
        : null;
      return { disk: await disk.value, retention: o.retention.status(), queues, streamsBehind: await streamsBehind(o.store.db) };
    },
  };
}

export type Status = ReturnType<typeof createStatus>;

/** Running streams whose detection is behind now (the wall card's rule, lib/stream-state.ts). */
export async function streamsBehind(db: Db, now = new Date()): Promise<StreamBehind[]> {
  const running = await db.select().from(dashboardStreams).where(eq(dashboardStreams.status, "running"));
  const summaries = await summariesOf(db, running, now);
  return summaries
    .filter((s) => behindNotice(s, now.getTime()) !== null)
    .map((s) => ({ requestId: s.requestId, kind: s.kind, title: s.title, url: s.url, framesLastMinute: s.framesLastMinute, notCheckedLastMinute: s.notCheckedLastMinute, detectStep: s.detectStep, lastResultAt: s.lastResultAt }));
}
