// A real, certified OpenID provider (npm oidc-provider) in this process, for the OIDC sign-in tests: one static
// confidential client, PKCE required, accounts with a `groups` claim, and the package's own login and consent pages.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export const IDP_CLIENT = { id: "moderation-dashboard", secret: "idp-test-client-secret-0123456789abcdef" };

/** Accounts by login: `groups` is what OIDC_ROLE_MAP maps. */
export const IDP_ACCOUNTS: Record<string, { groups: string[]; email: string; name: string }> = {
  alice: { groups: ["mod-team", "everyone"], email: "alice@corp.example", name: "Alice Moderator" },
  rita: { groups: ["reviewers"], email: "rita@corp.example", name: "Rita Reviewer" },
  sam: { groups: ["mod-team", "t&s-leads"], email: "sam@corp.example", name: "Sam Lead" },
  mark: { groups: ["marketing"], email: "mark@corp.example", name: "Mark Eting" },
  // a name a local account holds: must never become that account
  admin: { groups: ["reviewers"], email: "admin@corp.example", name: "Not The Local Admin" },
};

export interface TestIdp {
  issuer: string;
  /** builds the provider once the dashboard's callback address is known (the client's registered redirect URI) */
  register(redirectUri: string): void;
  /** changes an account's groups (a role change at the provider) */
  setGroups(login: string, groups: string[]): void;
  close(): Promise<void>;
}

export async function startTestIdp(): Promise<TestIdp> {
  let handler: http.RequestListener | null = null;
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503).end("provider not registered yet");
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = structuredClone(IDP_ACCOUNTS);
  return {
    issuer,
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: IDP_CLIENT.id, client_secret: IDP_CLIENT.secret, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" }],
        pkce: { required: () => true },
        claims: { openid: ["sub"], profile: ["preferred_username", "name"], email: ["email"], groups: ["groups"] },
        scopes: ["openid", "profile", "email", "groups"],
        features: { devInteractions: { enabled: true } },
        cookies: { keys: ["test-idp-cookie-key-0123456789"] },
        async findAccount(_ctx, id) {
          const a = accounts[id];
          if (!a) return undefined;
          return { accountId: id, claims: async () => ({ sub: id, preferred_username: id, name: a.name, email: a.email, groups: a.groups }) };
        },
      });
      handler = provider.callback() as http.RequestListener;
    },
    setGroups(login, groups) {
      accounts[login].groups = groups;
    },
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** A browser's cookies, by host (paths ignored: enough for two test servers on one address). */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();
  header(url: string): string {
    return [...(this.byHost.get(new URL(url).host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  take(url: string, res: Response): void {
    const host = new URL(url).host;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    this.byHost.set(host, jar);
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
  }
  get(url: string, name: string): string | undefined {
    return this.byHost.get(new URL(url).host)?.get(name);
  }
}

/** One request as a browser makes it: cookies sent and kept, no redirect followed. */
export async function browse(jar: CookieJar, url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
  const headers: Record<string, string> = { cookie: jar.header(url) };
  let body: string | undefined;
  if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(url, { method: init.method ?? "GET", headers, body, redirect: "manual" });
  jar.take(url, res);
  return res;
}

/**
 * Signs `login` in at the provider's own login and consent pages (as a person would) starting from an authorization
 * URL, and returns the address the provider sends the browser back to (the dashboard's callback with code and state).
 */
export async function signInAtIdp(jar: CookieJar, authorizationUrl: string, login: string, callbackPrefix: string): Promise<string> {
  let url = authorizationUrl;
  for (let hops = 0; hops < 20; hops++) {
    if (url.startsWith(callbackPrefix)) return url;
    const res = await browse(jar, url);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location")!, url).href;
      continue;
    }
    const page = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status} at ${url}: ${page.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${page.slice(0, 300)}`);
    const form: Record<string, string> = page.includes('name="login"') ? { prompt: "login", login, password: "any" } : { prompt: "consent" };
    const posted = await browse(jar, new URL(action.replace(/&amp;/g, "&"), url).href, { method: "POST", form });
    if (posted.status < 300 || posted.status >= 400) throw new Error(`provider answered ${posted.status} to the ${form.prompt} form: ${(await posted.text()).slice(0, 300)}`);
    url = new URL(posted.headers.get("location")!, url).href;
  }
  throw new Error("too many redirects at the provider");
}
