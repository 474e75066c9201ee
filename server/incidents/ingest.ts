import crypto from "node:crypto";
import { and, asc, eq, gte, inArray, lte } from "drizzle-orm";
import type { Incident } from "../../lib/incidents";
import { sourceName } from "../../lib/source-name";
import type { Db } from "../store/db";
import { dashboardFiles, dashboardStreams, incidentDecisions, incidentHits, incidents } from "../store/schema";
import { extend, groupHits, joinable, summarize, type Summary } from "./grouping";
import { hitsOfFileResult, hitsOfStreamCallback, type Hit } from "./hits";
import { summaryColumns, summaryOf, withDecisions, type IncidentRow } from "./rows";

export interface IngestDeps {
  db: Db;
  gapSec: number;
  publish: (i: Incident) => void;
  /** review queues (server/queues): created or extended incidents are routed before they are published */
  route?: (ids: string[]) => Promise<void>;
}

const newId = () => crypto.randomBytes(8).toString("hex");

interface SourceInfo {
  sourceKind: "stream" | "file";
  requestId: string;
  sourceRef: string;
  title: string | null;
  url: string | null;
}

async function streamSource(db: Db, requestId: string): Promise<SourceInfo> {
  const [s] = await db.select({ title: dashboardStreams.title, url: dashboardStreams.url, origin: dashboardStreams.origin, keyName: dashboardStreams.keyName }).from(dashboardStreams).where(eq(dashboardStreams.requestId, requestId)).limit(1);
  // an untitled (API) stream is named by its key and URL, never only by its id
  return { sourceKind: "stream", requestId, sourceRef: requestId, title: s ? sourceName(s) : null, url: s?.url ?? null };
}

async function fileSource(db: Db, requestId: string, btId: string | undefined): Promise<SourceInfo> {
  const [f] = await db.select({ btId: dashboardFiles.btId, title: dashboardFiles.title, url: dashboardFiles.url, origin: dashboardFiles.origin, keyName: dashboardFiles.keyName }).from(dashboardFiles).where(eq(dashboardFiles.requestId, requestId)).limit(1);
  return { sourceKind: "file", requestId, sourceRef: f?.btId ?? btId ?? requestId, title: f && f.origin === "api" ? sourceName(f) : (f?.title ?? null), url: f?.url ?? null };
}

const hitRow = (incidentId: string, requestId: string, h: Hit) => ({
  incidentId,
  requestId,
  media: h.media,
  label: h.label,
  itemId: h.hit.itemId,
  t: h.hit.t,
  hit: h.hit as unknown as Record<string, unknown>,
  body: h.body,
  callbackId: h.callbackId ?? null,
});

async function publishRows(d: IngestDeps, ids: string[]) {
  if (ids.length === 0) return;
  // a routing failure must not lose the incident: the queues' sweep routes it later
  await d.route?.(ids).catch(() => undefined);
  const rows = await d.db.select().from(incidents).where(inArray(incidents.id, ids));
  for (const i of await withDecisions(d.db, rows)) d.publish(i);
}

/**
 * One accepted stream callback: each of its hits joins the incident of its category whose span it lies within
 * INCIDENT_GAP_SEC of (two such incidents are merged: a late callback can bridge them), or starts a new one.
 */
export async function ingestStreamCallback(d: IngestDeps, input: { requestId: string; callbackId?: number; receivedAt: Date; body: Record<string, unknown> }): Promise<void> {
  const hits = hitsOfStreamCallback(input.body, input.receivedAt, input.callbackId);
  if (hits.length === 0) return;
  const touched: string[] = [];
  let source: SourceInfo | null = null;
  for (const h of hits) {
    const now = new Date();
    const candidates = await d.db
      .select()
      .from(incidents)
      .where(and(eq(incidents.requestId, input.requestId), eq(incidents.media, h.media), eq(incidents.label, h.label), gte(incidents.endT, h.hit.t - d.gapSec), lte(incidents.startT, h.hit.endT + d.gapSec)))
      .orderBy(asc(incidents.createdAt));
    const joined = candidates.filter((c) => joinable({ start: c.startT, end: c.endT }, h.hit, d.gapSec));
    if (joined.length === 0) {
      source ??= await streamSource(d.db, input.requestId);
      const id = newId();
      await d.db.transaction(async (tx) => {
        await tx.insert(incidents).values({ id, ...source!, media: h.media, label: h.label, timeBase: "epoch", ...summaryColumns(summarize([h.hit])), status: "open", assignee: null, createdAt: now, updatedAt: now });
        await tx.insert(incidentHits).values(hitRow(id, input.requestId, h));
      });
      touched.push(id);
      continue;
    }
    const [keep, ...others] = joined;
    const inserted = await d.db.insert(incidentHits).values(hitRow(keep.id, input.requestId, h)).onConflictDoNothing().returning({ id: incidentHits.id });
    if (others.length === 0) {
      if (inserted.length === 0) continue; // this frame was counted already
      await d.db.update(incidents).set({ ...summaryColumns(extend(summaryOf(keep), h.hit)), updatedAt: now }).where(eq(incidents.id, keep.id));
    } else {
      await mergeInto(d.db, keep, others, now);
    }
    touched.push(keep.id);
  }
  await publishRows(d, [...new Set(touched)]);
}

/** Moves the hits and decisions of `others` into `keep`, recomputes it from all its hits, deletes the rest. */
async function mergeInto(db: Db, keep: IncidentRow, others: IncidentRow[], now: Date): Promise<void> {
  const ids = others.map((o) => o.id);
  await db.transaction(async (tx) => {
    await tx.update(incidentHits).set({ incidentId: keep.id }).where(inArray(incidentHits.incidentId, ids));
    await tx.update(incidentDecisions).set({ incidentId: keep.id }).where(inArray(incidentDecisions.incidentId, ids));
    const all = await tx.select({ hit: incidentHits.hit }).from(incidentHits).where(eq(incidentHits.incidentId, keep.id));
    const s: Summary = summarize(all.map((r) => r.hit as unknown as Hit["hit"]));
    const assignee = keep.assignee ?? others.find((o) => o.assignee)?.assignee ?? null;
    await tx.update(incidents).set({ ...summaryColumns(s), assignee, updatedAt: now }).where(eq(incidents.id, keep.id));
    await tx.delete(incidents).where(inArray(incidents.id, ids));
  });
}

/** A file's result (code 1100): every frame and segment grouped at once. A result seen before adds nothing. */
export async function ingestFileResult(d: IngestDeps, input: { requestId: string; body: Record<string, unknown> }): Promise<void> {
  const hits = hitsOfFileResult(input.body);
  if (hits.length === 0) return;
  const [seen] = await d.db.select({ id: incidents.id }).from(incidents).where(eq(incidents.requestId, input.requestId)).limit(1);
  if (seen) return;
  const source = await fileSource(d.db, input.requestId, typeof input.body.btId === "string" ? input.body.btId : undefined);
  const now = new Date();
  const groups = groupHits(hits, d.gapSec).map((g) => ({ id: newId(), g }));
  await d.db.transaction(async (tx) => {
    await tx.insert(incidents).values(groups.map(({ id, g }) => ({ id, ...source, media: g.media, label: g.label, timeBase: "offset" as const, ...summaryColumns(g.summary), status: "open" as const, assignee: null, createdAt: now, updatedAt: now })));
    const rows = groups.flatMap(({ id, g }) => g.members.map((m) => hitRow(id, input.requestId, m)));
    for (let i = 0; i < rows.length; i += 500) await tx.insert(incidentHits).values(rows.slice(i, i + 500)).onConflictDoNothing();
  });
  await publishRows(d, groups.map((g) => g.id));
}
