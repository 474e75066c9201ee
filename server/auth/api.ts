import { z } from "zod";
import { IDENTITY_HEADERS, REVIEW_DECISIONS, ROLES, SESSION_COOKIE, type Role } from "../../lib/roles";
import { parseCookies } from "./cookies";
import { AuthError, type Auth, type SessionInfo } from "./index";
import { clearedCookies, sessionCookies } from "./gate";
import { DEVICE_COOKIE, deviceCookie } from "./device";
import type { ItemEffect, ItemReview } from "../incidents/item-review";

/** The dashboard's account, user, audit and review APIs: route handlers pass the Request here. */

/** A JSON answer (no-store), with cookies to set; shared by the dashboard APIs that read sessions (server/settings). */
export function answer(body: unknown, status = 200, cookies: string[] = []): Response {
  const headers = new Headers({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(JSON.stringify(body), { status, headers });
}

/** An AuthError or a zod error as its JSON answer; anything else is rethrown. */
export const problem = (err: unknown): Response => {
  if (err instanceof AuthError) {
    const res = answer({ error: err.message }, err.status);
    if (err.retryAfterSec) res.headers.set("retry-after", String(err.retryAfterSec));
    return res;
  }
  if (err instanceof z.ZodError) return answer({ error: err.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") }, 400);
  throw err;
};

/** The request body parsed with `schema` (not JSON: an AuthError 400). */
export async function body<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const raw = await req.json().catch(() => {
    throw new AuthError("body must be JSON", 400);
  });
  return schema.parse(raw);
}

/** Who the gate says is calling (it strips these headers from client requests and sets them itself). */
export function identity(req: Request): { id: string; username: string; role: Role; sessionId: string; ip: string; https: boolean } {
  const h = (k: string) => req.headers.get(k) ?? "";
  const id = h(IDENTITY_HEADERS.id);
  if (!id) throw new AuthError("sign in required", 401);
  return { id, username: h(IDENTITY_HEADERS.username), role: h(IDENTITY_HEADERS.role) as Role, sessionId: h(IDENTITY_HEADERS.session), ip: h(IDENTITY_HEADERS.ip), https: h(IDENTITY_HEADERS.https) === "1" };
}

const SignIn = z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) });
const PasswordChange = z.object({ current: z.string().min(1).max(256), next: z.string().min(1).max(256) });
const NewUser = z.object({ username: z.string().min(1).max(64), role: z.enum(ROLES) });
const UserChange = z.object({ role: z.enum(ROLES).optional(), disabled: z.boolean().optional(), resetPassword: z.boolean().optional() }).refine((c) => c.role !== undefined || c.disabled !== undefined || c.resetPassword, "nothing to change");
const Review = z.object({
  targetKind: z.enum(["file", "stream"]),
  targetId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
  item: z.string().max(200).nullish(),
  itemLabel: z.string().trim().max(80).nullish(),
  decision: z.enum(REVIEW_DECISIONS),
  note: z.string().max(2000).nullish(),
});

/** Carries a decision on one item (frame or segment) to the incidents it is a hit of (server/incidents/item-review.ts). */
export type ItemReviewHook = (r: ItemReview) => Promise<ItemEffect[]>;

export function createAuthApi(auth: Auth, hooks: { onItemReview?: ItemReviewHook } = {}) {
  return {
    /** The caller's session, read from its own cookie (route handlers check it themselves: server/auth/guard.ts). */
    sessionOf: (req: Request) => auth.session(parseCookies(req.headers.get("cookie") ?? undefined).get(SESSION_COOKIE)),
    checkCsrf: (session: SessionInfo, token: string | undefined) => auth.checkCsrf(session, token),
    async signIn(req: Request): Promise<Response> {
      try {
        const b = await body(req, SignIn);
        const ip = req.headers.get(IDENTITY_HEADERS.ip) ?? "unknown";
        const device = parseCookies(req.headers.get("cookie") ?? undefined).get(DEVICE_COOKIE);
        const s = await auth.signIn(b.username, b.password, ip, req.headers.get("user-agent"), device);
        const secure = req.headers.get(IDENTITY_HEADERS.https) === "1";
        return answer({ user: s.user }, 200, [...sessionCookies(s, secure), deviceCookie(s.device, secure)]);
      } catch (err) {
        return problem(err);
      }
    },
    async signOut(req: Request): Promise<Response> {
      try {
        await auth.signOut(identity(req).sessionId);
        return answer({ ok: true }, 200, clearedCookies());
      } catch (err) {
        return problem(err);
      }
    },
    async me(req: Request): Promise<Response> {
      try {
        const me = identity(req);
        const s = (await auth.listUsers()).find((u) => u.id === me.id);
        return s ? answer({ user: { id: s.id, username: s.username, role: s.role, mustChangePassword: s.mustChangePassword } }) : answer({ error: "sign in required" }, 401);
      } catch (err) {
        return problem(err);
      }
    },
    async changePassword(req: Request): Promise<Response> {
      try {
        const b = await body(req, PasswordChange);
        const me = identity(req);
        await auth.changePassword(me.id, b.current, b.next, me.sessionId);
        return answer({ ok: true, message: "password changed" });
      } catch (err) {
        return problem(err);
      }
    },
    async users(): Promise<Response> {
      return answer({ users: await auth.listUsers() });
    },
    async createUser(req: Request): Promise<Response> {
      try {
        const b = await body(req, NewUser);
        const r = await auth.createUser(b.username, b.role);
        return answer({ user: r.user, password: r.password, message: `created ${r.user.username} (${r.user.role})` }, 201);
      } catch (err) {
        return problem(err);
      }
    },
    async updateUser(req: Request, userId: string): Promise<Response> {
      try {
        const b = await body(req, UserChange);
        const r = await auth.updateUser(identity(req).id, userId, b);
        const what = [b.role && `role ${b.role}`, b.disabled !== undefined && (b.disabled ? "disabled" : "enabled"), b.resetPassword && "password reset"].filter(Boolean).join(", ");
        return answer({ user: r.user, password: r.password, message: `${r.user.username}: ${what}` });
      } catch (err) {
        return problem(err);
      }
    },
    async audit(req: Request): Promise<Response> {
      const q = new URL(req.url).searchParams;
      const limit = Math.min(500, Math.max(1, Number(q.get("limit")) || 100));
      const before = Number(q.get("before")) || undefined;
      const entries = await auth.auditPage({ limit, before, action: q.get("action") || undefined, username: q.get("username") || undefined });
      return answer({ entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })), next: entries.length === limit ? entries[entries.length - 1].id : null });
    },
    async recordReview(req: Request): Promise<Response> {
      try {
        const b = await body(req, Review);
        const r = { targetKind: b.targetKind, targetId: b.targetId, decision: b.decision, note: b.note?.trim() || null, username: identity(req).username };
        const row = await auth.recordReview({ ...r, item: b.item ?? null, itemLabel: b.itemLabel || null });
        const incidents = b.item && hooks.onItemReview ? await hooks.onItemReview({ ...r, item: b.item }) : [];
        const message = [`recorded ${row.decision}`, ...incidents.map((e) => `incident ${e.incident}: ${e.reason}`)].join("; ");
        return answer({ review: { ...row, at: row.at.toISOString() }, incidents, decision: row.decision, message }, 201);
      } catch (err) {
        return problem(err);
      }
    },
    async reviews(req: Request): Promise<Response> {
      const q = new URL(req.url).searchParams;
      const kind = q.get("targetKind");
      const id = q.get("targetId") ?? "";
      if ((kind !== "file" && kind !== "stream") || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) return answer({ error: "targetKind (file|stream) and targetId are required" }, 400);
      const rows = await auth.reviews(kind, id);
      return answer({ reviews: rows.map((r) => ({ ...r, at: r.at.toISOString() })) });
    },
  };
}
export type AuthApi = ReturnType<typeof createAuthApi>;
