import { count, eq } from "drizzle-orm";
import type { StatusReport } from "../../lib/status";
import type { Engine } from "../engine";
import { measureDiskUse } from "../store/disk-use";
import type { Store } from "../store/db";
import type { RetentionJob } from "../store/retention";
import { deliveries } from "../store/schema";

/** Walking DATA_DIR is not free: a measurement is reused for this long. */
const DISK_CACHE_MS = 10_000;

/** The Status page's data: disk use by category, retention and its sweeps, queue depths. */
export function createStatus(o: { store: Store; dataDir: string; retention: RetentionJob; engine: Engine | null }) {
  let disk: { at: number; value: Promise<StatusReport["disk"]> } | null = null;
  return {
    async report(): Promise<StatusReport> {
      if (!disk || Date.now() - disk.at > DISK_CACHE_MS) disk = { at: Date.now(), value: measureDiskUse(o.dataDir, o.store) };
      const e = o.engine;
      const queues = e
        ? {
            filesWaiting: e.files.waitingCount,
            filesProcessing: e.files.pending - e.files.waitingCount,
            streamsRunning: e.streams.size,
            callbacksPending: (await o.store.db.select({ n: count() }).from(deliveries).where(eq(deliveries.status, "pending")))[0]?.n ?? 0,
          }
        : null;
      return { disk: await disk.value, retention: o.retention.status(), queues };
    },
  };
}

export type Status = ReturnType<typeof createStatus>;
