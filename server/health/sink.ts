import type { Db } from "../store/db";
import type { StreamHealthUpdate } from "../../lib/stream-health";
import type { HealthSink } from "./monitor";
import { insertHealthEvent } from "./store";

export type HealthListener = (u: StreamHealthUpdate) => void;

/**
 * Stores each event (one chain per process, so a stream's events keep their order) and then tells the
 * listeners, with the stored id; snapshots only go to the listeners. A store failure is logged, the event
 * still published (id 0).
 */
export function healthSink(db: Db, listeners: ReadonlySet<HealthListener>, log: (m: string) => void): HealthSink & { settled(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  const tell = (u: StreamHealthUpdate) => {
    for (const l of listeners) {
      try {
        l(u);
      } catch (err) {
        log(`stream health listener: ${(err as Error).message}`);
      }
    }
  };
  return {
    settled: () => chain,
    snapshot: (snapshot) => tell({ snapshot, event: null }),
    event: (e, snapshot) => {
      chain = chain.then(async () => {
        const stored = await insertHealthEvent(db, e, snapshot).catch((err: Error) => {
          log(`stream ${e.requestId}: health event not stored: ${err.message}`);
          return { id: 0, requestId: e.requestId, at: e.at.toISOString(), kind: e.kind, message: e.message, attempt: e.attempt, of: e.of, nextAttemptAt: e.nextAttemptAt?.toISOString() ?? null, errorCode: e.errorCode };
        });
        tell({ snapshot, event: stored });
      });
    },
  };
}
