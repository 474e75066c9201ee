/** Dashboard roles and what each may do; the server enforces this table, the UI only hides what it forbids. */
export const ROLES = ["moderator", "reviewer", "supervisor"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "view",
  "stream:start",
  "stream:close",
  "file:submit",
  "review:record",
  "lists:edit",
  "policy:edit",
  "users:manage",
  "audit:view",
  "rules:edit",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, readonly Permission[]> = {
  moderator: ["view", "stream:start", "file:submit"],
  reviewer: ["view", "review:record"],
  supervisor: PERMISSIONS,
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  moderator: "starts streams, submits files, watches timelines",
  reviewer: "inspects results and records review decisions",
  supervisor: "everything, including Close, lists, policy, users and the audit log",
};

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role != null && GRANTS[role].includes(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** The signed-in user as the dashboard sees it (no secrets). */
export interface SessionUser {
  id: string;
  username: string;
  role: Role;
  mustChangePassword: boolean;
}

/** Cookie and header names shared by the browser code and the server gate. */
export const SESSION_COOKIE = "mp_session";
/** The session's CSRF token (double-submit cookie, readable by the page); state-changing requests echo it in CSRF_HEADER. */
export const CSRF_COOKIE = "mp_csrf";
export const CSRF_HEADER = "x-csrf-token";

export const REVIEW_DECISIONS = ["confirmed", "cleared", "escalated"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** Headers the server's gate sets for Next (pages and route handlers); any copy a client sends is removed first. */
export const IDENTITY_HEADERS = { id: "x-mp-user-id", username: "x-mp-username", role: "x-mp-role", session: "x-mp-session", ip: "x-mp-client-ip", https: "x-mp-https", mustChange: "x-mp-must-change" } as const;
