// A known review history written straight into a store: incidents, their hits (with the engine's level on each),
// decisions by two reviewers at known times and one item decision on a single frame. The team metrics figures
// over it are worked out by hand in tests/integration/review-metrics.test.ts; tests/e2e/metrics.spec.ts draws them.
import { reviewDecisions } from "../../server/auth/schema";
import { openStore, type Db } from "../../server/store/db";
import { reviewQueues } from "../../server/queues/schema";
import { incidentDecisions, incidentHits, incidents } from "../../server/store/schema";

const MIN = 60_000;
type Level = "REVIEW" | "REJECT";

interface SeedIncident {
  id: string;
  label: "ad" | "porn";
  level: Level;
  /** minutes from t0 */
  created: number;
  /** the engine's level on each hit */
  hits: Level[];
  /** [reviewer, decision, minutes from t0], in order */
  decisions: Array<[string, "confirmed" | "cleared" | "escalated", number]>;
}

/**
 * t0 = the start of the history's first hour. A–D are decided in the 3 hours from t0, E is still open, F is open
 * since before t0, G was decided before t0. Bob clears one of B's two frames on its own (an item decision).
 */
export const HISTORY: SeedIncident[] = [
  { id: "metrics-a", label: "ad", level: "REVIEW", created: 10, hits: ["REVIEW", "REVIEW", "REVIEW"], decisions: [["alice", "cleared", 20]] },
  { id: "metrics-b", label: "ad", level: "REJECT", created: 30, hits: ["REJECT", "REJECT"], decisions: [["alice", "confirmed", 70]] },
  { id: "metrics-c", label: "porn", level: "REJECT", created: 65, hits: ["REJECT", "REVIEW"], decisions: [["bob", "cleared", 75], ["alice", "confirmed", 120]] },
  { id: "metrics-d", label: "ad", level: "REVIEW", created: 90, hits: ["REVIEW", "REVIEW"], decisions: [["bob", "escalated", 150]] },
  { id: "metrics-e", label: "porn", level: "REJECT", created: 130, hits: ["REJECT", "REJECT"], decisions: [] },
  { id: "metrics-f", label: "ad", level: "REVIEW", created: -120, hits: ["REVIEW"], decisions: [] },
  { id: "metrics-g", label: "ad", level: "REVIEW", created: -60, hits: ["REVIEW"], decisions: [["bob", "confirmed", -30]] },
];
/** A review queue for advertising: every "ad" incident is in it, the porn ones in the default queue (queue_id unset). */
export const ADS_QUEUE = { id: "q-ads", name: "Advertising queue" } as const;
/** Bob's decision on B's first frame alone, 80 minutes after t0. */
export const ITEM_DECISION = { incident: "metrics-b", hit: 0, username: "bob", decision: "cleared", minutes: 80 } as const;

const itemId = (incident: string, i: number) => `${incident}-frame-${i}`;

export async function seedReviewHistory(db: Db, t0: number): Promise<void> {
  const at = (m: number) => new Date(t0 + m * MIN);
  await db.insert(reviewQueues).values({ ...ADS_QUEUE, position: 1, rule: { labels: ["ad"] }, order: "oldest", roles: [], users: [], isDefault: false, createdBy: "admin", createdAt: at(-180), updatedAt: at(-180) });
  for (const x of HISTORY) {
    const requestId = `req-${x.id}`;
    const hit = (level: Level, i: number) => ({ itemId: itemId(x.id, i), t: x.created * 60 + i, endT: x.created * 60 + i, score: 0.9, riskLevel: level, labels: [], mediaUrl: null, evidence: { qr: [], words: [], faces: [] } });
    await db.insert(incidents).values({
      id: x.id, sourceKind: "stream", requestId, sourceRef: requestId, title: `seeded ${x.id}`, url: null, media: "frame", label: x.label, labels: [], riskLevel: x.level,
      timeBase: "epoch", startT: (t0 / 1000) + x.created * 60, endT: (t0 / 1000) + x.created * 60 + x.hits.length, hits: x.hits.length, peak: hit(x.level, 0), peakScore: 0.9,
      status: x.decisions.at(-1)?.[1] ?? "open", assignee: null, queueId: x.label === "ad" ? ADS_QUEUE.id : null, createdAt: at(x.created), updatedAt: at(x.decisions.at(-1)?.[2] ?? x.created),
    });
    await db.insert(incidentHits).values(x.hits.map((level, i) => ({ incidentId: x.id, requestId, media: "frame", label: x.label, itemId: itemId(x.id, i), t: x.created * 60 + i, hit: hit(level, i), body: {} })));
    for (const [username, decision, m] of x.decisions) await db.insert(incidentDecisions).values({ incidentId: x.id, decision, note: null, username, at: at(m) });
  }
  const d = ITEM_DECISION;
  await db.insert(reviewDecisions).values({ targetKind: "stream", targetId: `req-${d.incident}`, item: itemId(d.incident, d.hit), itemLabel: "frame", decision: d.decision, note: null, username: d.username, at: at(d.minutes) });
}

/** For a server about to start on `dataDir` (tests/e2e/start-server.ts, E2E_SEED_REVIEW_T0): seeds its embedded store. */
export async function seedReviewHistoryDir(dataDir: string, t0: number): Promise<void> {
  const store = await openStore({ dataDir });
  try {
    await seedReviewHistory(store.db, t0);
  } finally {
    await store.close();
  }
}
