// An audited request whose client leaves before the answer (a Close whose dialog hung at "Closing…", then a reload)
// is still written to the audit log: server/auth/gate.ts audits when the response closes, finished or not.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { createAuth, type Auth } from "../../server/auth";
import { createAuthApi } from "../../server/auth/api";
import { gate } from "../../server/auth/gate";
import { openStore, type Store } from "../../server/store/db";
import { CSRF_HEADER, IDENTITY_HEADERS } from "../../lib/roles";
import { waitFor } from "../support/net";

let store: Store;
let auth: Auth;
let server: http.Server;
let base: string;
let dataDir: string;
let handlerDone: Promise<void>;
let markDone: () => void;
let reached: Promise<void>;
let markReached: () => void;

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "close-audit-"));
  store = await openStore({ dataDir });
  auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: "supervisor-pass-1", log: () => undefined });
  await auth.bootstrap();
  handlerDone = new Promise((r) => (markDone = r));
  reached = new Promise((r) => (markReached = r));
  const opts = { auth, dev: false, trustProxy: false, publicBaseUrl: null, mediaOrigins: [], maxPublicBodyBytes: 64 * 1024 };
  server = http.createServer((req, res) => {
    void gate(opts, req, res).then((answered) => {
      if (answered) return;
      markReached();
      // stand-in for a slow Close: the stream ends, but the answer comes only after the browser has gone
      res.once("close", () => {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
        markDone();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await store.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("a Close whose client left before the answer is still in the audit log, with who did it", async () => {
  const api = createAuthApi(auth);
  const res = await api.signIn(new Request("http://x/api/auth/signin", { method: "POST", body: JSON.stringify({ username: "admin", password: "supervisor-pass-1" }), headers: { [IDENTITY_HEADERS.ip]: "10.0.0.1" } }));
  assert.equal(res.status, 200);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  const csrf = decodeURIComponent(cookies.find((c) => c.startsWith("mp_csrf="))!.slice("mp_csrf=".length));
  const abort = new AbortController();
  const sent = fetch(`${base}/api/streams/abc/close`, { method: "POST", headers: { cookie: cookies.join("; "), [CSRF_HEADER]: csrf, "content-type": "application/json" }, body: "{}", signal: abort.signal });
  // the request reached the handler: the browser gives up (reload, tab closed)
  await reached;
  abort.abort();
  await assert.rejects(sent);
  await handlerDone;
  const row = await waitFor(async () => (await auth.auditPage({ limit: 50, action: "stream.close" }))[0] ?? null, 10_000);
  assert.equal(row.username, "admin");
  assert.equal(row.target, "/api/streams/abc/close");
  assert.match(row.outcome, /client left before the answer/);
});
