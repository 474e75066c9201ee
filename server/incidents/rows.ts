import { desc, inArray } from "drizzle-orm";
import type { DecisionRecord, Incident, IncidentDecision, IncidentHit } from "../../lib/incidents";
import type { Db } from "../store/db";
import { incidentDecisions, incidents } from "../store/schema";
import { categoryName } from "./hits";
import type { Summary } from "./grouping";

export type IncidentRow = typeof incidents.$inferSelect;
type DecisionRow = typeof incidentDecisions.$inferSelect;

export const sourceHref = (kind: "stream" | "file", ref: string) => (kind === "stream" ? `/streams/${encodeURIComponent(ref)}` : `/files/${encodeURIComponent(ref)}`);

export function toDecision(r: DecisionRow): DecisionRecord {
  return { decision: r.decision as IncidentDecision, note: r.note, username: r.username, at: r.at.toISOString(), itemLabel: r.itemLabel };
}

export function toIncident(r: IncidentRow, last: DecisionRow | undefined): Incident {
  return {
    id: r.id,
    source: { kind: r.sourceKind, requestId: r.requestId, ref: r.sourceRef, title: r.title, url: r.url, href: sourceHref(r.sourceKind, r.sourceRef) },
    media: r.media,
    label: r.label,
    labelName: categoryName(r.label),
    labels: r.labels,
    riskLevel: r.riskLevel,
    timeBase: r.timeBase,
    start: r.startT,
    end: r.endT,
    hits: r.hits,
    peak: r.peak as unknown as IncidentHit,
    status: r.status,
    assignee: r.assignee,
    lastDecision: last ? toDecision(last) : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The summary columns of a row (for extending it with one more hit). */
export function summaryOf(r: IncidentRow): Summary {
  return { start: r.startT, end: r.endT, hits: r.hits, riskLevel: r.riskLevel, labels: r.labels, peak: r.peak as unknown as IncidentHit };
}

/** The columns a summary sets. */
export function summaryColumns(s: Summary) {
  return {
    startT: s.start,
    endT: s.end,
    hits: s.hits,
    riskLevel: s.riskLevel as "REVIEW" | "REJECT",
    labels: s.labels,
    peak: s.peak as unknown as Record<string, unknown>,
    peakScore: s.peak.score,
  };
}

/** Rows → incidents with their latest decision (one extra query for the lot). */
export async function withDecisions(db: Db, rows: IncidentRow[]): Promise<Incident[]> {
  if (rows.length === 0) return [];
  const decided = await db.select().from(incidentDecisions).where(inArray(incidentDecisions.incidentId, rows.map((r) => r.id))).orderBy(desc(incidentDecisions.at), desc(incidentDecisions.id));
  const last = new Map<string, DecisionRow>();
  for (const d of decided) if (!last.has(d.incidentId)) last.set(d.incidentId, d);
  return rows.map((r) => toIncident(r, last.get(r.id)));
}
