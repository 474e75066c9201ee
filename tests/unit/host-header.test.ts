// Issue 25.5: a Host header is used only when it is exactly host[:port], and an API task's media links reach the
// dashboard relative, read value by value as URLs (the text replace on JSON missed a base JSON escapes).
import assert from "node:assert/strict";
import { test } from "node:test";
import { plainHost } from "../../server/net/host-header";
import { relativeLinks, relativeMediaLink } from "../../server/dashboard/api-tasks";
import { connectSources } from "../../server/auth/headers";

test("plainHost: names, IPv4 and [IPv6] with a port 1-65535; nothing else", () => {
  for (const h of ["localhost", "localhost:3000", "127.0.0.1:3000", "[::1]:8080", "Moderation.Example.COM", "my_service:80", "a.b.c.", "xn--vil-bma.example"]) assert.equal(plainHost(h), true, h);
  for (const h of ["", "evil.example\\x", "evil.example/x", "evil.example?x", "evil.example#x", "user@evil.example", "evil example", "evil.example:0", "evil.example:65536", "evil.example:80:81", "1.2.3", "0x7f.1", "[::1", "[fe80::1%25eth0]", "évil.example", "-evil.example", "a".repeat(64) + ".example"]) assert.equal(plainHost(h), false, JSON.stringify(h));
  assert.equal(plainHost(undefined), false);
  assert.equal(connectSources("evil.example\\x"), "'self'", "never a CSP source");
});

test("media links of the task's own base become relative, whatever the base was; other links stay", () => {
  const legacy = "http://evil.example\\x"; // a base stored before Host was checked
  const body = { frameDetail: [{ imgUrl: `${legacy}/media/0123/v1.jpg?exp=1&sig=s` }, { imgUrl: "http://Other.example:8080/media/0123/v2.jpg?exp=1&sig=t" }], note: "see /media/ docs" };
  const out = relativeLinks(body, legacy) as typeof body;
  assert.equal(out.frameDetail[0].imgUrl, "/media/0123/v1.jpg?exp=1&sig=s");
  assert.equal(out.frameDetail[1].imgUrl, "http://Other.example:8080/media/0123/v2.jpg?exp=1&sig=t", "another origin is not this task's");
  assert.equal(out.note, "see /media/ docs");
  // by URL: the same origin written differently (case, default port) is still the task's
  assert.equal(relativeMediaLink("http://MOD.example:80/media/a/v1.jpg?exp=1&sig=s", "http://mod.example"), "/media/a/v1.jpg?exp=1&sig=s");
  assert.equal(relativeMediaLink("http://mod.example/other/v1.jpg", "http://mod.example"), "http://mod.example/other/v1.jpg");
  assert.equal(relativeMediaLink("http://x@mod.example/media/a/v1.jpg", "http://mod.example"), "http://x@mod.example/media/a/v1.jpg");
  assert.equal(relativeMediaLink("/media/a/v1.jpg?exp=1&sig=s", ""), "/media/a/v1.jpg?exp=1&sig=s", "the dashboard's own links are relative already");
});
