import { bigserial, boolean, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Dashboard accounts, sessions, audit log and review decisions (migration 0100_auth). */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  username: text("username").notNull().unique(),
  role: text("role").notNull(),
  passwordHash: text("password_hash").notNull(),
  mustChangePassword: boolean("must_change_password").notNull().default(false),
  disabled: boolean("disabled").notNull().default(false),
  /** null: a local account (password); "oidc": signs in through the identity provider only (migration 0590_oidc) */
  external: text("external"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
});

export const sessions = pgTable("sessions", {
  id: text("id").primaryKey(),
  userId: text("user_id").notNull(),
  csrfToken: text("csrf_token").notNull(),
  ip: text("ip").notNull(),
  userAgent: text("user_agent"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});

export const auditLog = pgTable("audit_log", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  username: text("username"),
  role: text("role"),
  action: text("action").notNull(),
  target: text("target"),
  outcome: text("outcome").notNull(),
  ip: text("ip").notNull(),
  detail: jsonb("detail").$type<Record<string, unknown>>(),
});

export const reviewDecisions = pgTable("review_decisions", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  targetKind: text("target_kind").notNull(),
  targetId: text("target_id").notNull(),
  item: text("item"),
  /** the item in human terms, as the reviewer saw it ("frame at 00:06.0") */
  itemLabel: text("item_label"),
  decision: text("decision").notNull(),
  note: text("note"),
  username: text("username").notNull(),
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
});

export type UserRow = typeof users.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;
export type ReviewRow = typeof reviewDecisions.$inferSelect;
