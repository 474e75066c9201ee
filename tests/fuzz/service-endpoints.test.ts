// Property-based fuzzing of the six v4 endpoints over real HTTP against a real service: arbitrary JSON,
// valid bodies with one field mutated, raw bytes, wrong content types, truncated JSON, wrong methods.
// Every answer must be HTTP 200 (405 for a wrong method) with JSON carrying a documented code — never 1903
// (a server fault) — and a refused body must create no task. Accepted bodies point at 127.0.0.1:9 (refused
// at once), so nothing slow is pulled; MAX_CONCURRENT_STREAMS keeps accepted streams to two at a time.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, describe, test } from "node:test";
import { count } from "drizzle-orm";
import fc from "fast-check";
import { Code, isCode } from "../../lib/contract/codes";
import { tasks } from "../../server/store/schema";
import { startTestService, TEST_KEY } from "../support/app";
import { waitFor } from "../support/net";
import { mutationOf, type Json } from "../support/fuzz";


const DEAD = "127.0.0.1:9"; // nothing listens: pulls and downloads fail at once
const examples = (JSON.parse(readFileSync(new URL("../fixtures/contract-examples.json", import.meta.url), "utf8")) as { examples: Array<{ section: string; body: Json }> }).examples;
const requestOf = (section: string): Json => {
  const body = structuredClone(examples.find((e) => e.section === section && "accessKey" in e.body)!.body);
  body.accessKey = TEST_KEY;
  for (const k of ["callback", "imgCallback", "audioCallback"]) if (k in body) body[k] = `http://${DEAD}/cb`;
  if (body.data?.url) body.data.url = section === "2.5" ? `http://${DEAD}/a.mp4` : `rtmp://${DEAD}/live/fuzz`;
  // no callbacks to retry in the background: files are read back by Query, streams send no stream-end
  if (section === "2.5") delete body.callback;
  if (body.data) delete body.data.returnFinishInfo;
  return body;
};

/** A valid body per endpoint (the contract examples, pointed at a dead address). */
const BASES: Record<string, Json> = {
  "/video/v4": requestOf("2.5"),
  "/video/query/v4": requestOf("2.6"),
  "/videostream/v4": requestOf("2.1"),
  "/finish_videostream/v4": requestOf("2.2"),
  "/audiostream/v4": requestOf("2.3"),
  "/finish_audiostream/v4": requestOf("2.4"),
};
const PATHS = Object.keys(BASES);

const POLLUTERS = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"toString":"x","valueOf":1,"hasOwnProperty":null}}',
].map((t) => JSON.parse(t) as Json);

/** Marker for `n` nested arrays: spelled out only in the request text (JSON.stringify itself would overflow the stack). */
const DEEP = "__deep_nesting__";
const serialise = (body: unknown) => JSON.stringify(body).replace(new RegExp(`\\{"${DEEP}":(\\d+)\\}`, "g"), (_m, n: string) => "[".repeat(Number(n)) + "]".repeat(Number(n)));

/** Values a client could wrongly send for any field. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 50 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 50 }) }, // lone surrogates, control characters
  { weight: 3, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.double() }, // NaN / ±Infinity serialise as null
  { weight: 2, arbitrary: fc.constantFrom(-1, 0, 1, 2, 3, 4, -0.5, 1e308, -1e308, 2 ** 53 + 1, 1e-320, "NaN", "Infinity", "-1", "", " ", "\u0000", "\ud800", "0x10", "1e9999") },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(...POLLUTERS) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1_300_000 }).map((n) => "x".repeat(n)) }, // around BODY_MAX_BYTES
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 50_000 }).map((n) => ({ [DEEP]: n })) }, // deep nesting, spelled out by serialise()
  { weight: 1, arbitrary: fc.constantFrom("javascript:alert(1)", "file:///etc/passwd", "http://169.254.169.254/latest/meta-data", "rtmp://[::1]/x", "http://a:b@127.0.0.1:9/x", "concat:/etc/passwd", "http://例子.测试/a.mp4", "%00", "../../etc/passwd") },
);

/** A valid body with one field replaced, removed, or given a junk sibling (prototype keys included). */
function mutated(base: Json): fc.Arbitrary<Json> {
  return mutationOf(base, { ops: ["set", "set", "set", "delete", "sibling"], value: junk, key: fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "accessKey", "data", "url"), fc.string({ maxLength: 8 })) });
}

describe("fuzz: the six v4 endpoints", async () => {
  const svc = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: "0", AUTH_FAIL_LIMIT_PER_MINUTE: "0", MAX_CONCURRENT_STREAMS: "2" } });
  after(async () => {
    const t0 = Date.now();
    await svc.close();
    if (process.env.FUZZ_TIMING) console.log("close", Date.now() - t0, "ms");
  });
  const db = svc.engine!.ctx.store.db;
  const taskCount = async () => (await db.select({ n: count() }).from(tasks))[0].n;
  let known = await taskCount();
  const codesSeen = new Map<number, number>();

  /** One request; asserts the answer is a documented, non-fault code and a refusal created no task. */
  async function exchange(path: string, body: string | Uint8Array, init: { method?: string; contentType?: string } = {}): Promise<Json> {
    const headers: Record<string, string> = init.contentType === undefined ? {} : { "content-type": init.contentType };
    const res = await fetch(`${svc.url}${path}`, { method: init.method ?? "POST", body: init.method === "GET" || init.method === "HEAD" ? undefined : typeof body === "string" ? body : Buffer.from(body), headers });
    const text = await res.text();
    assert.ok(res.status < 500, `HTTP ${res.status} for ${path}: ${text.slice(0, 200)}`);
    assert.equal(res.status, (init.method ?? "POST") === "POST" ? 200 : 405, text.slice(0, 200));
    if (init.method === "HEAD") return {};
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    const json = JSON.parse(text) as Json;
    assert.ok(isCode(json.code), `undocumented code ${json.code}`);
    assert.notEqual(json.code, Code.SERVICE_FAILURE, `a client body caused a service failure: ${json.message} — body ${String(typeof body === "string" ? body : "<bytes>").slice(0, 300)}`);
    assert.equal(typeof json.message, "string");
    assert.equal(typeof json.requestId, "string");
    codesSeen.set(json.code, (codesSeen.get(json.code) ?? 0) + 1);
    // only submissions create tasks: any growth since the last answer belongs to this request
    const now = await taskCount();
    if (json.code !== Code.SUCCESS) assert.equal(now, known, `a refused body (${json.code}) created a task`);
    known = now;
    return json;
  }

  test("valid bodies with one field mutated (wrong types, huge and unicode strings, odd numbers, nested junk, prototype keys)", async () => {
    for (const path of PATHS) {
      const t0 = Date.now();
      await fc.assert(
        fc.asyncProperty(mutated(BASES[path]), async (body) => {
          await exchange(path, serialise(body));
        }),
        { numRuns: path === "/video/v4" ? 500 : 250 },
      );
      if (process.env.FUZZ_TIMING) console.log(path, Date.now() - t0, "ms");
    }
  });

  test("arbitrary JSON, with and without a valid accessKey", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), fc.jsonValue({ maxDepth: 5 }), fc.boolean(), async (path, value, keyed) => {
        const body = keyed && value && typeof value === "object" && !Array.isArray(value) ? { ...value, accessKey: TEST_KEY } : value;
        await exchange(path, JSON.stringify(body));
      }),
      { numRuns: 400 },
    );
  });

  test("raw bytes, truncated JSON and wrong content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.oneof(
          fc.uint8Array({ maxLength: 2000 }),
          fc.string({ unit: "binary", maxLength: 500 }),
          fc.constantFrom(...PATHS).chain((p) => {
            const text = JSON.stringify(BASES[p]);
            return fc.integer({ min: 0, max: text.length - 1 }).map((n) => text.slice(0, n));
          }),
          fc.constantFrom("", " ", "null", "[]", "0", '"str"', "true", "{}", '{"accessKey":null}', `{"accessKey":"${TEST_KEY}"}`, "\ufeff{}", '{"a":1,}', "{'a':1}", "NaN"),
        ),
        fc.constantFrom(undefined, "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/octet-stream", "application/json; charset=utf-16", "image/png"),
        async (path, body, contentType) => {
          await exchange(path, body, { contentType });
        },
      ),
      { numRuns: 400 },
    );
  });

  test("wrong methods are 405 with a JSON 1902", async () => {
    for (const path of PATHS)
      for (const method of ["GET", "PUT", "DELETE", "PATCH", "HEAD"]) {
        const json = await exchange(path, "{}", { method });
        if (method !== "HEAD") assert.equal(json.code, Code.INVALID_PARAMS);
      }
  });

  test("afterwards: no prototype was polluted, the service is alive and a valid file still runs to its result", async () => {
    assert.equal(({} as Json).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);
    for (const code of [Code.SUCCESS, Code.INVALID_PARAMS, Code.NO_PERMISSION]) assert.ok((codesSeen.get(code) ?? 0) > 0, `the fuzz reached code ${code}: ${JSON.stringify([...codesSeen])}`);
    const body = { ...BASES["/video/v4"], data: { ...BASES["/video/v4"].data, btId: "after-fuzz" } };
    const ack = await exchange("/video/v4", JSON.stringify(body));
    assert.equal(ack.code, Code.SUCCESS);
    // the dead URL cannot be downloaded: the file ends with 1905, seen through Query
    const done = await waitFor(async () => {
      const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "after-fuzz" });
      return q.code === Code.PROCESSING ? null : q;
    }, 60_000);
    assert.equal(done.code, Code.CONTENT_UNRECOGNISED);
    assert.equal(done.requestId, ack.requestId);
  });
});
