import { createHmac, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq, gt, inArray, lt, ne, sql } from "drizzle-orm";
import type { SessionUser } from "../../lib/roles";
import type { Store } from "../store/db";
import { createAccounts, toUser, userByName } from "./accounts";
import { createAuditLog } from "./audit-log";
import { signSessionId, unsignSessionId } from "./cookies";
import { AuthError } from "./errors";
import { sameSecret } from "../net/constant-time";
import { decoyHash, generatePassword, hashPassword, passwordProblem, verifyPassword } from "./passwords";
import { sessions, users, type UserRow } from "./schema";
import { SignInThrottle } from "./throttle";

export { AuthError } from "./errors";
export type { AuditEntry } from "./audit-log";

export interface AuthOptions {
  store: Store;
  dataDir: string;
  /** SESSION_SECRET; null → generated once and kept in DATA_DIR/session-secret */
  sessionSecret: string | null;
  sessionTtlHours: number;
  /** SUPERVISOR_INITIAL_PASSWORD: the first supervisor's password instead of a generated one-time one */
  initialPassword: string | null;
  log: (m: string) => void;
  /** SIGNIN_ACCOUNT_FAILURES: failures of one account from all addresses in 15 min before its attempts are spaced out (default 10) */
  signInAccountBudget?: number;
  /** SIGNIN_MAX_DELAY_SEC: the longest wait between an account's attempts once spaced out (default 60) */
  signInMaxDelaySec?: number;
}

export interface SignedIn {
  user: SessionUser;
  cookie: string;
  csrfToken: string;
  expiresAt: Date;
  /** the known-device token of this browser for this account (server/auth/throttle.ts) */
  device: string;
}

export interface SessionInfo {
  id: string;
  user: SessionUser;
  csrfToken: string;
  expiresAt: Date;
}

async function loadSecret(dataDir: string, given: string | null): Promise<Buffer> {
  if (given) return Buffer.from(given, "utf8");
  const file = path.join(dataDir, "session-secret");
  try {
    return Buffer.from(await fs.readFile(file, "utf8"), "base64");
  } catch {
    const secret = randomBytes(32);
    await fs.mkdir(dataDir, { recursive: true });
    await fs.writeFile(file, secret.toString("base64"), { mode: 0o600 });
    return secret;
  }
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

/** Dashboard accounts, sessions, sign-in throttling, audit log and review decisions. */
export async function createAuth(o: AuthOptions) {
  const db = o.store.db;
  const secret = await loadSecret(o.dataDir, o.sessionSecret);
  const ttlMs = o.sessionTtlHours * 3600_000;
  const throttle = new SignInThrottle({ windowMs: 15 * 60_000, perAccount: 5, perAddress: 30, accountBudget: o.signInAccountBudget ?? 10, accountMaxDelayMs: (o.signInMaxDelaySec ?? 60) * 1000 });
  // a browser that signed in to an account before carries a signed token naming it: it skips the account-wide delay
  const nameTag = (name: string) => Buffer.from(name).toString("base64url");
  const deviceToken = (name: string) => signSessionId(secret, `d.${nameTag(name)}.${randomBytes(12).toString("base64url")}`);
  const knownDevice = (token: string | undefined, name: string) => !!token && unsignSessionId(secret, token)?.split(".")[1] === nameTag(name);
  const waitText = (ms: number) => (ms < 60_000 ? `${Math.ceil(ms / 1000)} s` : `${Math.ceil(ms / 60_000)} min`);
  // a session's guesses at its account's current password (a stolen session must not brute-force the real
  // one, nor load the CPU with argon2): the sign-in's limit, per account whatever the address
  const passwordThrottle = new SignInThrottle({ windowMs: 15 * 60_000, perAccount: 5, perAddress: 5 });

  type Ended = { sessionId?: string; userId?: string; exceptSessionId?: string };
  const ended: Array<(q: Ended) => void> = [];
  /** Ends an account's sessions (all, or all but `keep`); live connections are told through onSessionsEnded. */
  async function dropSessions(userId: string, keep?: string): Promise<void> {
    await db.delete(sessions).where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
    for (const f of ended) f({ userId, exceptSessionId: keep });
  }

  const auditing = createAuditLog(db);
  const accounts = createAccounts(db, dropSessions);

  const auth = {
    ttlMs,
    ...accounts,
    ...auditing,

    onSessionsEnded(f: (q: Ended) => void): void {
      ended.push(f);
    },

    /** First start: with no account yet, create supervisor "admin" and print its password once. */
    async bootstrap(): Promise<{ username: string; password: string | null } | null> {
      const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      if (n > 0) return null;
      const password = o.initialPassword ?? generatePassword();
      const now = new Date();
      await db.insert(users).values({ id: randomUUID(), username: "admin", role: "supervisor", passwordHash: await hashPassword(password), mustChangePassword: o.initialPassword === null, createdAt: now, updatedAt: now }).onConflictDoNothing();
      if (o.initialPassword === null) {
        o.log(`> first start: supervisor account "admin" created; one-time password: ${password} (sign in at /signin and choose a new one)`);
        return { username: "admin", password };
      }
      o.log(`> first start: supervisor account "admin" created with the password from SUPERVISOR_INITIAL_PASSWORD`);
      return { username: "admin", password: null };
    },

    /** `device`: the browser's known-device token (cookie), if it has one. */
    async signIn(username: string, password: string, ip: string, userAgent: string | null, device?: string): Promise<SignedIn> {
      const name = username.trim().toLowerCase();
      const wait = throttle.retryAfterMs(ip, name, knownDevice(device, name));
      if (wait > 0) {
        await auth.audit({ username: name, action: "auth.signin", outcome: "throttled", ip });
        throw new AuthError(`too many failed sign-ins; try again in ${waitText(wait)}`, 429, Math.ceil(wait / 1000));
      }
      throttle.fail(ip, name);
      const row = await userByName(db, name);
      // an unknown name and an identity provider's account cost the same argon2 work: timing reveals neither
      const ok = row && !row.external ? await verifyPassword(row.passwordHash, password) : (await verifyPassword(await decoyHash(), password), false);
      // an account of the identity provider (OIDC) has no password here: its name never signs in with one
      if (!row || !ok || row.disabled || row.external) {
        await auth.audit({ username: name, action: "auth.signin", outcome: row?.external ? "external-account" : row?.disabled && ok ? "disabled" : "failed", ip });
        throw new AuthError("wrong username or password", 401);
      }
      throttle.succeed(ip, name);
      const s = await auth.openSession(row, ip, userAgent, { method: "password" });
      return { ...s, device: deviceToken(name) };
    },

    /** A new session for an account whose sign-in was checked (password here, or an identity provider): same cookies, CSRF token and lifetime. */
    async openSession(row: UserRow, ip: string, userAgent: string | null, detail: Record<string, unknown>): Promise<Omit<SignedIn, "device">> {
      const id = randomBytes(32).toString("base64url");
      const csrfToken = randomBytes(24).toString("base64url");
      const now = new Date();
      const expiresAt = new Date(now.getTime() + ttlMs);
      await db.insert(sessions).values({ id, userId: row.id, csrfToken, ip, userAgent: userAgent?.slice(0, 300) ?? null, createdAt: now, expiresAt });
      await db.delete(sessions).where(lt(sessions.expiresAt, now));
      const user = toUser(row);
      await auth.audit({ username: user.username, role: user.role, action: "auth.signin", outcome: "ok", ip, detail });
      return { user, cookie: signSessionId(secret, id), csrfToken, expiresAt };
    },

    /** A key for one purpose, derived from the session secret (e.g. sealing the OIDC flow cookie). */
    derivedKey(purpose: string): Buffer {
      return createHmac("sha256", secret).update(`derived-key:${purpose}`).digest();
    },

    async session(cookieValue: string | undefined): Promise<SessionInfo | null> {
      const id = cookieValue ? unsignSessionId(secret, cookieValue) : null;
      if (!id) return null;
      const rows = await db
        .select({ s: sessions, u: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())))
        .limit(1);
      const r = rows[0];
      if (!r || r.u.disabled) return null;
      return { id, user: toUser(r.u), csrfToken: r.s.csrfToken, expiresAt: r.s.expiresAt };
    },

    /** Which of these sessions still stand: not ended or expired, account enabled, no one-time password pending. */
    async liveSessions(ids: string[]): Promise<Set<string>> {
      const live = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .select({ id: sessions.id })
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(and(inArray(sessions.id, ids.slice(i, i + 500)), gt(sessions.expiresAt, new Date()), eq(users.disabled, false), eq(users.mustChangePassword, false)));
        for (const r of rows) live.add(r.id);
      }
      return live;
    },

    checkCsrf(session: SessionInfo, token: string | undefined): boolean {
      return typeof token === "string" && sameSecret(token, session.csrfToken);
    },

    async signOut(sessionId: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.id, sessionId));
      for (const f of ended) f({ sessionId });
    },

    /** The caller's other sessions end (a stolen session does not outlive a password change). */
    async changePassword(userId: string, current: string, next: string, keepSession?: string): Promise<void> {
      const wait = passwordThrottle.retryAfterMs(userId, userId);
      if (wait > 0) throw new AuthError(`too many wrong current passwords; try again in ${Math.ceil(wait / 60_000)} min`, 429, Math.ceil(wait / 1000));
      passwordThrottle.fail(userId, userId);
      const row = (await db.select().from(users).where(eq(users.id, userId)).limit(1))[0];
      if (row?.external) throw new AuthError("this account signs in through the identity provider: change the password there", 400);
      if (!row || !(await verifyPassword(row.passwordHash, current))) throw new AuthError("current password is wrong", 400);
      passwordThrottle.succeed(userId, userId);
      const problem = passwordProblem(next);
      if (problem) throw new AuthError(problem, 400);
      if (current === next) throw new AuthError("choose a password different from the current one", 400);
      await db.update(users).set({ passwordHash: await hashPassword(next), mustChangePassword: false, updatedAt: new Date() }).where(eq(users.id, userId));
      await dropSessions(userId, keepSession);
    },
  };
  return auth;
}
