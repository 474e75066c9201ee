import { z } from "zod";
import { ROLES, type Role } from "../../../lib/roles";

/** Sign-in with the company's identity provider (OpenID Connect); null when OIDC_ISSUER is not set. */
export interface OidcSettings {
  issuer: URL;
  clientId: string;
  /** null: a public client (PKCE alone) */
  clientSecret: string | null;
  /** the claim (ID token, else userinfo) holding the user's groups or roles */
  roleClaim: string;
  /** claim value → dashboard role */
  roleMap: ReadonlyMap<string, Role>;
  scopes: string[];
  /** the button's name: "Sign in with <label>" */
  label: string;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** `mod-team=moderator,reviewers=reviewer`, or a JSON object when group names hold commas (`{"CN=a,OU=b":"reviewer"}`). */
export function parseRoleMap(raw: string): Map<string, Role> {
  const out = new Map<string, Role>();
  const add = (group: string, role: string) => {
    const g = group.trim();
    const r = role.trim();
    if (!g) throw new Error(`OIDC_ROLE_MAP: an entry has no group name before "=${r}"`);
    if (!(ROLES as readonly string[]).includes(r)) throw new Error(`OIDC_ROLE_MAP: "${g}" maps to "${r}", which is not a role (${ROLES.join(", ")})`);
    if (out.has(g) && out.get(g) !== r) throw new Error(`OIDC_ROLE_MAP: "${g}" is mapped twice`);
    out.set(g, r as Role);
  };
  const text = raw.trim();
  if (text.startsWith("{")) {
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      throw new Error("OIDC_ROLE_MAP: starts with { but is not valid JSON");
    }
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) throw new Error("OIDC_ROLE_MAP: JSON must be an object of group → role");
    for (const [g, r] of Object.entries(obj)) {
      if (typeof r !== "string") throw new Error(`OIDC_ROLE_MAP: "${g}" must map to a role name`);
      add(g, r);
    }
  } else {
    for (const entry of text.split(",").map((e) => e.trim()).filter(Boolean)) {
      const eq = entry.lastIndexOf("=");
      if (eq < 0) throw new Error(`OIDC_ROLE_MAP: "${entry}" is not group=role`);
      add(entry.slice(0, eq), entry.slice(eq + 1));
    }
  }
  if (out.size === 0) throw new Error("OIDC_ROLE_MAP: no group=role entry (without one nobody could sign in through OIDC)");
  return out;
}

/**
 * The role the claim's values grant: the highest mapped one (moderator < reviewer < supervisor), or null when no
 * value is mapped (refused: never a default role). A claim may be a list of strings or one string.
 */
export function mapRole(claim: unknown, map: ReadonlyMap<string, Role>): Role | null {
  const values = Array.isArray(claim) ? claim.filter((v): v is string => typeof v === "string") : typeof claim === "string" ? [claim] : [];
  let best = -1;
  for (const v of values) {
    const role = map.get(v);
    if (role) best = Math.max(best, ROLES.indexOf(role));
  }
  return best < 0 ? null : ROLES[best];
}

const Env = z.object({
  OIDC_ISSUER: z
    .string()
    .trim()
    .url("OIDC_ISSUER must be a URL (the issuer, e.g. https://login.example.com/realms/staff)")
    // zod runs these even after .url() failed: an unparsable URL is left to that message
    .refine((u) => {
      const url = URL.canParse(u) ? new URL(u) : null;
      return !url || url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
    }, "OIDC_ISSUER must use https (http only for localhost / 127.0.0.1)")
    .refine((u) => !URL.canParse(u) || (!new URL(u).search && !new URL(u).hash), "OIDC_ISSUER must not carry a query or fragment"),
  OIDC_CLIENT_ID: z.string({ error: "OIDC_CLIENT_ID is required when OIDC_ISSUER is set" }).trim().min(1, "OIDC_CLIENT_ID is required when OIDC_ISSUER is set").max(512),
  OIDC_CLIENT_SECRET: z.string().max(4096).optional(),
  OIDC_ROLE_CLAIM: z.string().trim().regex(/^[A-Za-z0-9_.:/-]{1,100}$/, "OIDC_ROLE_CLAIM must be a claim name (letters, digits, _ . : / -)").default("groups"),
  OIDC_ROLE_MAP: z.string({ error: "OIDC_ROLE_MAP is required when OIDC_ISSUER is set (e.g. mod-team=moderator,reviewers=reviewer)" }).trim().min(1, "OIDC_ROLE_MAP is required when OIDC_ISSUER is set (e.g. mod-team=moderator,reviewers=reviewer)"),
  OIDC_SCOPES: z
    .string()
    .default("openid profile email")
    .transform((s) => [...new Set(s.split(/[\s,]+/).filter(Boolean))])
    .refine((s) => s.includes("openid"), "OIDC_SCOPES must include openid")
    .refine((s) => s.every((x) => /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(x)), "OIDC_SCOPES: a scope holds a character OAuth does not allow"),
  OIDC_LABEL: z.string().trim().min(1).max(40, "OIDC_LABEL: at most 40 characters").default("company account"),
});

/** OIDC settings from the environment, validated at start; throws with every problem named. */
export function loadOidcSettings(env: Record<string, string | undefined>): OidcSettings | null {
  const present = (k: string) => env[k] !== undefined && env[k] !== "";
  if (!present("OIDC_ISSUER")) {
    const stray = ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_ROLE_MAP"].filter(present);
    if (stray.length) throw new Error(`${stray.join(", ")} set without OIDC_ISSUER: set OIDC_ISSUER to turn on sign-in with OpenID Connect`);
    return null;
  }
  const pick = Object.fromEntries(["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_ROLE_CLAIM", "OIDC_ROLE_MAP", "OIDC_SCOPES", "OIDC_LABEL"].filter(present).map((k) => [k, env[k]]));
  const r = Env.safeParse(pick);
  if (!r.success) throw new Error(`OpenID Connect settings: ${r.error.issues.map((i) => i.message).join("; ")}`);
  const e = r.data;
  return {
    issuer: new URL(e.OIDC_ISSUER),
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET || null,
    roleClaim: e.OIDC_ROLE_CLAIM,
    roleMap: parseRoleMap(e.OIDC_ROLE_MAP),
    scopes: e.OIDC_SCOPES,
    label: e.OIDC_LABEL,
  };
}

/** A path on this site to go to after sign-in; anything else (other origins, `//host`, `/\host`, control characters) → "/". */
export function safeReturnPath(next: string | null | undefined): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 1000) return "/";
  // eslint-disable-next-line no-control-regex
  if (!next.startsWith("/") || /[\x00-\x1f\x7f\\]/.test(next) || next.startsWith("//")) return "/";
  try {
    const base = "http://origin.invalid";
    const u = new URL(next, `${base}/`);
    if (u.origin !== base) return "/";
    const path = `${u.pathname.replace(/\/{2,}/g, "/")}${u.search}${u.hash}`;
    return new URL(path, `${base}/`).origin === base && path.startsWith("/") && !path.startsWith("//") ? path : "/";
  } catch {
    return "/";
  }
}
