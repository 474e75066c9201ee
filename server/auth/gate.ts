import type http from "node:http";
import { can, CSRF_COOKIE, CSRF_HEADER, IDENTITY_HEADERS, SESSION_COOKIE, type SessionUser } from "../../lib/roles";
import { accessRule, bodyLimit, isSafeMethod } from "./access";
import { parseCookies, serializeCookie } from "./cookies";
import { applySecurityHeaders } from "./headers";
import { clientIp } from "../service/client-ip";
import { readRequestTarget } from "./request-target";
import type { Auth, SessionInfo } from "./index";


export interface GateOptions {
  auth: Auth;
  dev: boolean;
  trustProxy: boolean;
  /** origins allowed to send state-changing requests (the dashboard's own) besides the request's Host */
  publicBaseUrl: string | null;
  /** where frame images and audio clips come from (a remote service), for the CSP */
  mediaOrigins: string[];
  /** largest body a public route (callback receivers, sign-in) may send: BODY_MAX_BYTES */
  maxPublicBodyBytes: number;
}

function isHttps(req: http.IncomingMessage, o: GateOptions): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (o.trustProxy && req.headers["x-forwarded-proto"] === "https") return true;
  return o.publicBaseUrl?.startsWith("https:") ?? false;
}

export function sameOrigin(req: http.IncomingMessage, o: Pick<GateOptions, "publicBaseUrl">): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) {
    // browsers always send Origin on cross-site POSTs; without it, fall back to Fetch Metadata
    const site = req.headers["sec-fetch-site"];
    return site === undefined || site === "same-origin" || site === "none";
  }
  const allowed = [`http://${req.headers.host}`, `https://${req.headers.host}`, o.publicBaseUrl].filter(Boolean);
  return allowed.includes(origin);
}

function json(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function page(res: http.ServerResponse, status: number, title: string, text: string): void {
  const html = `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;background:#111;color:#ddd;padding:3rem"><h1>${title}</h1><p>${text}</p><p><a style="color:#7cf" href="/">Back to the dashboard</a></p>`;
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(html);
}

/** Answers 411/413 when a body is unbounded or larger than `max`; `required`: a body is expected (POST, …). */
function refuseBody(req: http.IncomingMessage, res: http.ServerResponse, max: number, required: boolean): boolean {
  const header = req.headers["content-length"];
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (header === undefined && !chunked && !required) return false;
  if (header === undefined) {
    json(res, 411, { error: "Content-Length required" });
    return true;
  }
  const length = Number(header);
  if (!Number.isFinite(length) || length > max) {
    json(res, 413, { error: `body larger than ${max} bytes` });
    return true;
  }
  return false;
}

/** Response fields worth keeping in the audit log (ids of what was created or changed). */
function captureTarget(res: http.ServerResponse): () => Record<string, unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => http.ServerResponse;
  const keep = (chunk: unknown) => {
    if (size > 8192 || chunk == null || typeof chunk === "function") return;
    const b = Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk) : chunk instanceof Uint8Array ? Buffer.from(chunk) : null;
    if (b) {
      chunks.push(b);
      size += b.length;
    }
  };
  res.write = ((...a: unknown[]) => (keep(a[0]), write(...a))) as typeof res.write;
  res.end = ((...a: unknown[]) => (keep(a[0]), end(...a))) as typeof res.end;
  return () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const k of ["requestId", "btId", "message", "error", "username", "role", "decision", "list", "entry"]) if (typeof body[k] === "string" || typeof body[k] === "number") out[k] = body[k];
      const user = body.user as { username?: unknown } | undefined;
      if (typeof user?.username === "string") out.username = user.username;
      return out;
    } catch {
      return {};
    }
  };
}

/**
 * The dashboard's front door, run by the custom server before Next: security headers, session,
 * role (server/auth/access.ts), CSRF on state-changing requests, identity headers for route
 * handlers, and the audit log. Returns true when it answered the request itself.
 */
export async function gate(o: GateOptions, req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  for (const h of Object.values(IDENTITY_HEADERS)) delete req.headers[h];
  // the path the router will serve, exactly: any target the gate and Next could read differently
  // (fragment, backslash, dot segments, escaped structure, …) is refused (server/auth/request-target.ts)
  const target = readRequestTarget(req.url ?? "/");
  if (target === null) {
    json(res, 400, { error: "malformed request target" });
    return true;
  }
  const { pathname, search } = target;
  // rules are matched without case, so a router that folds case can never reach a path the rules read otherwise
  const key = pathname.toLowerCase();
  const method = (req.method ?? "GET").toUpperCase();
  const isApi = key.startsWith("/api/");
  const https = isHttps(req, o);
  applySecurityHeaders(req, res, { dev: o.dev, mediaOrigins: o.mediaOrigins, https });
  const ip = clientIp(req, o.trustProxy);
  req.headers[IDENTITY_HEADERS.ip] = ip;
  if (https) req.headers[IDENTITY_HEADERS.https] = "1";
  const rule = accessRule(method, pathname);

  if (rule.access === "never") {
    json(res, 404, { error: "not found" });
    return true;
  }
  if (rule.access === "public") {
    if (key === "/api/auth/signin" && !sameOrigin(req, o)) {
      json(res, 403, { error: "cross-site sign-in refused" });
      return true;
    }
    // strangers' bodies (callbacks, sign-in) are bounded before anything reads them
    return method === "POST" && refuseBody(req, res, o.maxPublicBodyBytes, true);
  }
  // signed-in routes too: a body is refused (411/413) before anything reads it (no Content-Length and no
  // Transfer-Encoding: no body at all, e.g. a DELETE)
  if (refuseBody(req, res, bodyLimit(rule), false)) return true;

  const session: SessionInfo | null = await o.auth.session(parseCookies(req.headers.cookie).get(SESSION_COOKIE));
  const user: SessionUser | null = session?.user ?? null;
  const audit = (outcome: string, detail?: Record<string, unknown>) =>
    rule.audit ? void o.auth.audit({ username: user?.username ?? null, role: user?.role ?? null, action: rule.audit, target: pathname + search, outcome, ip, detail }).catch(() => undefined) : undefined;

  if (!session || !user) {
    if (isApi) json(res, 401, { error: "sign in required" });
    else {
      const next = pathname + search;
      res.writeHead(303, { location: `/signin?next=${encodeURIComponent(next)}`, "cache-control": "no-store" }).end();
    }
    audit("unauthenticated");
    return true;
  }
  if (user.mustChangePassword && !/^\/(account$|api\/auth\/)/.test(key)) {
    if (isApi) json(res, 403, { error: "change your one-time password first (Account page)" });
    else res.writeHead(303, { location: "/account", "cache-control": "no-store" }).end();
    return true;
  }
  if (rule.access !== "signed-in" && !can(user.role, rule.access)) {
    if (isApi) json(res, 403, { error: `your role (${user.role}) may not do this` });
    else page(res, 403, "Not allowed", `Your role (${user.role}) may not open this page.`);
    audit("denied");
    return true;
  }
  if (!isSafeMethod(method) && !rule.csrfExempt) {
    const token = req.headers[CSRF_HEADER];
    if (!sameOrigin(req, o) || !o.auth.checkCsrf(session, typeof token === "string" ? token : undefined)) {
      json(res, 403, { error: "CSRF check failed: reload the page and try again" });
      audit("csrf-refused");
      return true;
    }
  }
  req.headers[IDENTITY_HEADERS.id] = user.id;
  req.headers[IDENTITY_HEADERS.username] = user.username;
  req.headers[IDENTITY_HEADERS.role] = user.role;
  req.headers[IDENTITY_HEADERS.session] = session.id;
  if (user.mustChangePassword) req.headers[IDENTITY_HEADERS.mustChange] = "1";
  // keep the CSRF cookie present for the browser code (e.g. after it was cleared)
  if (!isApi && method === "GET" && !parseCookies(req.headers.cookie).has(CSRF_COOKIE)) {
    res.setHeader("set-cookie", serializeCookie(CSRF_COOKIE, session.csrfToken, { maxAgeSec: (session.expiresAt.getTime() - Date.now()) / 1000, httpOnly: false, secure: https }));
  }
  if (rule.audit) {
    // uncompressed, so the audit can read the created id from the answer
    delete req.headers["accept-encoding"];
    const target = captureTarget(res);
    // "close" fires whether or not the answer went out: a client that left (a reload while "Closing…") is still audited
    res.once("close", () => audit(!res.writableFinished ? "client left before the answer (the action may have run)" : res.statusCode < 400 ? "ok" : `failed ${res.statusCode}`, target()));
  }
  return false;
}

export function sessionCookies(signedIn: { cookie: string; csrfToken: string; expiresAt: Date }, secure: boolean): string[] {
  const maxAgeSec = (signedIn.expiresAt.getTime() - Date.now()) / 1000;
  return [serializeCookie(SESSION_COOKIE, signedIn.cookie, { maxAgeSec, httpOnly: true, secure }), serializeCookie(CSRF_COOKIE, signedIn.csrfToken, { maxAgeSec, httpOnly: false, secure })];
}

export function clearedCookies(): string[] {
  return [serializeCookie(SESSION_COOKIE, "", { maxAgeSec: 0, httpOnly: true, secure: false }), serializeCookie(CSRF_COOKIE, "", { maxAgeSec: 0, httpOnly: false, secure: false })];
}
