// The one reading of a request target shared by the gate and the router (server/auth/request-target.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { readRequestTarget } from "../../server/auth/request-target";

test("canonical targets are read as sent; escapes decoded, one trailing slash folded", () => {
  assert.deepEqual(readRequestTarget("/api/users?limit=5"), { pathname: "/api/users", rawPath: "/api/users", search: "?limit=5" });
  assert.deepEqual(readRequestTarget("/files/a%20b/"), { pathname: "/files/a b", rawPath: "/files/a%20b/", search: "" });
  assert.equal(readRequestTarget("/")?.pathname, "/");
  assert.equal(readRequestTarget("/media/x/f.jpg?exp=1&sig=ab-_")?.pathname, "/media/x/f.jpg");
  assert.equal(readRequestTarget("/socket.io/?EIO=4&transport=polling&t=abc")?.pathname, "/socket.io");
});

test("every form the gate and the router could read differently is refused", () => {
  for (const t of [
    "/api/users#/../../api/receiver/x",
    "/api/users#",
    "/api/receiver/x/../../users",
    "/api/receiver/x/./../../users",
    "/api/receiver/x/%2e%2e/%2e%2e/users",
    "/api/receiver/x/%2E./users",
    "/api//users",
    "//api/users",
    "/api/users;jsessionid=1",
    "/api\\users",
    "/api/%5cusers",
    "/api%2fusers",
    "/api/%75sers",
    "/api/users%23x",
    "/api/users%3fx",
    "/api/users%00",
    "/api/users%",
    "/api/%E0%A4%A",
    "http://evil.example/api/users",
    "*",
    "api/users",
    "/api/users\t",
    "/api/us ers",
    "/api/usérs",
  ])
    assert.equal(readRequestTarget(t), null, JSON.stringify(t));
});

test("property: whatever is accepted, the WHATWG parser (Next's reading) gives the same path and the rules see its decoding", () => {
  const piece = fc.constantFrom("api", "users", "receiver", "x", ".", "..", "", "%2e", "%2E%2e", "%2f", "%5c", "%75", "%20", ";", "\\", "#", "?", "a.", "API", "%25", "~", "-", "_");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), fc.boolean(), (parts, lead) => {
      const target = `${lead ? "/" : ""}${parts.join("/")}`;
      const read = readRequestTarget(target);
      if (read === null) return;
      const url = new URL(target, "http://n");
      assert.equal(url.pathname, read.rawPath);
      assert.ok(!read.pathname.split("/").some((s) => s === "." || s === ".."), target);
      assert.ok(!read.rawPath.includes("//"), target);
      assert.equal(decodeURIComponent(url.pathname).replace(/(.)\/$/, "$1"), read.pathname);
    }),
    { numRuns: 2000 },
  );
});
