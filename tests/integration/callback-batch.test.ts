// Group commit of live callbacks over a real store: callbacks arriving together are written by one batch, each
// answered only after its batch committed, repeats (also two copies inside one batch) stored once, counts and
// "now"/worst folded in arrival order, a stream removed meanwhile answered 404, events published once per stored row.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { StreamEvent } from "../../lib/dashboard-api";
import type { Store } from "../../server/store/db";
import { openStreamsDashboard, type StreamsUnderTest } from "../support/streams-dashboard";
import { dashboardStreams, receivedCallbacks } from "../../server/store/schema";
import { frameResultBody, type Level } from "../support/callback-bodies";

const frameBody = (requestId: string, n: number, level: Level, detectType?: 1 | 2) => frameResultBody(requestId, n, level, { detectType, imgUrl: `http://127.0.0.1:9/media/${requestId}-${n}.jpg` });

describe("group commit of live callbacks", () => {
  let t: StreamsUnderTest;
  let store: Store;
  let streams: StreamsUnderTest["streams"];
  const events: StreamEvent[] = [];

  before(async () => {
    t = await openStreamsDashboard("mod-batch-", { event: (e) => void events.push(e) });
    ({ store, streams } = t);
  });
  after(() => t.close());

  const addStream = (requestId: string) => t.addStream(requestId);
  const send = (requestId: string, body: unknown, deliveryId: string) => streams.receive(`token-${requestId}`, JSON.stringify(body), new Headers({ "webhook-id": deliveryId }));

  test("sixty callbacks of two streams at once: each stored once, repeats answered as such, counts and risk in order", async () => {
    await addStream("b1");
    await addStream("b2");
    // b1: 30 frames, the 10th REJECT, the last PASS; every 5th also sent twice (the copy in the same batch)
    const sends: Array<Promise<{ status: number; body: Record<string, unknown> }>> = [];
    for (let n = 1; n <= 30; n++) {
      const level: Level = n === 10 ? "REJECT" : "PASS";
      sends.push(send("b1", frameBody("b1", n, level), `b1-${n}`));
      if (n % 5 === 0) sends.push(send("b1", frameBody("b1", n, level), `b1-${n}`));
      // b2: 30 frames, every third skipped by the detectors (not checked), the last checked one REVIEW
      sends.push(send("b2", frameBody("b2", n, n === 28 ? "REVIEW" : "PASS", n % 3 === 0 ? 2 : 1), `b2-${n}`));
    }
    const answers = await Promise.all(sends);
    assert.ok(answers.every((a) => a.status === 200), JSON.stringify(answers.find((a) => a.status !== 200)));
    assert.equal(answers.filter((a) => a.body.duplicate === true).length, 6, "the six second copies are repeats");

    const [b1] = await store.db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, "b1"));
    const [b2] = await store.db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, "b2"));
    assert.deepEqual([b1.frames, b1.framesChecked, b1.framesNotChecked, b1.currentRisk, b1.worstRisk, b1.lastFrameUrl], [30, 30, 0, "PASS", "REJECT", "http://127.0.0.1:9/media/b1-30.jpg"]);
    // frames 28 (REVIEW, checked), 29 (PASS, checked), 30 (not checked): "now" is frame 29's
    assert.deepEqual([b2.frames, b2.framesChecked, b2.framesNotChecked, b2.currentRisk, b2.worstRisk], [30, 20, 10, "PASS", "REVIEW"]);
    const rows = await store.db.select({ id: receivedCallbacks.id, requestId: receivedCallbacks.requestId, deliveryId: receivedCallbacks.deliveryId }).from(receivedCallbacks);
    assert.equal(rows.length, 60);
    assert.equal(new Set(rows.map((r) => `${r.requestId}/${r.deliveryId}`)).size, 60);
    // one event per stored row, carrying that row's id, in arrival order per stream
    assert.equal(events.length, 60);
    assert.deepEqual(new Set(events.map((e) => e.id)), new Set(rows.map((r) => r.id)));
    const b1Frames = events.filter((e) => e.requestId === "b1").map((e) => (e.body.requestId as string).split("_v")[1]);
    assert.deepEqual(b1Frames, Array.from({ length: 30 }, (_, i) => String(i + 1)));
    const byDelivery = new Map(rows.map((r) => [r.id, r.deliveryId]));
    for (const e of events) assert.equal(byDelivery.get(e.id), `${e.requestId}-${(e.body.requestId as string).split("_v")[1]}`, "the event's id is the row of its own delivery");

    // a repeat arriving later is still a repeat
    const again = await send("b1", frameBody("b1", 7, "PASS"), "b1-7");
    assert.deepEqual([again.status, again.body.duplicate], [200, true]);
  });

  test("a stream removed while its callbacks are in flight: 404 for them, the others of the batch stored", async () => {
    await addStream("b3");
    await addStream("b4");
    assert.equal((await send("b3", frameBody("b3", 1, "PASS"), "b3-1")).status, 200); // the receiver now knows b3's token
    await store.db.delete(dashboardStreams).where(eq(dashboardStreams.requestId, "b3"));
    const [gone, kept] = await Promise.all([send("b3", frameBody("b3", 2, "PASS"), "b3-2"), send("b4", frameBody("b4", 1, "REJECT"), "b4-1")]);
    assert.deepEqual([gone.status, gone.body.error], [404, "unknown receiver"]);
    assert.equal(kept.status, 200);
    const [b4] = await store.db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, "b4"));
    assert.deepEqual([b4.frames, b4.worstRisk], [1, "REJECT"]);
    assert.equal((await store.db.select().from(receivedCallbacks).where(eq(receivedCallbacks.requestId, "b3"))).length, 1);
  });

  test("the end callback in the same batch as the last frames: counted, then ended with its worst risk", async () => {
    await addStream("b5");
    const end = { code: 1100, message: "Success", requestId: "b5", contentType: 1, statCode: 1, riskLevel: "REVIEW", pullStreamSuccess: true, auxInfo: { streamTime: 3 } };
    const answers = await Promise.all([send("b5", frameBody("b5", 1, "PASS"), "b5-1"), send("b5", frameBody("b5", 2, "PASS"), "b5-2"), send("b5", end, "b5-end")]);
    assert.ok(answers.every((a) => a.status === 200), JSON.stringify(answers));
    const [b5] = await store.db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, "b5"));
    assert.deepEqual([b5.frames, b5.status, b5.endReason, b5.worstRisk, b5.currentRisk], [2, "ended", "ended", "REVIEW", "PASS"]);
    assert.ok(b5.endedAt);
  });

  test("a stream-end's PASS over nothing checked (no frame pulled, or every frame sent and unchecked) leaves the worst at no results; one over checked frames, or with PASS frames not sent, stands", async () => {
    const end = (requestId: string, riskLevel: Level, pullStreamSuccess: boolean, returnAllImg = 1) => ({ code: 1100, message: "Success", requestId, contentType: 1, statCode: 1, riskLevel, pullStreamSuccess, auxInfo: { streamTime: 0, ...(pullStreamSuccess ? {} : { errorCode: 3003 }) }, detail: { requestParams: { returnAllImg } } });
    const worstOf = async (id: string) => (await store.db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, id)))[0].worstRisk;
    for (const id of ["d1", "d2", "d3", "d4", "d5"]) await addStream(id);
    assert.equal((await send("d1", end("d1", "PASS", false), "d1-end")).status, 200);
    assert.equal(await worstOf("d1"), null, "never pulled: not a PASS");
    await send("d2", frameBody("d2", 1, "PASS", 2), "d2-1");
    await send("d2", end("d2", "PASS", true), "d2-end");
    assert.equal(await worstOf("d2"), null, "only unchecked frames: not a PASS");
    await send("d3", frameBody("d3", 1, "PASS"), "d3-1");
    await send("d3", end("d3", "PASS", true), "d3-end");
    assert.equal(await worstOf("d3"), "PASS", "a checked frame: PASS stands");
    await send("d4", end("d4", "REVIEW", true), "d4-end");
    assert.equal(await worstOf("d4"), "REVIEW", "a flagged verdict is never dropped");
    await send("d5", end("d5", "PASS", true, 0), "d5-end");
    assert.equal(await worstOf("d5"), "PASS", "returnAllImg 0: checked PASS frames were never sent, the stream-end's PASS is their word");
  });
});
