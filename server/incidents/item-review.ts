import { and, desc, eq, inArray } from "drizzle-orm";
import { incidentTime, type IncidentDecision, type IncidentHit, type IncidentState } from "../../lib/incidents";
import { reviewDecisions } from "../auth/schema";
import { incidentDecisions, incidentHits, incidents } from "../store/schema";
import { categoryName } from "./hits";
import { publishIds, type ReviewDeps } from "./review";

/** A decision recorded on one frame or segment of a file or stream (POST /api/reviews with `item`). */
export interface ItemReview {
  targetKind: "file" | "stream";
  /** a file's btId, a stream's requestId */
  targetId: string;
  /** the frame's or segment's own requestId (an incident hit's itemId) */
  item: string;
  decision: IncidentDecision;
  note: string | null;
  username: string;
}

/** What an item decision did to one incident that has the item among its hits. */
export interface ItemEffect {
  incidentId: string;
  /** "Advertising 0:06–0:12" */
  incident: string;
  status: IncidentState;
  decided: boolean;
  /** why, in words: "confirmed through its frame at 0:06", or why it stays as it was */
  reason: string;
}

/**
 * The rule (docs/dashboard.md "Incidents and the review queue"): confirming or escalating any hit of an incident decides the
 * incident the same way (one confirmed frame is a confirmed violation); clearing a hit clears the incident only once
 * every one of its hits has been cleared, since the other frames may still show the violation.
 */
export function itemDecisionEffect(decision: IncidentDecision, hits: number, clearedHits: number): { decide: boolean; why: string | null } {
  if (decision !== "cleared") return { decide: true, why: null };
  if (clearedHits >= hits) return { decide: true, why: null };
  return { decide: false, why: `${clearedHits} of ${hits} hits cleared; the others are not reviewed` };
}

const itemWord = (media: string) => (media === "audio" ? "segment" : "frame");

/** Records an item decision on every incident of that source whose hits include the item (same note and reviewer). */
export async function decideByItem(d: ReviewDeps, r: ItemReview): Promise<ItemEffect[]> {
  const covering = await d.db
    .select({ row: incidents, hit: incidentHits.hit })
    .from(incidentHits)
    .innerJoin(incidents, eq(incidents.id, incidentHits.incidentId))
    .where(and(eq(incidentHits.itemId, r.item), eq(incidents.sourceKind, r.targetKind), eq(incidents.sourceRef, r.targetId)));
  const effects: ItemEffect[] = [];
  const decided: string[] = [];
  const now = new Date();
  for (const { row, hit } of covering) {
    const h = hit as unknown as IncidentHit;
    const name = `${itemWord(row.media)} at ${incidentTime(row, h.t)}`;
    const incident = `${categoryName(row.label)} ${incidentTime(row, row.startT)}–${incidentTime(row, row.endT)}`;
    const cleared = r.decision === "cleared" ? await clearedItems(d, r, row.id) : 0;
    const rule = itemDecisionEffect(r.decision, row.hits, cleared);
    if (!rule.decide) {
      effects.push({ incidentId: row.id, incident, status: row.status, decided: false, reason: `stays ${row.status}: ${rule.why}` });
      continue;
    }
    await d.db.transaction(async (tx) => {
      await tx.update(incidents).set({ status: r.decision, updatedAt: now, claimedBy: null, claimExpiresAt: null }).where(eq(incidents.id, row.id));
      await tx.insert(incidentDecisions).values({ incidentId: row.id, decision: r.decision, note: r.note, username: r.username, at: now, itemLabel: name });
    });
    decided.push(row.id);
    effects.push({ incidentId: row.id, incident, status: r.decision, decided: true, reason: `${r.decision} through its ${name}` });
  }
  await publishIds(d, decided);
  return effects;
}

/** How many of an incident's hits have "cleared" as their latest item decision. */
async function clearedItems(d: ReviewDeps, r: ItemReview, incidentId: string): Promise<number> {
  const items = (await d.db.select({ item: incidentHits.itemId }).from(incidentHits).where(eq(incidentHits.incidentId, incidentId))).map((x) => x.item);
  const reviews = await d.db
    .select({ item: reviewDecisions.item, decision: reviewDecisions.decision })
    .from(reviewDecisions)
    .where(and(eq(reviewDecisions.targetKind, r.targetKind), eq(reviewDecisions.targetId, r.targetId), inArray(reviewDecisions.item, items)))
    .orderBy(desc(reviewDecisions.id));
  const latest = new Map<string, string>();
  for (const x of reviews) if (x.item && !latest.has(x.item)) latest.set(x.item, x.decision);
  return [...latest.values()].filter((v) => v === "cleared").length;
}
