import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import * as client from "openid-client";
import { IDENTITY_HEADERS } from "../../../lib/roles";
import type { Store } from "../../store/db";
import { parseCookies } from "../cookies";
import { sessionCookies } from "../gate";
import type { Auth } from "../index";
import { accountFor } from "./accounts";
import { mapRole, safeReturnPath, type OidcSettings } from "./settings";

export const OIDC_FLOW_COOKIE = "mp_oidc";
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";
const FLOW_PATH = "/api/auth/oidc/";
/** how long a sign-in at the provider may take */
const FLOW_TTL_SEC = 600;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why a sign-in through the provider was refused; the sign-in page explains each (components/auth/SignInForm.tsx). */
export type OidcFailure = "expired" | "provider" | "rejected" | "no-role" | "disabled" | "unavailable" | "redirect-uri";

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  /** where to go after sign-in (a path on this site) */
  next: string;
  redirectUri: string;
  expires: number;
}

/** AES-256-GCM: the browser carries the flow (PKCE verifier included) but can neither read nor change it. */
function seal(key: Buffer, flow: Flow): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([c.update(JSON.stringify(flow), "utf8"), c.final()]);
  return [iv, body, c.getAuthTag()].map((b) => b.toString("base64url")).join(".");
}

function unseal(key: Buffer, value: string | undefined): Flow | null {
  const parts = value?.split(".");
  if (!parts || parts.length !== 3) return null;
  try {
    const [iv, body, tag] = parts.map((p) => Buffer.from(p, "base64url"));
    if (iv.length !== 12 || tag.length !== 16) return null;
    const d = createDecipheriv("aes-256-gcm", key, iv);
    d.setAuthTag(tag);
    const flow = JSON.parse(Buffer.concat([d.update(body), d.final()]).toString("utf8")) as Flow;
    return typeof flow.expires === "number" && flow.expires > Date.now() ? flow : null;
  } catch {
    return null;
  }
}

function flowCookie(value: string, maxAgeSec: number, secure: boolean): string {
  return [`${OIDC_FLOW_COOKIE}=${value}`, `Path=${FLOW_PATH}`, `Max-Age=${maxAgeSec}`, "HttpOnly", "SameSite=Lax", secure ? "Secure" : ""].filter(Boolean).join("; ");
}

function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
}

export interface OidcOptions {
  settings: OidcSettings;
  auth: Auth;
  store: Store;
  /** PUBLIC_BASE_URL: the redirect URI's origin; without it only a loopback Host is trusted */
  publicBaseUrl: string | null;
  log: (m: string) => void;
}

/** Sign-in through the company's identity provider: authorization code + PKCE (S256), state and nonce (openid-client). */
export function createOidc(o: OidcOptions) {
  const key = o.auth.derivedKey("oidc-flow-cookie");
  const s = o.settings;
  let discovered: Promise<client.Configuration> | null = null;
  const configuration = () => {
    const insecure = s.issuer.protocol === "http:";
    discovered ??= client
      .discovery(s.issuer, s.clientId, undefined, s.clientSecret ? client.ClientSecretBasic(s.clientSecret) : client.None(), insecure ? { execute: [client.allowInsecureRequests] } : undefined)
      .catch((err: unknown) => {
        discovered = null; // the provider may come back: the next sign-in asks again
        throw err;
      });
    return discovered;
  };

  function redirectUri(req: Request): string | null {
    if (o.publicBaseUrl) return `${o.publicBaseUrl}${OIDC_CALLBACK_PATH}`;
    const host = req.headers.get("host") ?? "";
    const hostname = host.replace(/:\d+$/, "");
    if (!LOOPBACK.has(hostname)) return null;
    return `${req.headers.get(IDENTITY_HEADERS.https) === "1" ? "https" : "http"}://${host}${OIDC_CALLBACK_PATH}`;
  }

  const ipOf = (req: Request) => req.headers.get(IDENTITY_HEADERS.ip) ?? "unknown";
  const secureOf = (req: Request) => req.headers.get(IDENTITY_HEADERS.https) === "1";

  async function refuse(req: Request, reason: OidcFailure, detail: Record<string, unknown>, who: { username?: string; role?: string } = {}): Promise<Response> {
    // before the provider vouched for someone, anyone can cause these: bounded like other strangers' refusals
    await o.auth.audit({ username: who.username ?? null, role: who.role ?? null, action: "auth.signin", target: OIDC_CALLBACK_PATH, outcome: reason === "no-role" || reason === "disabled" ? reason : "failed", ip: ipOf(req), detail: { method: "oidc", reason, ...detail }, bounded: !who.username });
    return redirect(`/signin?error=${reason}`, [flowCookie("", 0, secureOf(req))]);
  }

  return {
    label: s.label,

    /** GET /api/auth/oidc/start?next=/path — to the provider, with the flow sealed in a short-lived cookie. */
    async start(req: Request): Promise<Response> {
      const uri = redirectUri(req);
      if (!uri) return refuse(req, "redirect-uri", { note: "set PUBLIC_BASE_URL: without it the callback address is only derived from a localhost Host" });
      let config: client.Configuration;
      try {
        config = await configuration();
      } catch (err) {
        o.log(`[oidc] discovery of ${s.issuer.href} failed: ${(err as Error).message}`);
        return refuse(req, "unavailable", { error: (err as Error).message.slice(0, 200) });
      }
      const flow: Flow = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), next: safeReturnPath(new URL(req.url).searchParams.get("next")), redirectUri: uri, expires: Date.now() + FLOW_TTL_SEC * 1000 };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: uri,
        scope: s.scopes.join(" "),
        response_type: "code",
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: "S256",
        state: flow.state,
        nonce: flow.nonce,
      });
      return redirect(url.href, [flowCookie(seal(key, flow), FLOW_TTL_SEC, secureOf(req))]);
    },

    /** GET /api/auth/oidc/callback — checks state, PKCE, ID token (issuer, audience, nonce, expiry), maps the role, opens a session. */
    async callback(req: Request): Promise<Response> {
      const flow = unseal(key, parseCookies(req.headers.get("cookie") ?? undefined).get(OIDC_FLOW_COOKIE));
      if (!flow) return refuse(req, "expired", { note: "no flow cookie, or it expired or was altered" });
      const params = new URL(req.url).searchParams;
      if (params.has("error")) return refuse(req, "provider", { error: params.get("error")?.slice(0, 100), description: params.get("error_description")?.slice(0, 200) });
      let config: client.Configuration;
      try {
        config = await configuration();
      } catch (err) {
        return refuse(req, "unavailable", { error: (err as Error).message.slice(0, 200) });
      }
      // the address the provider sent the browser to, as registered (not whatever Host reached this process)
      const current = new URL(flow.redirectUri);
      current.search = params.toString();
      let claims: client.IDToken;
      let accessToken: string;
      try {
        const tokens = await client.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
        const c = tokens.claims();
        if (!c) throw new Error("no ID token");
        claims = c;
        accessToken = tokens.access_token;
      } catch (err) {
        // openid-client wraps the precise check that failed (state, nonce, iss, …) in `cause`
        const e = err as Error & { code?: string; cause?: { message?: unknown; code?: unknown } };
        const why = typeof e.cause?.message === "string" ? `${e.message}: ${e.cause.message}` : e.message;
        return refuse(req, "rejected", { error: e.code ?? e.name, message: why.slice(0, 300) });
      }
      let names: Record<string, unknown> = claims;
      let groups: unknown = claims[s.roleClaim];
      if (groups === undefined) {
        // many providers put groups (and names) in userinfo only
        try {
          const info = await client.fetchUserInfo(config, accessToken, claims.sub);
          groups = info[s.roleClaim];
          names = { ...info, ...claims };
        } catch (err) {
          return refuse(req, "rejected", { error: "userinfo", message: (err as Error).message.slice(0, 200), subject: claims.sub });
        }
      }
      const who = { sub: claims.sub, preferred_username: names.preferred_username, email: names.email };
      const role = mapRole(groups, s.roleMap);
      const shown = Array.isArray(groups) ? groups.slice(0, 20) : groups ?? null;
      if (!role) return refuse(req, "no-role", { subject: claims.sub, claim: s.roleClaim, values: shown }, { username: typeof who.preferred_username === "string" ? who.preferred_username.slice(0, 64) : claims.sub.slice(0, 64) });
      const { row, created, previousRole } = await accountFor(o.store, { issuer: claims.iss, subject: claims.sub, claims: who }, role);
      if (row.disabled) return refuse(req, "disabled", { subject: claims.sub }, { username: row.username, role: row.role });
      const signed = await o.auth.openSession(row, ipOf(req), req.headers.get("user-agent"), { method: "oidc", issuer: claims.iss, subject: claims.sub, created, ...(previousRole && previousRole !== role ? { previousRole } : {}) });
      return redirect(flow.next, [...sessionCookies(signed, secureOf(req)), flowCookie("", 0, secureOf(req))]);
    },
  };
}
export type Oidc = ReturnType<typeof createOidc>;
