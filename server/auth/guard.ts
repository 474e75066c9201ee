import { can, CSRF_HEADER, IDENTITY_HEADERS } from "../../lib/roles";
import { getRegistry } from "../registry";
import { accessRule, bodyLimit, isSafeMethod } from "./access";
import { readRequestTarget } from "./request-target";

/**
 * The path the rules are matched on: the request's own (as the gate read it), when it is one this route serves;
 * otherwise the route's template with its parameters filled in (`sample`). Matching only the template gave
 * `/api/lists/images` the rule of `/api/lists/[kind]` (64 KB) instead of the upload rule the gate applied (50 MB).
 */
function rulePath(req: Request, route: string, sample: string): string {
  let target: ReturnType<typeof readRequestTarget> = null;
  try {
    const u = new URL(req.url);
    target = readRequestTarget(u.pathname + u.search);
  } catch {
    return sample;
  }
  if (!target) return sample;
  const want = route.split("/");
  const got = target.pathname.split("/");
  const fits = want.length === got.length && want.every((w, i) => (/^\[[^\]]+\]$/.test(w) ? got[i] !== "" : w.toLowerCase() === got[i].toLowerCase()));
  return fits ? target.pathname : sample;
}

/**
 * Defence in depth for every dashboard route handler: the gate in the custom server already
 * decided, but a handler never trusts that alone. It reads the access rule of its own route (the
 * role table in access.ts stays the single source of truth), checks the caller's session cookie,
 * role, one-time-password state, CSRF token and body size itself, and refuses what the gate should
 * have refused. Such a refusal means the gate read the request differently: it is logged and
 * counted (`gateMisses()`), and answered with `x-mp-refused-by: handler`.
 *
 * `route` is the handler's path as declared under app/ (e.g. "/api/streams/[requestId]/close").
 */
export function guard<C>(route: string, handler: (req: Request, ctx: C) => Response | Promise<Response>): (req: Request, ctx: C) => Promise<Response> {
  const sample = route.replace(/\[[^\]]+\]/g, "x");
  return async (req, ctx) => {
    const rule = accessRule(req.method, rulePath(req, route, sample));
    if (rule.access === "public") return handler(req, ctx);
    if (rule.access === "never") return refuse(req, route, 404, "not found");
    const length = Number(req.headers.get("content-length") ?? 0);
    if (!Number.isFinite(length) || length > bodyLimit(rule)) return refuse(req, route, 413, `body larger than ${bodyLimit(rule)} bytes`);
    const auth = getRegistry().auth;
    const session = await auth.sessionOf(req);
    if (!session) return refuse(req, route, 401, "sign in required");
    // the identity the gate handed on must be this very session (handlers read it from these headers)
    if (req.headers.get(IDENTITY_HEADERS.session) !== session.id || req.headers.get(IDENTITY_HEADERS.id) !== session.user.id) return refuse(req, route, 401, "sign in required");
    if (session.user.mustChangePassword && !/^\/api\/auth\//.test(sample)) return refuse(req, route, 403, "change your one-time password first (Account page)");
    if (rule.access !== "signed-in" && !can(session.user.role, rule.access)) return refuse(req, route, 403, `your role (${session.user.role}) may not do this`);
    if (!isSafeMethod(req.method) && !rule.csrfExempt && !auth.checkCsrf(session, req.headers.get(CSRF_HEADER) ?? undefined)) return refuse(req, route, 403, "CSRF check failed: reload the page and try again");
    return handler(req, ctx);
  };
}

const MISSES = Symbol.for("moderation-platform.gate-misses");
type Holder = { [MISSES]?: number };

/** How many requests route handlers refused after the gate let them through (should stay 0). */
export function gateMisses(): number {
  return (globalThis as Holder)[MISSES] ?? 0;
}

function refuse(req: Request, route: string, status: number, error: string): Response {
  const g = globalThis as Holder;
  g[MISSES] = (g[MISSES] ?? 0) + 1;
  console.error(`[auth] route handler ${route} refused ${req.method} (${status} ${error}): the gate let it through`);
  return new Response(JSON.stringify({ error }), { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-mp-refused-by": "handler" } });
}
