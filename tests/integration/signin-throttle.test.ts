// Sign-in throttling through the gate and the sign-in handler on a real HTTP server (real source addresses:
// 127.0.0.x loopback; IPv6 through X-Forwarded-For with TRUST_PROXY), a real store and argon2.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { createAuth, type Auth } from "../../server/auth";
import { createAuthApi } from "../../server/auth/api";
import { gate } from "../../server/auth/gate";
import { openStore, type Store } from "../../server/store/db";
import { waitFor } from "../support/net";

const PASSWORD = "supervisor-pass-1";
let store: Store;
let auth: Auth;
let server: http.Server;
let port: number;
let dataDir: string;

interface Answer {
  status: number;
  retryAfter: string | null;
  error: string;
  device: string | null;
}

/** POST /api/auth/signin from `localAddress` (or, `forwardedFor`, a proxied client), with an optional mp_device cookie. */
function signIn(username: string, password: string, o: { from?: string; forwardedFor?: string; device?: string } = {}): Promise<Answer> {
  const body = JSON.stringify({ username, password });
  const headers: http.OutgoingHttpHeaders = { "content-type": "application/json", "content-length": Buffer.byteLength(body), origin: `http://127.0.0.1:${port}` };
  if (o.forwardedFor) headers["x-forwarded-for"] = o.forwardedFor;
  if (o.device) headers.cookie = `mp_device=${o.device}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/api/auth/signin", method: "POST", localAddress: o.from ?? "127.0.0.1", agent: false, headers }, async (res) => {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const json = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { error?: string };
      const device = [res.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("mp_device="));
      resolve({ status: res.statusCode ?? 0, retryAfter: (res.headers["retry-after"] as string | undefined) ?? null, error: json.error ?? "", device: device ? decodeURIComponent(device.split(";")[0].slice("mp_device=".length)) : null });
    });
    req.on("error", reject);
    req.end(body);
  });
}

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "signin-throttle-"));
  store = await openStore({ dataDir });
  auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: PASSWORD, log: () => undefined });
  await auth.bootstrap();
  const api = createAuthApi(auth);
  const opts = { auth, dev: false, trustProxy: true, publicBaseUrl: null, mediaOrigins: [], maxPublicBodyBytes: 64 * 1024 };
  server = http.createServer((req, res) => {
    void gate(opts, req, res).then(async (answered) => {
      if (answered) return;
      // what Next's route handler does: app/api/auth/signin/route.ts → auth API
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const answer = await api.signIn(new Request(`http://x${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) }));
      const out: http.OutgoingHttpHeaders = {};
      answer.headers.forEach((v, k) => (out[k] = v));
      out["set-cookie"] = answer.headers.getSetCookie();
      res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await store.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("sign-in throttle across addresses", () => {
  test("many addresses against one account: past 10 failures each attempt waits; a known device and the end of the delay still let the right password in", async () => {
    const known = await signIn("admin", PASSWORD, { from: "127.0.0.2" });
    assert.equal(known.status, 200);
    assert.ok(known.device, "a sign-in leaves a known-device cookie");

    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signIn("admin", `wrong-${i}`, { from: `127.0.0.${11 + i}` })).status);
    assert.deepEqual(statuses, Array(10).fill(401), "one wrong password per address: the per-address limits never trigger");
    const spaced = await signIn("admin", "wrong-10", { from: "127.0.0.21" });
    assert.equal(spaced.status, 429, "the eleventh from yet another address waits");
    assert.match(spaced.error, /too many failed sign-ins; try again in \d+ s/);
    assert.match(String(spaced.retryAfter), /^[1-9]\d*$/);
    assert.equal((await signIn("admin", PASSWORD, { from: "127.0.0.22" })).status, 429, "during the delay even the right password waits (no oracle)");

    // the supervisor's own browser is not locked out …
    assert.equal((await signIn("admin", PASSWORD, { from: "127.0.0.2", device: known.device! })).status, 200);
    // … a forged or another account's device token does not count
    const other = await auth.createUser("mod1", "moderator");
    const otherDevice = (await signIn("mod1", other.password, { from: "127.0.0.3" })).device!;
    assert.equal((await signIn("admin", PASSWORD, { from: "127.0.0.2", device: otherDevice })).status, 429);
    assert.equal((await signIn("admin", PASSWORD, { from: "127.0.0.2", device: `${known.device!.slice(0, -2)}xx` })).status, 429);
    // … and once the delay has passed the right password works from anywhere
    const later = await waitFor(async () => {
      const r = await signIn("admin", PASSWORD, { from: "127.0.0.23" });
      return r.status === 429 ? null : r;
    }, 20_000, 250);
    assert.equal(later.status, 200);
  });

  test("IPv6 clients are grouped by /64: hosts of one /64 share the per-address limits", async () => {
    const u = await auth.createUser("rev6", "reviewer");
    for (let i = 1; i <= 5; i++) assert.equal((await signIn("rev6", `wrong-${i}`, { forwardedFor: `2001:db8:5:5::${i}` })).status, 401);
    const sameNet = await signIn("rev6", u.password, { forwardedFor: "2001:db8:5:5:ffff::99" });
    assert.equal(sameNet.status, 429, "another host of the same /64 is the same client");
    assert.equal((await signIn("rev6", u.password, { forwardedFor: "2001:db8:5:6::1" })).status, 200, "another /64 is not");
  });
});
