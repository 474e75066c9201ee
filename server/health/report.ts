import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../store/db";
import { tasks } from "../store/schema";
import type { StreamHealthReport, StreamHealthSnapshot } from "../../lib/stream-health";
import { healthEventsOf, lastStoredSnapshot } from "./store";

/**
 * GET /api/streams/<id>/health: the live snapshot when this process runs (or ran) the stream, else the one
 * stored with its last event, and every stored event. null for a stream the engine does not know.
 */
export async function streamHealthReport(o: { db: Db; live: (requestId: string) => StreamHealthSnapshot | null }, requestId: string): Promise<StreamHealthReport | null> {
  const live = o.live(requestId);
  const events = await healthEventsOf(o.db, requestId);
  if (live) return { snapshot: live, live: true, events };
  const stored = events.length ? await lastStoredSnapshot(o.db, requestId) : null;
  if (stored) return { snapshot: stored, live: false, events };
  const [task] = await o.db.select({ id: tasks.requestId }).from(tasks).where(and(eq(tasks.requestId, requestId), inArray(tasks.kind, ["videostream", "audiostream"])));
  return task ? { snapshot: null, live: false, events } : null;
}
