import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import type { StreamSummary } from "../../lib/dashboard-api";
import { BEHIND_WINDOW_MS, type FrameWindow } from "../../lib/stream-state";
import type { Db } from "../store/db";
import { dashboardStreams, receivedCallbacks } from "../store/schema";
import { toSummary, type StreamRow } from "./stream-row";

const NONE: FrameWindow = { frames: 0, notChecked: 0 };

/** Frame results each stream received in the minute before `now`, and how many the detectors skipped. */
export async function frameWindows(db: Db, requestIds: string[], now: Date): Promise<Map<string, FrameWindow>> {
  const out = new Map<string, FrameWindow>();
  if (requestIds.length === 0) return out;
  const rows = await db
    .select({
      requestId: receivedCallbacks.requestId,
      frames: count(),
      notChecked: sql<number>`count(*) filter (where ${receivedCallbacks.body}->'frameDetail'->'auxInfo'->>'detectType' = '2')`.mapWith(Number),
    })
    .from(receivedCallbacks)
    .where(
      and(
        inArray(receivedCallbacks.requestId, requestIds),
        eq(receivedCallbacks.kind, "frame"),
        gt(receivedCallbacks.receivedAt, new Date(now.getTime() - BEHIND_WINDOW_MS)),
        sql`${receivedCallbacks.body} ? 'frameDetail'`,
      ),
    )
    .groupBy(receivedCallbacks.requestId);
  for (const r of rows) out.set(r.requestId, { frames: Number(r.frames), notChecked: r.notChecked });
  return out;
}

/** Summaries with their last-minute counts (running streams only: an ended stream has no "last minute"). */
export async function summariesOf(db: Db, rows: StreamRow[], now = new Date()): Promise<StreamSummary[]> {
  const windows = await frameWindows(db, rows.filter((r) => r.status === "running").map((r) => r.requestId), now);
  return rows.map((r) => toSummary(r, windows.get(r.requestId) ?? NONE));
}

/** One stream's summary as stored now, or undefined. */
export async function loadSummary(db: Db, requestId: string, now = new Date()): Promise<StreamSummary | undefined> {
  const rows = await db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, requestId)).limit(1);
  return (await summariesOf(db, rows, now))[0];
}
