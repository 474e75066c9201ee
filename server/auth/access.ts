import type { Permission } from "../../lib/roles";

/**
 * Who may reach which dashboard path: every page and dashboard API request passes through this
 * table in the custom server (server/auth/gate.ts) before Next sees it. First match wins;
 * anything not listed needs "view" to read and supervisor rights ("users:manage") to change.
 */
export type Access = "public" | "signed-in" | "never" | Permission;

export interface AccessRule {
  methods: readonly string[] | "*";
  path: RegExp;
  access: Access;
  /** audit action recorded for every attempt (allowed or not) */
  audit?: string;
  /** state-changing but exempt from the CSRF token (it has its own check) */
  csrfExempt?: boolean;
  /** largest request body (bytes) for a signed-in route; default JSON_BODY_MAX (public routes: BODY_MAX_BYTES) */
  maxBodyBytes?: number;
}

/** Dashboard JSON bodies are small: anything larger is refused (413) before it is read. */
export const JSON_BODY_MAX = 64 * 1024;
/** Reference-list uploads (photos, images, audio): their own cap. */
export const UPLOAD_BODY_MAX = 50 * 1024 * 1024;

const ANY = "*";
const WRITE = ["POST", "PUT", "PATCH", "DELETE"];

export const ACCESS_RULES: readonly AccessRule[] = [
  // Next's image optimizer fetches local URLs itself, past this gate: never served (next/image is not used)
  { methods: ANY, path: /^\/_next\/image/, access: "never" },
  // Next's own assets and the callback receivers (authenticated by their secret URL token and signature)
  { methods: ["GET", "HEAD"], path: /^\/(_next\/(static|webpack-hmr)\/|__nextjs_|favicon\.ico$|icon\.(png|svg|ico)$|robots\.txt$)/, access: "public" },
  { methods: ["POST"], path: /^\/api\/receiver\//, access: "public", csrfExempt: true },
  { methods: ["GET", "HEAD"], path: /^\/api\/health$/, access: "public" },
  { methods: ["GET", "HEAD"], path: /^\/signin$/, access: "public" },
  { methods: ["POST"], path: /^\/api\/auth\/signin$/, access: "public", csrfExempt: true },
  // sign-in through the identity provider (server/auth/oidc): state, nonce and PKCE in a sealed cookie guard the callback
  { methods: ["GET", "HEAD"], path: /^\/api\/auth\/oidc\/(start|callback)$/, access: "public" },
  { methods: ["POST"], path: /^\/api\/auth\/signout$/, access: "signed-in", audit: "auth.signout" },
  { methods: ["POST"], path: /^\/api\/auth\/password$/, access: "signed-in", audit: "auth.password" },
  { methods: ["GET", "HEAD"], path: /^\/api\/auth\/me$/, access: "signed-in" },
  { methods: ["GET", "HEAD"], path: /^\/account$/, access: "signed-in" },
  // pages and APIs for supervisors
  { methods: ["GET", "HEAD"], path: /^\/(users|audit)(\/|$)/, access: "users:manage" },
  { methods: ["GET", "HEAD"], path: /^\/api\/users(\/|$)/, access: "users:manage" },
  { methods: WRITE, path: /^\/api\/users(\/|$)/, access: "users:manage", audit: "user.change" },
  { methods: ["GET", "HEAD"], path: /^\/api\/audit(\/|$)/, access: "audit:view" },
  // moderation work
  // JSON with a url, or an upload (multipart): the handler caps JSON at JSON_BODY_MAX and streams an upload to disk, cut at UPLOAD_MAX_MB
  { methods: ["POST"], path: /^\/api\/files$/, access: "file:submit", audit: "file.submit", maxBodyBytes: Number.MAX_SAFE_INTEGER },
  // an uploaded file, fetched by the service with its signed expiring link (server/dashboard/uploads.ts)
  { methods: ["GET", "HEAD"], path: /^\/api\/uploads\/upload-[0-9a-f]{16}\/[^/]+$/, access: "public" },
  { methods: ["POST"], path: /^\/api\/streams$/, access: "stream:start", audit: "stream.start" },
  { methods: ["POST"], path: /^\/api\/streams\/[^/]+\/close$/, access: "stream:close", audit: "stream.close" },
  { methods: ["POST"], path: /^\/api\/demo\/start$/, access: "stream:start", audit: "demo.start" },
  { methods: ["POST"], path: /^\/api\/reviews$/, access: "review:record", audit: "review.record" },
  // incidents (server/incidents): reading needs "view"; decisions and assignment are reviewers' work, audited, as is an evidence export
  { methods: ["POST"], path: /^\/api\/incidents\/(decisions|[^/]+\/decision)$/, access: "review:record", audit: "incident.decision" },
  { methods: ["POST"], path: /^\/api\/incidents\/[^/]+\/assign$/, access: "review:record", audit: "incident.assign" },
  { methods: ["GET", "HEAD"], path: /^\/api\/incidents\/[^/]+\/export$/, access: "view", audit: "incident.export" },
  { methods: ["GET", "HEAD"], path: /^\/(api\/incidents(\.csv)?|review)(\/|$)/, access: "view" },
  // live preview and evidence clips: a viewer's session, and each file a signed expiring link besides (server/preview/links.ts)
  { methods: ["GET", "HEAD"], path: /^\/api\/preview\//, access: "view" },
  { methods: ["POST"], path: /^\/api\/lists\/(faces|images|audio)$/, access: "lists:edit", audit: "list.change", maxBodyBytes: UPLOAD_BODY_MAX },
  { methods: WRITE, path: /^\/api\/lists(\/|$)/, access: "lists:edit", audit: "list.change" },
  { methods: WRITE, path: /^\/api\/policy(\/|$)/, access: "policy:edit", audit: "policy.change" },
  // rules that act on their own (server/rules): supervisors' (reading shows webhook targets); a backtest only reads
  { methods: ["POST", "DELETE"], path: /^\/api\/rules\/backtest(\/|$)/, access: "rules:edit", audit: "rule.backtest" },
  { methods: WRITE, path: /^\/api\/rules(\/|$)/, access: "rules:edit", audit: "rule.change" },
  { methods: ["GET", "HEAD"], path: /^\/(api\/)?rules(\/|$)/, access: "rules:edit" },
  // team review metrics (server/metrics/review.ts): reviewers see their own figures, supervisors the team's (checked in the handler)
  { methods: ["GET", "HEAD"], path: /^\/(api\/metrics\/review(\.csv)?|team)$/, access: "review:record" },
  // review queues (server/queues): creating and changing them is supervisors'; working one (next, claim, release) reviewers'
  { methods: ["GET", "HEAD"], path: /^\/api\/queues(\/|$)/, access: "view" },
  { methods: ["POST"], path: /^\/api\/queues\/[^/]+\/next$/, access: "review:record", audit: "incident.claim" },
  { methods: ["POST"], path: /^\/api\/incidents\/[^/]+\/claim$/, access: "review:record", audit: "incident.claim" },
  { methods: ["POST"], path: /^\/api\/incidents\/[^/]+\/release$/, access: "review:record", audit: "incident.release" },
  { methods: WRITE, path: /^\/api\/queues(\/|$)/, access: "users:manage", audit: "queue.change" },
  // per-user alert and wellness settings (server/settings): anyone signed in reads and changes their own; the team default is supervisors'
  { methods: ["GET", "HEAD"], path: /^\/api\/me\/settings$/, access: "signed-in" },
  { methods: ["PUT"], path: /^\/api\/me\/settings$/, access: "signed-in", audit: "settings.user" },
  { methods: ["POST"], path: /^\/api\/me\/exposure$/, access: "view" },
  { methods: ["GET", "HEAD"], path: /^\/api\/settings\/team$/, access: "view" },
  { methods: ["PUT"], path: /^\/api\/settings\/team$/, access: "users:manage", audit: "settings.team" },
  // everything else: reading needs a session with "view"; unknown writes are supervisors'
  { methods: ["GET", "HEAD"], path: /^\//, access: "view" },
  { methods: ANY, path: /^\//, access: "users:manage", audit: "other.change" },
];

export function accessRule(method: string, pathname: string): AccessRule {
  const m = method.toUpperCase();
  const key = pathname.toLowerCase();
  return ACCESS_RULES.find((r) => (r.methods === ANY || r.methods.includes(m)) && r.path.test(key)) ?? ACCESS_RULES[ACCESS_RULES.length - 1];
}

export function isSafeMethod(method: string): boolean {
  return ["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
}

/** The body cap of a rule (signed-in routes; public ones use BODY_MAX_BYTES). */
export function bodyLimit(rule: AccessRule): number {
  return rule.maxBodyBytes ?? JSON_BODY_MAX;
}
