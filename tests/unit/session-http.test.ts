// The ingest's WHIP/WHEP HTTP edge (server/demo/session-http.ts) on a real HTTP server: routing of session paths,
// an oversized body answered 413 (the answer reaches the client), a failing handler answered 500.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { readBody, routeSessions, sendText } from "../../server/demo/session-http";

const logs: string[] = [];
let server: http.Server;
let base: string;
before(async () => {
  server = http.createServer((req, res) => {
    const routed = routeSessions(req, res, "whep", { headers: { "x-edge": "1" }, log: (m) => logs.push(m) }, async (name, id) => {
      if (name === "boom") throw new Error("handler failed");
      const body = await readBody(req, 1024);
      if (body === null) return sendText(res, 413, "too large");
      sendText(res, 200, JSON.stringify({ name, id: id ?? null, bytes: body.length }));
    });
    if (!routed) sendText(res, 418, "not routed");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

test("session paths: /<prefix>/<name> and /<prefix>/<name>/<uuid> reach the handler; other prefixes are not routed; a bad name is 404 with the rule", async () => {
  const post = (p: string, body = "v=0") => fetch(`${base}${p}`, { method: "POST", body });
  assert.deepEqual(await (await post("/whep/cam-1")).json(), { name: "cam-1", id: null, bytes: 3 });
  const id = "0b5c1f7e-9a41-4c3e-9d2b-1f0e8a7c6d5e";
  assert.deepEqual(await (await post(`/whep/cam-1/${id}`)).json(), { name: "cam-1", id, bytes: 3 });
  assert.equal((await post("/whip/cam-1")).status, 418);
  const bad = await post("/whep/cam.1");
  assert.equal(bad.status, 404);
  assert.equal(bad.headers.get("x-edge"), "1");
  assert.match(await bad.text(), /letters, digits, _ and -/);
});

test("a body over the limit is answered 413, and the client reads that answer; a handler that throws is logged and answered 500", async () => {
  const big = await fetch(`${base}/whep/cam`, { method: "POST", body: "x".repeat(4096) });
  assert.equal(big.status, 413);
  assert.equal(await big.text(), "too large");
  const boom = await fetch(`${base}/whep/boom`, { method: "POST", body: "v=0" });
  assert.equal(boom.status, 500);
  assert.ok(logs.some((l) => l === "[whep] POST /whep/boom failed: handler failed"), logs.join("\n"));
});
