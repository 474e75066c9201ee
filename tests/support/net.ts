import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";

/** Store backends every store-touching integration test runs against; a missing one is a skipped test (counted). */
export function storeBackends(): Array<{ name: string; databaseUrl: string | null }> {
  const list: Array<{ name: string; databaseUrl: string | null }> = [{ name: "pglite", databaseUrl: null }];
  if (process.env.DATABASE_URL) list.push({ name: "postgres", databaseUrl: process.env.DATABASE_URL });
  else test("PostgreSQL variants of this file", { skip: "DATABASE_URL is not set" }, () => undefined);
  return list;
}

export interface Received {
  at: number;
  body: Record<string, unknown>;
  /** The exact bytes received (signatures are checked over these). */
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
  status: number;
}

/** Stream results of one lane received (statCode 0; contentType 1 frames, 2 audio segments). */
export const streamResults = (r: Received[], contentType: number) => r.filter((x) => x.body.statCode === 0 && x.body.contentType === contentType);
/** Stream-end callbacks received (statCode 1). */
export const streamEnds = (r: Received[]) => r.filter((x) => x.body.statCode === 1);

/** A local callback receiver that answers each request with the next status from `statuses` (then 200). */
export async function startReceiver(statuses: number[] = []) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const status = statuses.shift() ?? 200;
    const raw = Buffer.concat(chunks);
    received.push({ at: Date.now(), body: JSON.parse(raw.toString("utf8")), raw, headers: req.headers, status });
    res.writeHead(status).end(status === 200 ? "ok" : "fail");
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  // a receiver a failed test forgot to close must not keep the test process alive
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
  return {
    url,
    received,
    /** Resolves once `predicate` holds over what was received (checked on every arrival). */
    async until(predicate: (r: Received[]) => boolean, timeoutMs = 60_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met in ${timeoutMs} ms (got ${received.length} callbacks)`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 250);
        });
      }
      return received;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Polls `fn` until it returns a truthy value. */
export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
