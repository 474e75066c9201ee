// Property-based fuzzing of the dashboard's callback receivers: the contract parse (thousands of bodies,
// in-process) and the two Next route handlers over a real store (a few hundred requests).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { VideoFileCallback } from "../../lib/contract/video";
import { VideoStreamCallback } from "../../lib/contract/videostream-callbacks";
import { AudioStreamCallback } from "../../lib/contract/audiostream-callbacks";
import { unstorable } from "../../lib/contract/storable";
import { parseCallback } from "../../server/dashboard/receiver";
import { createDashboard } from "../../server/dashboard";
import { hashToken } from "../../server/dashboard/tokens";
import { setRegistry, type Registry } from "../../server/registry";
import { openStore, type Store } from "../../server/store/db";
import { dashboardFiles, dashboardStreams, receivedCallbacks } from "../../server/store/schema";
import { POST as fileRoute } from "../../app/api/receiver/file/[token]/route";
import { POST as streamRoute } from "../../app/api/receiver/stream/[token]/route";
import { mutationOf, type Json } from "../support/fuzz";


const examples = (JSON.parse(readFileSync(new URL("../fixtures/contract-examples.json", import.meta.url), "utf8")) as { examples: Array<{ section: string; body: Json }> }).examples;
const bodiesOf = (...sections: string[]) => examples.filter((e) => sections.includes(e.section)).map((e) => e.body);
const FILE_BODIES = bodiesOf("3.6");
const VIDEO_STREAM_BODIES = bodiesOf("3.2", "3.3").concat(bodiesOf("3.5").filter((b) => b.contentType === 1));
const AUDIO_STREAM_BODIES = bodiesOf("3.4").concat(bodiesOf("3.5").filter((b) => b.contentType === undefined));
const SCHEMAS = [
  { name: "video file", schema: VideoFileCallback, seeds: FILE_BODIES },
  { name: "video stream", schema: VideoStreamCallback, seeds: VIDEO_STREAM_BODIES },
  { name: "audio stream", schema: AudioStreamCallback, seeds: AUDIO_STREAM_BODIES },
];

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1, 2, 3, 1e308, "NaN", "", "\u0000", "\ud800", null, true, [], {}),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}'].map((t) => JSON.parse(t) as unknown)),
  fc.integer({ min: 1, max: 200_000 }).map((n) => "x".repeat(n)),
);

/** A seed body with one field replaced, removed or given a sibling; `fix` can then pin fields (e.g. requestId). */
const mutatedFrom = (seeds: Json[], fix: (b: Json) => void = () => undefined) =>
  fc.constantFrom(...seeds).chain((seed) =>
    mutationOf(seed, { ops: ["set", "set", "delete", "sibling"], value: junk, key: fc.constantFrom("__proto__", "constructor", "extra", "code") }).map((body) => {
      fix(body);
      return JSON.stringify(body);
    }),
  );

/** parseCallback never throws: it accepts a storable, schema-valid body or answers 400 with a reason. */
function checkParse(schema: (typeof SCHEMAS)[number]["schema"], raw: string) {
  const r = parseCallback(schema, raw);
  if (r.ok) {
    assert.equal(unstorable(r.json), null, "an accepted body can be stored");
    assert.equal(schema.safeParse(r.json).success, true);
  } else {
    assert.equal(r.answer.status, 400);
    assert.equal(r.answer.body.ok, false);
    assert.equal(typeof r.answer.body.error, "string");
  }
}

describe("fuzz: callback parsing (in-process)", () => {
  for (const { name, schema, seeds } of SCHEMAS) {
    test(`${name}: mutated contract examples, arbitrary JSON and arbitrary text`, () => {
      fc.assert(fc.property(mutatedFrom(seeds), (raw) => checkParse(schema, raw)), { numRuns: 1000 });
      fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => checkParse(schema, JSON.stringify(v) ?? "null")), { numRuns: 300 });
      fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom(...seeds.map((s) => JSON.stringify(s))).chain((t) => fc.nat(t.length).map((n) => t.slice(0, n)))), (raw) => checkParse(schema, raw)), { numRuns: 300 });
    });
  }
  test("deep nesting and NUL characters are refused with 400, never thrown", () => {
    const deep = JSON.stringify({ ...FILE_BODIES[0], auxInfo: { passThrough: { k: "__deep__" } } }).replace('"__deep__"', "[".repeat(100_000) + "]".repeat(100_000));
    for (const { schema } of SCHEMAS) checkParse(schema, deep);
    const r = parseCallback(VideoFileCallback, JSON.stringify({ ...FILE_BODIES[0], btId: "a\u0000b" }));
    assert.equal(r.ok, false);
  });
});

describe("fuzz: the receiver route handlers over a real store", () => {
  let store: Store;
  let dataDir: string;
  const FILE_TOKEN = "file-token-fuzz";
  const VIDEO_TOKEN = "video-stream-token-fuzz";
  const AUDIO_TOKEN = "audio-stream-token-fuzz";
  const FILE_ID = FILE_BODIES[0].requestId as string;
  const VIDEO_ID = "5515ce1f9b474a6c4a3d79a8dfcaeaf4";
  const AUDIO_ID = "b639042cbfe229359e672074762c5583";
  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mod-fuzz-rx-"));
    store = await openStore({ dataDir, databaseUrl: null });
    const noop = () => undefined;
    const dashboard = createDashboard({ store, serviceBaseUrl: "http://127.0.0.1:9", accessKey: "unused", embedded: false, pollIntervalMs: 2000, receiverOrigin: "http://127.0.0.1:9", capabilities: () => [], publish: noop, publishStreamEvent: noop, publishStreamSummary: noop });
    setRegistry({ dashboard } as unknown as Registry);
    const now = new Date();
    await store.db.insert(dashboardFiles).values({ requestId: FILE_ID, btId: "vid-001", url: "http://x/a.mp4", serviceBaseUrl: "http://127.0.0.1:9", receiverToken: hashToken(FILE_TOKEN), status: "processing", createdAt: now });
    await store.db.insert(dashboardStreams).values([
      { requestId: VIDEO_ID, kind: "video", url: "rtmp://x/a", serviceBaseUrl: "http://127.0.0.1:9", receiverToken: hashToken(VIDEO_TOKEN), status: "running", startedAt: now },
      { requestId: AUDIO_ID, kind: "audio", url: "rtmp://x/b", serviceBaseUrl: "http://127.0.0.1:9", receiverToken: hashToken(AUDIO_TOKEN), status: "running", startedAt: now },
    ]);
  });
  after(async () => {
    await store.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const call = async (route: typeof fileRoute, token: string, raw: string, deliveryId?: string) => {
    const res = await route(new Request("http://127.0.0.1/api/receiver", { method: "POST", body: raw, headers: deliveryId ? { "webhook-id": deliveryId } : {} }), { params: Promise.resolve({ token }) });
    assert.ok(res.status < 500, `HTTP ${res.status}`);
    assert.ok([200, 400, 401, 404].includes(res.status), `HTTP ${res.status}`);
    const body = (await res.json()) as Json;
    assert.equal(typeof body.ok, "boolean");
    return { status: res.status, body };
  };

  test("mutated bodies that belong to the task reach the store: answered 200/400, never a 5xx or a throw", async () => {
    const statuses = new Map<number, number>();
    const seen = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const cases = [
      { route: fileRoute, token: FILE_TOKEN, arb: mutatedFrom(FILE_BODIES, (b) => void (b.requestId = FILE_ID)) },
      { route: streamRoute, token: VIDEO_TOKEN, arb: mutatedFrom(VIDEO_STREAM_BODIES, (b) => void (b.requestId = `${VIDEO_ID}_v1`)) },
      { route: streamRoute, token: AUDIO_TOKEN, arb: mutatedFrom(AUDIO_STREAM_BODIES, (b) => void (b.requestId = `${AUDIO_ID}_1`)) },
    ];
    for (const { route, token, arb } of cases) {
      await fc.assert(
        fc.asyncProperty(arb, fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/)), async (raw, deliveryId) => void seen((await call(route, token, raw, deliveryId ?? undefined)).status)),
        { numRuns: 120 },
      );
    }
    assert.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(400) ?? 0) > 0, `both accepted and refused bodies were exercised: ${JSON.stringify([...statuses])}`);
    // arbitrary text and an unknown token
    await fc.assert(fc.asyncProperty(fc.string({ unit: "binary", maxLength: 300 }), async (raw) => void (await call(streamRoute, VIDEO_TOKEN, raw))), { numRuns: 60 });
    assert.equal((await call(fileRoute, "no-such-token", JSON.stringify(FILE_BODIES[0]))).status, 404);
    assert.equal(({} as Json).polluted, undefined, "no prototype was polluted");
    const stored = await store.db.select().from(receivedCallbacks).where(eq(receivedCallbacks.requestId, VIDEO_ID));
    assert.ok(stored.length > 0, "valid stream callbacks were stored");
  });

  test("the same delivery arriving twice at once is stored once; both copies are answered 200", async () => {
    const body = structuredClone(VIDEO_STREAM_BODIES[0]);
    body.requestId = `${VIDEO_ID}_v999`;
    const raw = JSON.stringify(body);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(streamRoute, VIDEO_TOKEN, raw, "msg_twin_delivery")));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200, 200], JSON.stringify(answers.map((a) => a.body)));
    const rows = await store.db.select().from(receivedCallbacks).where(eq(receivedCallbacks.deliveryId, "msg_twin_delivery"));
    assert.equal(rows.length, 1);
  });
});
