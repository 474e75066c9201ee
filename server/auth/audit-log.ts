// The dashboard's audit log and review decisions (server/auth/index.ts spreads these into the auth object).
import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../store/db";
import { AuditBudget } from "./audit-budget";
import { auditLog, reviewDecisions, type AuditRow } from "./schema";

export interface AuditEntry {
  username?: string | null;
  role?: string | null;
  action: string;
  target?: string | null;
  outcome: string;
  ip: string;
  detail?: Record<string, unknown> | null;
  /** anyone can cause this refusal (e.g. a forged OIDC callback): written within AuditBudget's limits */
  bounded?: boolean;
}

/** Refusals anyone can cause, written within AuditBudget's limits: requests without a session, throttled sign-ins. */
const STRANGER_OUTCOMES = new Set(["unauthenticated", "throttled"]);
const STRANGER_WINDOW_MIN = 10;
const STRANGER_OVERALL = 500;
const MAX_TARGET = 512;

/** Writes and pages the audit log; records and lists review decisions. */
export function createAuditLog(db: Db) {
  const strangers = new AuditBudget({ windowMs: STRANGER_WINDOW_MIN * 60_000, perAddress: 20, overall: STRANGER_OVERALL });
  return {
    async audit(e: AuditEntry): Promise<void> {
      let detail = e.detail ?? null;
      if (STRANGER_OUTCOMES.has(e.outcome) || e.bounded) {
        const take = strangers.take(e.ip);
        if (take === "drop") return;
        if (take === "last") detail = { ...detail, note: `more refusals from ${e.ip} in the next ${STRANGER_WINDOW_MIN} min are not written one by one` };
        if (take === "last-overall") detail = { ...detail, note: `refusals without a session reached ${STRANGER_OVERALL} in ${STRANGER_WINDOW_MIN} min: more from any address are not written one by one until then` };
      }
      // a stranger chooses the target (path and query): bounded
      const target = e.target && e.target.length > MAX_TARGET ? `${e.target.slice(0, MAX_TARGET)}…` : (e.target ?? null);
      await db.insert(auditLog).values({ at: new Date(), username: e.username ?? null, role: e.role ?? null, action: e.action, target, outcome: e.outcome, ip: e.ip, detail });
    },

    async auditPage(q: { limit: number; before?: number; action?: string; username?: string }): Promise<AuditRow[]> {
      const where: SQL[] = [];
      if (q.before) where.push(lt(auditLog.id, q.before));
      if (q.action) where.push(sql`${auditLog.action} LIKE ${`${q.action}%`}`);
      if (q.username) where.push(eq(auditLog.username, q.username.toLowerCase()));
      return db.select().from(auditLog).where(where.length ? and(...where) : undefined).orderBy(desc(auditLog.id)).limit(q.limit);
    },

    async recordReview(r: { targetKind: "file" | "stream"; targetId: string; item: string | null; itemLabel: string | null; decision: string; note: string | null; username: string }) {
      const [row] = await db.insert(reviewDecisions).values({ ...r, at: new Date() }).returning();
      return row;
    },

    async reviews(targetKind: "file" | "stream", targetId: string) {
      return db.select().from(reviewDecisions).where(and(eq(reviewDecisions.targetKind, targetKind), eq(reviewDecisions.targetId, targetId))).orderBy(desc(reviewDecisions.id)).limit(500);
    },
  };
}
