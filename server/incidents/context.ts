import { and, count, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { CONTEXT_LIMIT, type ContextCounts, type ContextIncident, type ContextSource, type IncidentContext } from "../../lib/incident-context";
import type { RiskLevel } from "../../lib/dashboard-api";
import type { Incident, IncidentState } from "../../lib/incidents";
import type { Db } from "../store/db";
import { dashboardFiles, dashboardStreams, incidents } from "../store/schema";
import { sourceHref, withDecisions, type IncidentRow } from "./rows";

/**
 * The context beside a decision (issue #26.5, `context` of GET /api/incidents/<id>): the same source's other
 * incidents, and by the source's end user (contract tokenId, stored on dashboard_streams / dashboard_files) that
 * user's other streams, files and their incidents, each with its decision, plus counts over all of them.
 * Read only from the dashboard's own tables: exactly what the Streams, Files and Review pages list to the same
 * caller, never the service's task table (where other principals' tasks live).
 */

const level = (v: string | null): RiskLevel | null => (v === "PASS" || v === "REVIEW" || v === "REJECT" ? v : null);

function compact(i: Incident, earlier: boolean): ContextIncident {
  const { kind, requestId, ref, title, href } = i.source;
  return {
    type: "incident",
    id: i.id,
    source: { kind, requestId, ref, title, href },
    media: i.media,
    label: i.label,
    labelName: i.labelName,
    riskLevel: i.riskLevel,
    status: i.status,
    decision: i.lastDecision,
    timeBase: i.timeBase,
    start: i.start,
    end: i.end,
    hits: i.hits,
    createdAt: i.createdAt,
    earlier,
    href: `/review?id=${i.id}`,
  };
}

/** Incident counts by state, and how many are earlier, over a filter. */
async function counts(db: Db, filter: SQL, earlier: SQL): Promise<ContextCounts> {
  const rows = await db
    .select({ status: incidents.status, n: count(), earlier: sql<number>`count(*) filter (where ${earlier})`.mapWith(Number) })
    .from(incidents)
    .where(filter)
    .groupBy(incidents.status);
  const by = (s: IncidentState) => rows.find((r) => r.status === s)?.n ?? 0;
  return { incidents: rows.reduce((a, r) => a + r.n, 0), earlier: rows.reduce((a, r) => a + r.earlier, 0), open: by("open"), confirmed: by("confirmed"), cleared: by("cleared"), escalated: by("escalated") };
}

async function tokenOf(db: Db, row: IncidentRow): Promise<string | null> {
  const table = row.sourceKind === "stream" ? dashboardStreams : dashboardFiles;
  const [s] = await db.select({ tokenId: table.tokenId }).from(table).where(eq(table.requestId, row.requestId)).limit(1);
  return s?.tokenId ?? null;
}

/** Per listed source: its incidents, confirmed and cleared. */
async function perSource(db: Db, requestIds: string[]): Promise<Map<string, { incidents: number; confirmed: number; cleared: number }>> {
  const out = new Map<string, { incidents: number; confirmed: number; cleared: number }>();
  if (requestIds.length === 0) return out;
  const rows = await db.select({ requestId: incidents.requestId, status: incidents.status, n: count() }).from(incidents).where(inArray(incidents.requestId, requestIds)).groupBy(incidents.requestId, incidents.status);
  for (const r of rows) {
    const c = out.get(r.requestId) ?? { incidents: 0, confirmed: 0, cleared: 0 };
    c.incidents += r.n;
    if (r.status === "confirmed") c.confirmed += r.n;
    if (r.status === "cleared") c.cleared += r.n;
    out.set(r.requestId, c);
  }
  return out;
}

async function userSources(db: Db, tokenId: string, except: string, limit: number): Promise<{ items: ContextSource[]; streams: number; files: number }> {
  const [streams, files, [ns], [nf]] = await Promise.all([
    db.select().from(dashboardStreams).where(and(eq(dashboardStreams.tokenId, tokenId), ne(dashboardStreams.requestId, except))).orderBy(desc(dashboardStreams.startedAt)).limit(limit),
    db.select().from(dashboardFiles).where(and(eq(dashboardFiles.tokenId, tokenId), ne(dashboardFiles.requestId, except))).orderBy(desc(dashboardFiles.createdAt)).limit(limit),
    db.select({ n: count() }).from(dashboardStreams).where(and(eq(dashboardStreams.tokenId, tokenId), ne(dashboardStreams.requestId, except))),
    db.select({ n: count() }).from(dashboardFiles).where(and(eq(dashboardFiles.tokenId, tokenId), ne(dashboardFiles.requestId, except))),
  ]);
  const stats = await perSource(db, [...streams.map((s) => s.requestId), ...files.map((f) => f.requestId)]);
  const none = { incidents: 0, confirmed: 0, cleared: 0 };
  const items: ContextSource[] = [
    ...streams.map((s) => ({ type: "stream" as const, requestId: s.requestId, ref: s.requestId, title: s.title, href: sourceHref("stream", s.requestId), status: s.status, riskLevel: level(s.worstRisk), at: s.startedAt.toISOString(), origin: s.origin, keyName: s.keyName, ...(stats.get(s.requestId) ?? none) })),
    ...files.map((f) => ({ type: "file" as const, requestId: f.requestId, ref: f.btId, title: f.title, href: sourceHref("file", f.btId), status: f.status, riskLevel: level(f.riskLevel), at: f.createdAt.toISOString(), origin: f.origin, keyName: f.keyName, ...(stats.get(f.requestId) ?? none) })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return { items: items.slice(0, limit), streams: ns.n, files: nf.n };
}

export async function incidentContext(db: Db, id: string, limit = CONTEXT_LIMIT): Promise<IncidentContext | null> {
  const [row] = await db.select().from(incidents).where(eq(incidents.id, id)).limit(1);
  if (!row) return null;
  const newest = [desc(incidents.createdAt), desc(incidents.startT), desc(incidents.id)];

  const sameSourceFilter = and(eq(incidents.requestId, row.requestId), ne(incidents.id, row.id))!;
  // within one source the time base is shared: earlier is by start in it
  const sourceEarlier = sql`${incidents.startT} < ${row.startT} or (${incidents.startT} = ${row.startT} and ${incidents.createdAt} < ${row.createdAt.toISOString()}::timestamptz)`;
  const sourceRows = await db.select().from(incidents).where(sameSourceFilter).orderBy(...newest).limit(limit);
  const sameSource = (await withDecisions(db, sourceRows)).map((i) => compact(i, i.start < row.startT || (i.start === row.startT && i.createdAt < row.createdAt.toISOString())));
  const sourceCounts = await counts(db, sameSourceFilter, sourceEarlier);

  const tokenId = await tokenOf(db, row);
  const noUser = { incidents: 0, earlier: 0, open: 0, confirmed: 0, cleared: 0, escalated: 0, streams: 0, files: 0 };
  if (tokenId === null) return { sameSource, sameUser: [], tokenId, summary: { sameSource: sourceCounts, sameUser: noUser }, limit };

  const sources = await userSources(db, tokenId, row.requestId, limit);
  const userFilter = and(
    ne(incidents.requestId, row.requestId),
    or(
      inArray(incidents.requestId, db.select({ r: dashboardStreams.requestId }).from(dashboardStreams).where(eq(dashboardStreams.tokenId, tokenId))),
      inArray(incidents.requestId, db.select({ r: dashboardFiles.requestId }).from(dashboardFiles).where(eq(dashboardFiles.tokenId, tokenId))),
    ),
  )!;
  const userRows = await db.select().from(incidents).where(userFilter).orderBy(...newest).limit(limit);
  const userIncidents = (await withDecisions(db, userRows)).map((i) => compact(i, i.createdAt < row.createdAt.toISOString()));
  const userCounts = await counts(db, userFilter, sql`${incidents.createdAt} < ${row.createdAt.toISOString()}::timestamptz`);
  return {
    sameSource,
    sameUser: [...sources.items, ...userIncidents],
    tokenId,
    summary: { sameSource: sourceCounts, sameUser: { ...userCounts, streams: sources.streams, files: sources.files } },
    limit,
  };
}
