import { jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** A user's own alert and wellness choices (a partial patch over the team and built-in defaults). */
export const userSettings = pgTable("user_settings", {
  userId: text("user_id").primaryKey(),
  settings: jsonb("settings").$type<unknown>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** One row ("team"): the wellness defaults a supervisor set for reviewers. */
export const teamSettings = pgTable("team_settings", {
  id: text("id").primaryKey(),
  settings: jsonb("settings").$type<unknown>().notNull(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** REJECT incidents a user viewed (revealed), once per incident per UTC day. */
export const userExposure = pgTable(
  "user_exposure",
  {
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    incidentId: text("incident_id").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.incidentId] })],
);
