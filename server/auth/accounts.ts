// Dashboard accounts: list, create with a one-time password, change role / disable / reset (server/auth/index.ts
// spreads these into the auth object).
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { isRole, type Role, type SessionUser } from "../../lib/roles";
import type { Db } from "../store/db";
import { AuthError } from "./errors";
import { generatePassword, hashPassword } from "./passwords";
import { users, type UserRow } from "./schema";

const USERNAME = /^[a-z0-9][a-z0-9._-]{1,31}$/;

export function toUser(row: UserRow): SessionUser {
  return { id: row.id, username: row.username, role: isRole(row.role) ? row.role : "moderator", mustChangePassword: row.mustChangePassword };
}

export async function userByName(db: Db, username: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.username, username.toLowerCase())).limit(1))[0];
}

/** `dropSessions` ends an account's sessions (all of them) so a change applies at once. */
export function createAccounts(db: Db, dropSessions: (userId: string) => Promise<void>) {
  return {
    async listUsers(): Promise<Array<SessionUser & { disabled: boolean; external: string | null; createdAt: string }>> {
      const rows = await db.select().from(users).orderBy(users.username);
      return rows.map((r) => ({ ...toUser(r), disabled: r.disabled, external: r.external, createdAt: r.createdAt.toISOString() }));
    },

    /** New account with a one-time password (returned once, never stored in clear). */
    async createUser(username: string, role: Role): Promise<{ user: SessionUser; password: string }> {
      const name = username.trim().toLowerCase();
      if (!USERNAME.test(name)) throw new AuthError("username: 2–32 characters, lower-case letters, digits, dot, dash or underscore", 400);
      if (await userByName(db, name)) throw new AuthError(`username ${name} is taken`, 409);
      const password = generatePassword();
      const now = new Date();
      const row = { id: randomUUID(), username: name, role, passwordHash: await hashPassword(password), mustChangePassword: true, disabled: false, external: null, createdAt: now, updatedAt: now };
      await db.insert(users).values(row);
      return { user: toUser(row), password };
    },

    /** Role change, disable/enable or password reset; the account's sessions end so the change applies at once. */
    async updateUser(actorId: string, userId: string, change: { role?: Role; disabled?: boolean; resetPassword?: boolean }): Promise<{ user: SessionUser; password?: string }> {
      const row = (await db.select().from(users).where(eq(users.id, userId)).limit(1))[0];
      if (!row) throw new AuthError("no such user", 404);
      if (row.external && change.resetPassword) throw new AuthError(`${row.username} signs in through the identity provider (${row.external}): it has no password here`, 400);
      if (userId === actorId && (change.disabled === true || (change.role && change.role !== "supervisor"))) throw new AuthError("you cannot disable or demote your own account", 400);
      if (row.role === "supervisor" && (change.disabled === true || (change.role && change.role !== "supervisor"))) {
        const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(and(eq(users.role, "supervisor"), eq(users.disabled, false)));
        if (n <= 1) throw new AuthError("the last active supervisor cannot be disabled or demoted", 400);
      }
      const set: Partial<UserRow> = { updatedAt: new Date() };
      if (change.role) set.role = change.role;
      if (change.disabled !== undefined) set.disabled = change.disabled;
      let password: string | undefined;
      if (change.resetPassword) {
        password = generatePassword();
        set.passwordHash = await hashPassword(password);
        set.mustChangePassword = true;
      }
      await db.update(users).set(set).where(eq(users.id, userId));
      await dropSessions(userId);
      return { user: toUser({ ...row, ...set }), password };
    },
  };
}
