// Scaled mode: the Status page's view of the whole cluster, read from the shared store, the same on every node: the
// workers' heartbeats (capacity, streams held, detection behind), every running live stream with its holder and
// lease, and the file tasks waiting or running anywhere.
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { ClusterStatus, QueueDepths } from "../../lib/status";
import { dashboardStreams, deliveries, streamHandovers, streamWorkers, tasks } from "../store/schema";
import type { Db } from "../store/db";

export async function clusterStatus(db: Db, leaseSec: number): Promise<ClusterStatus> {
  const workers = await db
    .select({ name: streamWorkers.name, capacity: streamWorkers.capacity, held: streamWorkers.held, behind: streamWorkers.behind, ageSec: sql<number>`extract(epoch from now() - ${streamWorkers.heartbeatAt})::float8` })
    .from(streamWorkers)
    .orderBy(streamWorkers.name);
  const streams = await db
    .select({
      requestId: tasks.requestId,
      kind: tasks.kind,
      title: dashboardStreams.title,
      holder: tasks.leaseOwner,
      leftSec: sql<number | null>`extract(epoch from ${tasks.leaseUntil} - now())::float8`,
      closeAsked: tasks.closeRequestedAt,
      ending: sql<string | null>`${tasks.state}->>'endReason'`,
      handoverTo: streamHandovers.toOwner,
      handoverFrom: streamHandovers.fromOwner,
      createdAt: tasks.createdAt,
    })
    .from(tasks)
    .leftJoin(dashboardStreams, eq(dashboardStreams.requestId, tasks.requestId))
    .leftJoin(streamHandovers, eq(streamHandovers.requestId, tasks.requestId))
    .where(and(inArray(tasks.kind, ["videostream", "audiostream"]), eq(tasks.status, "running")))
    .orderBy(tasks.createdAt);
  return {
    leaseSec,
    workers: workers.map((w) => ({ name: w.name, capacity: w.capacity, held: w.held, behind: w.behind, heartbeatAgeSec: Math.max(0, Math.round(Number(w.ageSec) * 10) / 10), alive: Number(w.ageSec) < leaseSec })),
    streams: streams.map((s) => {
      const left = s.leftSec === null ? null : Number(s.leftSec);
      const held = s.holder !== null && left !== null && left > 0;
      const state = s.closeAsked || s.ending ? "closing" : held && s.handoverFrom === s.holder ? "handing over" : held ? "held" : "waiting for a worker";
      return {
        requestId: s.requestId,
        kind: s.kind === "videostream" ? "video" : "audio",
        title: s.title,
        holder: held ? s.holder : null,
        state,
        leaseLeftSec: held ? Math.round(left! * 10) / 10 : null,
        handoverTo: state === "handing over" ? s.handoverTo : null,
        startedAt: s.createdAt.toISOString(),
      } as const;
    }),
  };
}

/** The cluster's queue depths: file tasks waiting / running on any worker, streams running, callbacks pending. */
export async function clusterQueues(db: Db, streamsRunning: number): Promise<QueueDepths> {
  const files = await db
    .select({ status: tasks.status, n: count() })
    .from(tasks)
    .where(and(eq(tasks.kind, "video"), inArray(tasks.status, ["queued", "processing"])))
    .groupBy(tasks.status);
  const [pending] = await db.select({ n: count() }).from(deliveries).where(eq(deliveries.status, "pending"));
  return {
    filesWaiting: files.find((f) => f.status === "queued")?.n ?? 0,
    filesProcessing: files.find((f) => f.status === "processing")?.n ?? 0,
    streamsRunning,
    callbacksPending: pending?.n ?? 0,
  };
}
