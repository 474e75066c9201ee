// OpenID Connect sign-in, the parts without a provider: settings validation, role mapping, return paths, usernames.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadOidcSettings, mapRole, parseRoleMap, safeReturnPath } from "../../server/auth/oidc/settings";
import { usernameFrom } from "../../server/auth/oidc/accounts";
import { accessRule } from "../../server/auth/access";

const BASE = { OIDC_ISSUER: "https://login.corp.example/realms/staff", OIDC_CLIENT_ID: "dashboard", OIDC_ROLE_MAP: "mod-team=moderator,reviewers=reviewer,t&s-leads=supervisor" };

test("no OIDC_ISSUER: local accounts only; stray OIDC settings are named", () => {
  assert.equal(loadOidcSettings({}), null);
  assert.throws(() => loadOidcSettings({ OIDC_CLIENT_ID: "x" }), /OIDC_CLIENT_ID set without OIDC_ISSUER/);
});

test("settings: defaults, and every mistake gets a clear message", () => {
  const s = loadOidcSettings(BASE)!;
  assert.equal(s.issuer.href, "https://login.corp.example/realms/staff");
  assert.equal(s.clientSecret, null, "a public client: PKCE alone");
  assert.equal(s.roleClaim, "groups");
  assert.deepEqual(s.scopes, ["openid", "profile", "email"]);
  assert.equal(s.label, "company account");
  assert.equal(s.roleMap.get("t&s-leads"), "supervisor");
  const custom = loadOidcSettings({ ...BASE, OIDC_CLIENT_SECRET: "s3cret", OIDC_ROLE_CLAIM: "roles", OIDC_SCOPES: "openid groups", OIDC_LABEL: "Okta" })!;
  assert.deepEqual([custom.clientSecret, custom.roleClaim, custom.scopes, custom.label], ["s3cret", "roles", ["openid", "groups"], "Okta"]);
  assert.equal(loadOidcSettings({ ...BASE, OIDC_ISSUER: "http://localhost:9000" })?.issuer.host, "localhost:9000", "http for a local provider");
  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ OIDC_ISSUER: "login.corp.example" }, /OIDC_ISSUER must be a URL/],
    [{ OIDC_ISSUER: "http://login.corp.example" }, /must use https/],
    [{ OIDC_ISSUER: "https://login.corp.example/?x=1" }, /query or fragment/],
    [{ OIDC_CLIENT_ID: "" }, /OIDC_CLIENT_ID is required/],
    [{ OIDC_ROLE_MAP: "" }, /OIDC_ROLE_MAP is required/],
    [{ OIDC_ROLE_MAP: "mod-team=admin" }, /"mod-team" maps to "admin", which is not a role/],
    [{ OIDC_ROLE_MAP: "mod-team" }, /"mod-team" is not group=role/],
    [{ OIDC_ROLE_MAP: "a=moderator,a=supervisor" }, /"a" is mapped twice/],
    [{ OIDC_SCOPES: "profile email" }, /must include openid/],
    [{ OIDC_ROLE_CLAIM: "gro ups" }, /OIDC_ROLE_CLAIM must be a claim name/],
    [{ OIDC_LABEL: "x".repeat(41) }, /at most 40 characters/],
  ];
  for (const [env, want] of bad) {
    const all: Record<string, string> = { ...BASE, ...env };
    for (const k of Object.keys(env)) if (env[k] === "") delete all[k];
    assert.throws(() => loadOidcSettings(all), want, JSON.stringify(env));
  }
});

test("role map: list or JSON (group names with commas or =); the highest mapped role wins; nothing mapped → no role", () => {
  const map = parseRoleMap(" mod-team = moderator , reviewers=reviewer,t&s-leads=supervisor ");
  assert.equal(mapRole(["everyone", "mod-team"], map), "moderator");
  assert.equal(mapRole(["mod-team", "reviewers"], map), "reviewer");
  assert.equal(mapRole(["reviewers", "t&s-leads", "mod-team"], map), "supervisor");
  assert.equal(mapRole("reviewers", map), "reviewer", "a single string claim");
  for (const none of [["marketing"], [], undefined, null, "", 42, [42, { g: "mod-team" }], ["MOD-TEAM"]]) assert.equal(mapRole(none, map), null, JSON.stringify(none));
  const ldap = parseRoleMap('{"CN=Mods,OU=Groups,DC=corp":"moderator","a=b":"reviewer"}');
  assert.equal(mapRole(["CN=Mods,OU=Groups,DC=corp"], ldap), "moderator");
  assert.equal(mapRole(["a=b"], ldap), "reviewer");
  assert.equal(parseRoleMap("cn=x=reviewer").get("cn=x"), "reviewer", "the last = separates the role");
  assert.throws(() => parseRoleMap("{not json"), /not valid JSON/);
  assert.throws(() => parseRoleMap('{"a":1}'), /must map to a role name/);
});

test("after sign-in only a path on this site is followed (no open redirect)", () => {
  assert.equal(safeReturnPath("/incidents?q=1#top"), "/incidents?q=1#top");
  assert.equal(safeReturnPath("/a//b"), "/a/b");
  for (const evil of ["//evil.example", "https://evil.example/", "/\\evil.example", "\\\\evil.example", "/\t/evil.example", "javascript:alert(1)", "evil.example", "", null, undefined, `/${"a".repeat(1001)}`]) assert.equal(safeReturnPath(evil), "/", JSON.stringify(evil));
  for (const [next, want] of [["/.//evil.example/x", "/evil.example/x"], ["/..//evil.example", "/evil.example"], ["/%2e//evil.example", "/evil.example"]]) assert.equal(safeReturnPath(next), want, next);
});

test("usernames from the provider's names fit the product's rules", () => {
  assert.equal(usernameFrom({ sub: "x", preferred_username: "Alice.Smith" }), "alice.smith");
  assert.equal(usernameFrom({ sub: "x", email: "Bob+mods@corp.example" }), "bob-mods");
  assert.equal(usernameFrom({ sub: "00u1abc" }), "00u1abc");
  assert.equal(usernameFrom({ sub: "x", preferred_username: "__é" }), "user-", "no leading symbol; at least 2 characters");
  assert.equal(usernameFrom({ sub: "x", preferred_username: "a".repeat(40) }).length, 32);
});

test("access table: the OIDC routes are public GETs, nothing else there", () => {
  for (const p of ["/api/auth/oidc/start", "/api/auth/oidc/callback"]) {
    assert.equal(accessRule("GET", p).access, "public", p);
    assert.notEqual(accessRule("POST", p).access, "public", `POST ${p}`);
  }
  assert.notEqual(accessRule("GET", "/api/auth/oidc/other").access, "public");
});
