import { and, eq, isNull } from "drizzle-orm";
import type { IncidentDetail } from "../../lib/incidents";
import { DEFAULT_QUEUE_ID, type IncidentQueueInfo, type QueueCountsEvent, type QueueInput, type QueuePatch } from "../../lib/queues";
import type { Db } from "../store/db";
import { incidents } from "../store/schema";
import { claimNext, claimOne, expireClaims, queueInfo, release, type ClaimAnswer, type ReleaseAnswer } from "./claims";
import { pinToQueue, rerouteOpen, routeIncidents } from "./routing";
import { createQueue, deleteQueue, getQueue, listQueues, mayWork, queueCounts, toQueue, updateQueue, type Caller, type Change } from "./store";

export type { Caller } from "./store";

export interface QueuesOptions {
  db: Db;
  /** CLAIM_LEASE_SEC: a claim not renewed for this long goes back to its queue */
  leaseSec: number;
  /** the incident as GET /api/incidents/<id> shows it (server/incidents) */
  detail: (id: string) => Promise<IncidentDetail | null>;
  /** to the `incidents` room: every queue's counts (server/hub) */
  publish: (e: QueueCountsEvent) => void;
  log: (m: string) => void;
}

export type Queues = ReturnType<typeof createQueues>;
export type NextAnswer = { ok: true; incident: (IncidentDetail & IncidentQueueInfo) | null } | { ok: false; status: 403 | 404; error: string };

/**
 * Review queues (docs/pending/queues.md): named queues with routing rules, and claims on their incidents. Counts go
 * to the Review pages as they change (coalesced); a sweep returns expired claims and routes incidents never routed.
 */
export function createQueues(o: QueuesOptions) {
  const { db } = o;
  let pending: NodeJS.Timeout | null = null;
  let definitions = false;
  let closed = false;

  /** Counts changed (definitions: queues themselves too): published once for a burst of changes. */
  function changed(defs = false): void {
    definitions ||= defs;
    if (pending || closed) return;
    pending = setTimeout(() => {
      pending = null;
      const d = definitions;
      definitions = false;
      queueCounts(db).then(
        (counts) => o.publish({ counts, definitions: d }),
        (err: Error) => o.log(`queues: counts: ${err.message}`),
      );
    }, 200);
  }

  // a third of the lease (at most 15 s): an abandoned claim is back in its queue's counts soon after it lapses
  const sweepMs = Math.max(500, Math.min(15_000, (o.leaseSec * 1000) / 3));
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void (async () => {
      const expired = await expireClaims(db);
      const unrouted = await db.select({ id: incidents.id }).from(incidents).where(and(eq(incidents.status, "open"), isNull(incidents.queueId))).limit(500);
      if (unrouted.length) await routeIncidents(db, unrouted.map((r) => r.id));
      if (expired || unrouted.length) changed();
    })()
      .catch((err: Error) => o.log(`queues: sweep: ${err.message}`))
      .finally(() => (sweeping = false));
  }, sweepMs);
  sweep.unref();

  async function afterChange(r: Change): Promise<Change> {
    if (r.ok) {
      const moved = await rerouteOpen(db);
      if (moved) o.log(`queues: ${moved} open incident(s) routed again after a queue change`);
      changed(true);
    }
    return r;
  }

  const withInfo = async (id: string) => {
    const [detail, info] = await Promise.all([o.detail(id), queueInfo(db, id)]);
    return detail ? { ...detail, ...info } : null;
  };

  return {
    list: (c: Caller) => listQueues(db, c),
    /** one queue as the API shows it */
    one: async (id: string, c: Caller) => {
      const row = await getQueue(db, id);
      return row ? toQueue(row, await queueCounts(db), c) : null;
    },
    create: async (input: QueueInput, by: string) => afterChange(await createQueue(db, input, by)),
    update: async (id: string, patch: QueuePatch) => afterChange(await updateQueue(db, id, patch)),
    remove: async (id: string) => afterChange(await deleteQueue(db, id)),
    /** POST /api/queues/<id>/next: the caller's claimed incident of that queue (their current one first) */
    async next(queueId: string, c: Caller, skip: string[] = []): Promise<NextAnswer> {
      const q = await getQueue(db, queueId);
      if (!q) return { ok: false, status: 404, error: "unknown queue" };
      if (!mayWork(q, c)) return { ok: false, status: 403, error: `you may not work the queue "${q.name}" (ask a supervisor to add you or your role)` };
      const id = await claimNext(db, { queueId, order: q.order, username: c.username, leaseSec: o.leaseSec, skip });
      if (id) changed();
      return { ok: true, incident: id ? await withInfo(id) : null };
    },
    /** claims one incident for the caller, or renews their claim (the page while it shows it) */
    async claim(id: string, c: Caller, renewOnly = false): Promise<ClaimAnswer | { ok: false; status: 403; error: string }> {
      const info = await queueInfo(db, id);
      const q = await getQueue(db, info.queue?.id ?? DEFAULT_QUEUE_ID);
      if (q && !mayWork(q, c)) return { ok: false, status: 403, error: `you may not work the queue "${q.name}"` };
      const r = await claimOne(db, id, c.username, o.leaseSec, renewOnly);
      if (r.ok && info.claimedBy !== c.username) changed();
      return r;
    },
    /** gives the caller's claim back (a supervisor: anyone's) */
    async release(id: string, c: Caller): Promise<ReleaseAnswer> {
      const r = await release(db, id, c.username, c.role === "supervisor");
      if (r.ok && r.released) changed();
      return r;
    },
    info: (id: string) => queueInfo(db, id),
    /** incidents created or extended (server/incidents ingest): routed by the current rules */
    route: async (ids: string[]) => {
      await routeIncidents(db, ids);
      changed();
    },
    /** a live rule's "queue" action: the incident goes to the named queue and stays there */
    pin: async (id: string, name: string) => {
      const r = await pinToQueue(db, id, name);
      if (r.ok) changed();
      return r;
    },
    /** an incident changed (decided, assigned, …): counts may have */
    changed: () => changed(),
    counts: () => queueCounts(db),
    close: () => {
      closed = true;
      clearInterval(sweep);
      if (pending) clearTimeout(pending);
    },
  };
}
