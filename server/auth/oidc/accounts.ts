import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { Role } from "../../../lib/roles";
import type { Store } from "../../store/db";
import { users, type UserRow } from "../schema";

/** Which local account an identity of the provider is (migration 0590_oidc). */
export const oidcIdentities = pgTable(
  "oidc_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] })],
);

/** A username for a new account from the provider's names: lower-case, the product's alphabet, 2–32 characters. */
export function usernameFrom(claims: { preferred_username?: unknown; email?: unknown; sub: string }): string {
  const pick = [claims.preferred_username, typeof claims.email === "string" ? claims.email.split("@")[0] : undefined, claims.sub].find((v): v is string => typeof v === "string" && v.trim() !== "");
  let name = (pick ?? claims.sub)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 32);
  if (name.length < 2) name = `user-${name}`.slice(0, 32);
  return name;
}

/**
 * The local record of an identity (issuer + subject), created on first sign-in (external, no password) and given the
 * role the provider's claim maps to on every sign-in. A local account with the same name is never taken over: the
 * new account gets a free name beside it. A disabled record stays disabled.
 */
export async function accountFor(store: Store, id: { issuer: string; subject: string; claims: { preferred_username?: unknown; email?: unknown; sub: string } }, role: Role): Promise<{ row: UserRow; created: boolean; previousRole: string | null }> {
  const db = store.db;
  const now = new Date();
  const link = (await db.select().from(oidcIdentities).where(and(eq(oidcIdentities.issuer, id.issuer), eq(oidcIdentities.subject, id.subject))).limit(1))[0];
  if (link) {
    const row = (await db.select().from(users).where(eq(users.id, link.userId)).limit(1))[0];
    if (row) {
      await db.update(oidcIdentities).set({ lastSignInAt: now }).where(and(eq(oidcIdentities.issuer, id.issuer), eq(oidcIdentities.subject, id.subject)));
      if (row.role === role) return { row, created: false, previousRole: row.role };
      await db.update(users).set({ role, updatedAt: now }).where(eq(users.id, row.id));
      return { row: { ...row, role, updatedAt: now }, created: false, previousRole: row.role };
    }
    // the account was deleted: the identity gets a new one
    await db.delete(oidcIdentities).where(and(eq(oidcIdentities.issuer, id.issuer), eq(oidcIdentities.subject, id.subject)));
  }
  const base = usernameFrom(id.claims);
  for (let n = 1; n < 100; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const username = `${base.slice(0, 32 - suffix.length)}${suffix}`;
    // "!" is no argon2 hash: no password ever verifies against it, and `external` refuses the password form besides
    const row: UserRow = { id: randomUUID(), username, role, passwordHash: "!external", mustChangePassword: false, disabled: false, external: "oidc", createdAt: now, updatedAt: now };
    const inserted = await db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id });
    if (!inserted.length) continue;
    const linked = await db.insert(oidcIdentities).values({ issuer: id.issuer, subject: id.subject, userId: row.id, createdAt: now, lastSignInAt: now }).onConflictDoNothing().returning({ userId: oidcIdentities.userId });
    if (linked.length) return { row, created: true, previousRole: null };
    // a parallel first sign-in of the same identity won: use its account
    await db.delete(users).where(eq(users.id, row.id));
    return accountFor(store, id, role);
  }
  throw new Error(`no free username for ${base}`);
}
