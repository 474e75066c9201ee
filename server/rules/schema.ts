import { boolean, doublePrecision, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { RuleHit, RuleInput } from "../../lib/rules";

const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Rules (migration 0400_rules): the current definition; every version is kept in rule_versions. */
export const rules = pgTable("rules", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  mode: text("mode").$type<"off" | "shadow" | "live">().notNull(),
  version: integer("version").notNull(),
  position: integer("position").notNull(),
  definition: jsonb("definition").$type<RuleInput>().notNull(),
  createdBy: text("created_by").notNull(),
  updatedBy: text("updated_by").notNull(),
  createdAt: at("created_at").notNull(),
  updatedAt: at("updated_at").notNull(),
  deletedAt: at("deleted_at"),
});

export const ruleVersions = pgTable("rule_versions", {
  ruleId: text("rule_id").notNull(),
  version: integer("version").notNull(),
  mode: text("mode").notNull(),
  definition: jsonb("definition").$type<RuleInput>().notNull(),
  changedBy: text("changed_by").notNull(),
  at: at("at").notNull(),
}, (t) => [primaryKey({ columns: [t.ruleId, t.version] })]);

/** The hits a rule counted, once each (a retried callback counts once), for its sliding window. */
export const ruleMatches = pgTable("rule_matches", {
  ruleId: text("rule_id").notNull(),
  requestId: text("request_id").notNull(),
  itemId: text("item_id").notNull(),
  t: doublePrecision("t").notNull(),
  hit: jsonb("hit").$type<RuleHit>().notNull(),
}, (t) => [primaryKey({ columns: [t.ruleId, t.requestId, t.itemId] })]);

/** What a rule did (live) or would have done (shadow); unique per rule, source, window, mode and action: acting is claimed by the insert. */
export const ruleActivity = pgTable("rule_activity", {
  id: text("id").primaryKey(),
  at: at("at").notNull(),
  ruleId: text("rule_id").notNull(),
  ruleVersion: integer("rule_version").notNull(),
  requestId: text("request_id").notNull(),
  sourceKind: text("source_kind").$type<"stream" | "file">().notNull(),
  title: text("title"),
  mode: text("mode").$type<"shadow" | "live">().notNull(),
  action: text("action").notNull(),
  windowKey: text("window_key").notNull(),
  acted: boolean("acted").notNull(),
  outcome: text("outcome").notNull(),
  hits: jsonb("hits").$type<RuleHit[]>().notNull(),
});
