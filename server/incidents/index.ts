import type { AssignInput, BulkDecisionInput, DecisionInput, Incident, IncidentQuery } from "../../lib/incidents";
import type { Db } from "../store/db";
import { incidentContext } from "./context";
import { exportIncident, incidentsCsv } from "./export";
import { ExportSlots } from "./export-slots";
import type { IncidentFeedInput } from "./feed";
import { ingestFileResult, ingestStreamCallback } from "./ingest";
import type { MediaReader } from "./media";
import { decideByItem, type ItemReview } from "./item-review";
import { assign, decide, decideOne, getIncident, listIncidents } from "./review";

export interface IncidentsOptions {
  db: Db;
  /** INCIDENT_GAP_SEC: hits further apart than this start a new incident */
  gapSec: number;
  /** pushes a created or changed incident to the `incidents` room */
  publish: (i: Incident) => void;
  readMedia: MediaReader;
  log: (m: string) => void;
  /** review queues (server/queues): routes created or extended incidents */
  route?: (ids: string[]) => Promise<void>;
  /** INCIDENT_EXPORTS_PER_USER / INCIDENT_EXPORTS_MAX: evidence exports running at once per account / in all (default 3 / 8; 0 = no limit) */
  exports?: { perUser: number; max: number };
}

/** What an evidence export answers: the zip, an unknown incident, or no free slot (429 `export_busy`). */
export type ExportAnswer = { filename: string; body: ReadableStream<Uint8Array> } | { busy: string } | null;

export type Incidents = ReturnType<typeof createIncidents>;

/**
 * Incidents and the review queue (docs/dashboard.md "Incidents and the review queue"): fed with every accepted callback,
 * read and decided through app/api/incidents. Work for one task runs in arrival order, one at a time.
 */
export function createIncidents(o: IncidentsOptions) {
  const deps = { db: o.db, gapSec: o.gapSec, publish: o.publish, readMedia: o.readMedia, route: o.route, log: o.log };
  const slots = new ExportSlots(o.exports ?? { perUser: 3, max: 8 });
  const queues = new Map<string, Promise<void>>();

  function feed(input: IncidentFeedInput): Promise<void> {
    const prev = queues.get(input.requestId) ?? Promise.resolve();
    const run = prev
      .then(() => (input.kind === "stream" ? ingestStreamCallback(deps, input) : ingestFileResult(deps, input)))
      .catch((err: Error) => o.log(`incidents: ${input.kind} ${input.requestId}: ${err.stack ?? err}`));
    queues.set(input.requestId, run);
    void run.then(() => {
      if (queues.get(input.requestId) === run) queues.delete(input.requestId);
    });
    return run;
  }

  return {
    feed,
    /** resolves once every callback fed so far is grouped (tests) */
    idle: async () => {
      while (queues.size) await Promise.all(queues.values());
    },
    list: (q: IncidentQuery, me: string) => listIncidents(deps, q, me),
    get: (id: string) => getIncident(deps, id),
    /** the same source's other incidents and the end user's history (issue #26.5) */
    context: (id: string) => incidentContext(o.db, id),
    decide: (id: string, input: DecisionInput, username: string) => decideOne(deps, id, input, username),
    decideMany: (input: BulkDecisionInput, username: string) => decide(deps, input, username),
    /** a decision on one frame or segment, carried to the incidents it is a hit of */
    decideByItem: (r: ItemReview) => decideByItem(deps, r),
    /** `assignee` absent: the caller */
    assign: (id: string, input: AssignInput, username: string) => assign(deps, id, input.assignee === undefined ? username : input.assignee),
    /** The evidence zip of one incident for `user`, within the concurrent-export limits; the slot is held until the download ends. */
    async exportZip(id: string, user: string): Promise<ExportAnswer> {
      const slot = slots.take(user);
      if ("refused" in slot) return { busy: slot.refused };
      try {
        const zip = await exportIncident(deps, id, slot.release);
        if (!zip) slot.release();
        return zip;
      } catch (err) {
        slot.release();
        throw err;
      }
    },
    exportsRunning: (user: string) => slots.runningFor(user),
    csv: async (q: IncidentQuery, me: string, origin: string) => incidentsCsv(await listIncidents(deps, q, me), origin),
  };
}
