import crypto from "node:crypto";
import { and, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { RuleAction, RuleHit, RuleInput } from "../../lib/rules";
import type { IncidentFeedInput } from "../incidents/feed";
import { hitsOfFileResult, hitsOfStreamCallback } from "../incidents/hits";
import { incidentHits, incidents } from "../store/schema";
import { describeAction, runAction, type ActionDeps, type Firing } from "./actions";
import { hitMatches, ruleHitOf, sourceMatches, windowKey } from "./match";
import { ruleActivity, ruleMatches, rules } from "./schema";
import { sourceInfo, type SourceInfo } from "./source";
import { listRules } from "./store";

type RuleRow = typeof rules.$inferSelect;

export interface RuleEngineDeps extends ActionDeps {
  audit: (e: { username: string; action: string; target: string; outcome: string; detail: Record<string, unknown> }) => Promise<void>;
}

/**
 * Evaluates every rule that is not off on each accepted callback (after its incidents are grouped). The callback
 * reached exactly one dashboard node, so each hit is evaluated once cluster-wide; a retried callback adds no hit
 * (rule_matches is keyed by item). Acting is claimed by inserting the activity row (unique per rule, source, window,
 * mode and action): two nodes, a retry or a restart never act twice in one window.
 */
export function createRuleEngine(d: RuleEngineDeps) {
  async function evaluate(input: IncidentFeedInput): Promise<void> {
    const active = (await listRules(d.db)).filter((r) => r.mode !== "off");
    if (active.length === 0) return;
    const kind = input.kind;
    const hits = (kind === "stream" ? hitsOfStreamCallback(input.body, input.receivedAt, input.callbackId) : hitsOfFileResult(input.body)).map(ruleHitOf);
    if (hits.length === 0) return;
    const source = await sourceInfo(d.db, kind, input.requestId);
    for (const rule of active) {
      const def = rule.definition;
      if (!sourceMatches(def.when, source)) continue;
      const fired = def.when.incident ? await incidentCondition(rule, source, hits) : await countCondition(rule, source, hits.filter((h) => hitMatches(def.when, h)));
      if (fired && def.stopAfterMatch) break;
    }
  }

  async function countCondition(rule: RuleRow, source: SourceInfo, matching: RuleHit[]): Promise<boolean> {
    if (matching.length === 0) return false;
    const when = rule.definition.when;
    await d.db.insert(ruleMatches).values(matching.map((h) => ({ ruleId: rule.id, requestId: source.requestId, itemId: h.itemId, t: h.t, hit: h }))).onConflictDoNothing();
    const latest = Math.max(...matching.map((h) => h.t));
    const inWindow = and(eq(ruleMatches.ruleId, rule.id), eq(ruleMatches.requestId, source.requestId), gte(ruleMatches.t, latest - when.withinSec), lte(ruleMatches.t, latest));
    const [{ n }] = await d.db.select({ n: sql<number>`count(*)` }).from(ruleMatches).where(inWindow);
    if (Number(n) < when.count) return false;
    const windowHits = (await d.db.select({ hit: ruleMatches.hit }).from(ruleMatches).where(inWindow).orderBy(desc(ruleMatches.t)).limit(20)).map((r) => r.hit);
    const ids = await incidentsOf(source.requestId, windowHits);
    await fire(rule, source, `w${windowKey(latest, when.withinSec)}`, windowHits, ids);
    return true;
  }

  /** `when.incident`: an incident of this source (of the rule's labels/levels) reaches minHits hits and/or the level; once per incident. */
  async function incidentCondition(rule: RuleRow, source: SourceInfo, hits: RuleHit[]): Promise<boolean> {
    const when = rule.definition.when;
    const cond = when.incident!;
    const labels = [...new Set(hits.map((h) => h.label))];
    const rows = await d.db.select().from(incidents).where(and(eq(incidents.requestId, source.requestId), inArray(incidents.label, labels)));
    let fired = false;
    for (const i of rows) {
      if (when.labels && !when.labels.some((l) => l.toLowerCase() === i.label.toLowerCase())) continue;
      if (when.levels && !when.levels.includes(i.riskLevel)) continue;
      if (cond.minHits !== undefined && i.hits < cond.minHits) continue;
      if (cond.level === "REJECT" && i.riskLevel !== "REJECT") continue;
      const own = hits.filter((h) => h.label === i.label);
      await fire(rule, source, `i${i.id}`, own, [i.id]);
      fired = true;
    }
    return fired;
  }

  async function incidentsOf(requestId: string, hs: RuleHit[]): Promise<string[]> {
    const items = [...new Set(hs.map((h) => h.itemId.replace(/^(frame|audio):/, "")))];
    if (items.length === 0) return [];
    const rows = await d.db.selectDistinct({ id: incidentHits.incidentId }).from(incidentHits).where(and(eq(incidentHits.requestId, requestId), inArray(incidentHits.itemId, items)));
    return rows.map((r) => r.id);
  }

  async function fire(rule: RuleRow, source: SourceInfo, key: string, hits: RuleHit[], incidentIds: string[]): Promise<void> {
    const mode = rule.mode === "live" ? "live" : "shadow";
    for (const a of rule.definition.then) {
      const id = crypto.randomBytes(8).toString("hex");
      const claimed = await d.db
        .insert(ruleActivity)
        .values({ id, at: new Date(), ruleId: rule.id, ruleVersion: rule.version, requestId: source.requestId, sourceKind: source.kind, title: source.title, mode, action: a.action, windowKey: key, acted: false, outcome: mode === "shadow" ? `would ${describeAction(a)}` : "pending", hits })
        .onConflictDoNothing()
        .returning({ id: ruleActivity.id });
      if (claimed.length === 0 || mode === "shadow") continue;
      const firing: Firing = { activityId: id, rule: { id: rule.id, name: rule.name, version: rule.version }, source, hits, incidentIds };
      // a webhook retries for up to a minute: it must not hold up the next callback of this source
      const run = act(a, firing);
      if (a.action !== "webhook") await run;
    }
  }

  async function act(a: RuleAction, f: Firing): Promise<void> {
    const out = await runAction(d, a, f);
    await d.db.update(ruleActivity).set({ acted: out.acted, outcome: out.outcome }).where(eq(ruleActivity.id, f.activityId));
    await d.audit({ username: `rule:${f.rule.name}`, action: `rule.${a.action}`, target: f.source.requestId, outcome: out.acted ? "ok" : "not-acted", detail: { ruleId: f.rule.id, ruleVersion: f.rule.version, outcome: out.outcome } }).catch(() => undefined);
  }

  /** Live actions claimed but never finished (the process stopped between claim and action) run again: each action is idempotent. */
  async function resume(): Promise<void> {
    const stale = await d.db.select().from(ruleActivity).where(and(eq(ruleActivity.mode, "live"), eq(ruleActivity.outcome, "pending")));
    for (const s of stale) {
      const [rule] = await d.db.select().from(rules).where(eq(rules.id, s.ruleId)).limit(1);
      const a = rule?.definition.then.find((x: RuleInput["then"][number]) => x.action === s.action);
      if (!rule || !a) continue;
      const source = await sourceInfo(d.db, s.sourceKind, s.requestId);
      void act(a, { activityId: s.id, rule: { id: rule.id, name: rule.name, version: s.ruleVersion }, source, hits: s.hits, incidentIds: await incidentsOf(s.requestId, s.hits) });
    }
  }

  return { evaluate, resume };
}
