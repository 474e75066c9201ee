import assert from "node:assert/strict";
import { test } from "node:test";
import { connectSources } from "../../server/auth/headers";

test("CSP connect-src: the page's own host for socket.io's WebSocket, never any host; an odd Host header adds nothing", () => {
  assert.equal(connectSources("localhost:3000"), "'self' ws://localhost:3000 wss://localhost:3000");
  assert.equal(connectSources("[::1]:3000"), "'self' ws://[::1]:3000 wss://[::1]:3000");
  for (const bad of [undefined, "", "evil.example; script-src *", "a b", "x:3000/path"]) assert.equal(connectSources(bad), "'self'", String(bad));
});
