import { eq } from "drizzle-orm";
import type { Db } from "../store/db";
import { dashboardFiles, dashboardStreams, tasks } from "../store/schema";
import type { RuleSource } from "./match";

export interface SourceInfo extends RuleSource {
  /** "api": started through the public API by an accessKey (a dashboard rule may not close it) */
  origin: "dashboard" | "api" | null;
  keyName: string | null;
  running: boolean;
}

/** A stream's or file's fields a rule may test: the dashboard's row, and the service's task when this store holds it (embedded). */
export async function sourceInfo(db: Db, kind: "stream" | "file", requestId: string): Promise<SourceInfo> {
  const [task] = await db.select({ appId: tasks.appId, eventId: tasks.eventId, request: tasks.request }).from(tasks).where(eq(tasks.requestId, requestId)).limit(1);
  const data = (task?.request as { data?: { tokenId?: unknown } } | undefined)?.data;
  const tokenId = typeof data?.tokenId === "string" ? data.tokenId : null;
  if (kind === "stream") {
    const [s] = await db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, requestId)).limit(1);
    const mine = s?.origin !== "api";
    return { kind, requestId, title: s?.title ?? null, appId: task?.appId ?? (mine ? "default" : null), eventId: task?.eventId ?? (mine ? (s?.kind === "audio" ? "AUDIOSTREAM" : "VIDEOSTREAM") : null), tokenId: tokenId ?? (mine ? "dashboard" : null), origin: s?.origin ?? null, keyName: s?.keyName ?? null, running: s?.status === "running" };
  }
  const [f] = await db.select().from(dashboardFiles).where(eq(dashboardFiles.requestId, requestId)).limit(1);
  return { kind, requestId, title: f?.title ?? null, appId: task?.appId ?? null, eventId: task?.eventId ?? null, tokenId, origin: f?.origin ?? null, keyName: f?.keyName ?? null, running: false };
}
