import assert from "node:assert/strict";
import type http from "node:http";
import { test } from "node:test";
import { safeNext } from "../../components/auth/SignInForm";
import { clientIp } from "../../server/service/client-ip";
import { accessRule } from "../../server/auth/access";

test("after sign-in only this origin's pages are followed", () => {
  const o = "https://mod.example";
  assert.equal(safeNext("/files?x=1#a", o), "https://mod.example/files?x=1#a");
  for (const evil of ["//evil.com", "/\t/evil.com", "/\n/evil.com", "/\\evil.com", "https://evil.com/", "javascript:alert(1)", "\\\\evil.com"]) assert.equal(safeNext(evil, o), "https://mod.example/streams", JSON.stringify(evil));
  assert.equal(safeNext(null, o), "https://mod.example/streams");
  // security review #9.4: dot segments that leave a protocol-relative path stay on this origin
  for (const [next, want] of [["/.//evil.example/phish", "/evil.example/phish"], ["/..//evil.example/phish", "/evil.example/phish"], ["/a/..//evil.example", "/evil.example"], ["/%2e//evil.example", "/evil.example"]]) assert.equal(safeNext(next, o), `https://mod.example${want}`, next);
});

test("behind a trusted proxy the client is the hop the proxy appended, not what the client claims", () => {
  const req = (xff: string | undefined) => ({ headers: xff === undefined ? {} : { "x-forwarded-for": xff }, socket: { remoteAddress: "10.0.0.2" } }) as unknown as http.IncomingMessage;
  assert.equal(clientIp(req("1.2.3.4, 203.0.113.9"), true), "203.0.113.9");
  assert.equal(clientIp(req("203.0.113.9"), true), "203.0.113.9");
  assert.equal(clientIp(req("1.2.3.4"), false), "10.0.0.2", "ignored unless TRUST_PROXY=1");
  assert.equal(clientIp(req(undefined), true), "10.0.0.2");
});

test("access rules: writes are never public except the receivers and sign-in; reads need a role", () => {
  assert.equal(accessRule("POST", "/_next/static/x.js").access, "users:manage");
  assert.equal(accessRule("GET", "/_next/image").access, "never");
  assert.equal(accessRule("POST", "/api/receiver/file/t").access, "public");
  assert.equal(accessRule("DELETE", "/api/receiver/file/t").access, "users:manage");
  assert.equal(accessRule("HEAD", "/api/audit").access, "audit:view");
  assert.equal(accessRule("GET", "/iconx").access, "view");
  assert.equal(accessRule("POST", "/api/streams/abc/close").access, "stream:close");
});
