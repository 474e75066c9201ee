import { asc, desc, eq } from "drizzle-orm";
import type { Db } from "../store/db";
import { streamHealthEvents } from "../store/schema";
import type { StreamHealthEvent, StreamHealthSnapshot } from "../../lib/stream-health";
import type { NewHealthEvent } from "./monitor";

type Row = typeof streamHealthEvents.$inferSelect;

const toEvent = (r: Row): StreamHealthEvent => ({
  id: r.id,
  requestId: r.requestId,
  at: r.at.toISOString(),
  kind: r.kind,
  message: r.message,
  attempt: r.attempt,
  of: r.of,
  nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
  errorCode: r.errorCode,
});

export async function insertHealthEvent(db: Db, e: NewHealthEvent, snapshot: StreamHealthSnapshot): Promise<StreamHealthEvent> {
  const [row] = await db.insert(streamHealthEvents).values({ ...e, snapshot }).returning();
  return toEvent(row);
}

/** A stream's health events, oldest first. */
export async function healthEventsOf(db: Db, requestId: string): Promise<StreamHealthEvent[]> {
  const rows = await db.select().from(streamHealthEvents).where(eq(streamHealthEvents.requestId, requestId)).orderBy(asc(streamHealthEvents.id));
  return rows.map(toEvent);
}

/** The snapshot stored with the stream's newest event (what is known once the process that ran it is gone). */
export async function lastStoredSnapshot(db: Db, requestId: string): Promise<StreamHealthSnapshot | null> {
  const [row] = await db.select({ snapshot: streamHealthEvents.snapshot }).from(streamHealthEvents).where(eq(streamHealthEvents.requestId, requestId)).orderBy(desc(streamHealthEvents.id)).limit(1);
  return row?.snapshot ?? null;
}
