import crypto from "node:crypto";
import { and, asc, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Rule, RuleActivity, RuleInput, RulePatch } from "../../lib/rules";
import type { Db } from "../store/db";
import { ruleActivity, rules, ruleVersions } from "./schema";

type RuleRow = typeof rules.$inferSelect;

export const newRuleId = () => crypto.randomBytes(8).toString("hex");

/** A stored rule as the API shows it: a webhook's secret is never sent back, only whether one is set. */
export function toRule(r: RuleRow, reveal = false): Rule {
  const def = r.definition;
  const then = reveal ? def.then : def.then.map((a) => (a.action === "webhook" && a.secret ? { ...a, secret: "********" } : a));
  return { ...def, then, id: r.id, name: r.name, mode: r.mode, version: r.version, position: r.position, createdBy: r.createdBy, updatedBy: r.updatedBy, updatedAt: r.updatedAt.toISOString() };
}

export async function listRules(db: Db): Promise<RuleRow[]> {
  return db.select().from(rules).where(isNull(rules.deletedAt)).orderBy(asc(rules.position), asc(rules.createdAt));
}

export async function loadRule(db: Db, id: string): Promise<RuleRow | undefined> {
  return (await db.select().from(rules).where(and(eq(rules.id, id), isNull(rules.deletedAt))).limit(1))[0];
}

export async function createRule(db: Db, input: RuleInput, username: string): Promise<RuleRow> {
  const now = new Date();
  const [{ next }] = await db.select({ next: sql<number>`coalesce(max(${rules.position}), -1) + 1` }).from(rules).where(isNull(rules.deletedAt));
  const row = { id: newRuleId(), name: input.name, mode: input.mode, version: 1, position: Number(next), definition: input, createdBy: username, updatedBy: username, createdAt: now, updatedAt: now };
  await db.transaction(async (tx) => {
    await tx.insert(rules).values(row);
    await tx.insert(ruleVersions).values({ ruleId: row.id, version: 1, mode: input.mode, definition: input, changedBy: username, at: now });
  });
  return { ...row, deletedAt: null };
}

/** A change is a new version (kept with who made it); a webhook secret sent back masked keeps the stored one. */
export async function patchRule(db: Db, id: string, patch: RulePatch, username: string): Promise<RuleRow | null> {
  return db.transaction(async (tx) => {
    const [cur] = await tx.select().from(rules).where(and(eq(rules.id, id), isNull(rules.deletedAt))).for("update");
    if (!cur) return null;
    const { position, ...fields } = patch;
    const merged: RuleInput = { ...cur.definition, ...fields };
    if (fields.then) {
      // a webhook sent back without its secret (or masked) keeps the stored secret of the same URL
      merged.then = fields.then.map((a) => {
        if (a.action !== "webhook" || (a.secret !== undefined && a.secret !== "********")) return a;
        const old = cur.definition.then.find((o) => o.action === "webhook" && o.url === a.url);
        return old?.action === "webhook" && old.secret ? { ...a, secret: old.secret } : { action: a.action, url: a.url };
      });
    }
    const now = new Date();
    const version = cur.version + 1;
    await tx.update(rules).set({ name: merged.name, mode: merged.mode, definition: merged, version, updatedBy: username, updatedAt: now, ...(position !== undefined ? { position } : {}) }).where(eq(rules.id, id));
    await tx.insert(ruleVersions).values({ ruleId: id, version, mode: merged.mode, definition: merged, changedBy: username, at: now });
    return { ...cur, name: merged.name, mode: merged.mode, definition: merged, version, updatedBy: username, updatedAt: now, position: position ?? cur.position };
  });
}

/** Deleted rules keep their versions and activity (the audit trail names them). */
export async function deleteRule(db: Db, id: string, username: string): Promise<boolean> {
  const done = await db.update(rules).set({ deletedAt: new Date(), mode: "off", updatedBy: username }).where(and(eq(rules.id, id), isNull(rules.deletedAt))).returning({ id: rules.id });
  return done.length > 0;
}

export async function activityOf(db: Db, ruleId: string, since: Date, limit = 500): Promise<RuleActivity[]> {
  const rows = await db.select().from(ruleActivity).where(and(eq(ruleActivity.ruleId, ruleId), gte(ruleActivity.at, since))).orderBy(desc(ruleActivity.at)).limit(limit);
  return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), ruleId: r.ruleId, ruleVersion: r.ruleVersion, requestId: r.requestId, sourceKind: r.sourceKind, title: r.title, mode: r.mode, action: r.action as RuleActivity["action"], acted: r.acted, outcome: r.outcome, hits: r.hits }));
}
