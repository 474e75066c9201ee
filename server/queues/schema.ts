import { boolean, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { QueueOrder, QueueRule } from "../../lib/queues";

/** Review queues (migration 0300_review_queues): first match by position wins; the default one (is_default) catches the rest. */
export const reviewQueues = pgTable("review_queues", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  position: integer("position").notNull(),
  rule: jsonb("rule").$type<QueueRule>().notNull(),
  order: text("order_by").$type<QueueOrder>().notNull(),
  roles: jsonb("roles").$type<string[]>().notNull(),
  users: jsonb("users").$type<string[]>().notNull(),
  isDefault: boolean("is_default").notNull().default(false),
  createdBy: text("created_by"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
});
export type QueueRow = typeof reviewQueues.$inferSelect;
