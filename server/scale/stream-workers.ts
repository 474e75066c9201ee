// Scaled mode: the workers' heartbeats (`stream_workers`): each declares its capacity and load every full tick.
import { gt, sql } from "drizzle-orm";
import { streamWorkers } from "../store/schema";
import type { EngineContext } from "../task/context";

/** Workers whose heartbeat is younger than a lease (by the database's clock). */
export function livePeers(ctx: EngineContext, leaseSec: number) {
  return ctx.store.db.select().from(streamWorkers).where(gt(streamWorkers.heartbeatAt, sql`now() - make_interval(secs => ${leaseSec})`));
}
