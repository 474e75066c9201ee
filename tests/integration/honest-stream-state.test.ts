// The dashboard's stream record over a real store: frames the detectors skipped (detectType 2) are counted apart,
// never move "now" or worst, and a stream whose detection falls behind is listed on the Status page.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { StreamSummary } from "../../lib/dashboard-api";
import { streamsBehind } from "../../server/dashboard/status";
import { waitFor } from "../support/net";
import { frameResultBody, type Level } from "../support/callback-bodies";
import type { Store } from "../../server/store/db";
import { openStreamsDashboard, type StreamsUnderTest } from "../support/streams-dashboard";
import { dashboardStreams, receivedCallbacks } from "../../server/store/schema";


describe("honest live state in the dashboard's stream record", () => {
  let t: StreamsUnderTest;
  let store: Store;
  let streams: StreamsUnderTest["streams"];
  const published: StreamSummary[] = [];
  let delivery = 0;

  before(async () => {
    t = await openStreamsDashboard("mod-honest-", { summary: (s) => void published.push(s) });
    ({ store, streams } = t);
  });
  after(() => t.close());

  const addStream = (requestId: string, detectStep: number | null = null) => t.addStream(requestId, { detectStep });
  let frameNo = 0;
  const frame = async (requestId: string, level: Level, detectType?: 1 | 2) => {
    frameNo += 1;
    const body = frameResultBody(requestId, frameNo, level, { detectType });
    const answer = await streams.receive(`token-${requestId}`, JSON.stringify(body), new Headers({ "webhook-id": `msg_${++delivery}` }));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  };
  const summary = async (requestId: string) => (await streams.detail(requestId))!.stream;

  test("unchecked frames are counted apart; NOW is the last checked frame; worst ignores unchecked frames", async () => {
    await addStream("s1");
    await frame("s1", "PASS");
    await frame("s1", "REJECT", 1);
    await frame("s1", "PASS", 2);
    await frame("s1", "PASS", 2);
    let s = await summary("s1");
    assert.deepEqual(
      { frames: s.frames, checked: s.framesChecked, notChecked: s.framesNotChecked, now: s.currentRisk, worst: s.worstRisk },
      { frames: 4, checked: 2, notChecked: 2, now: "REJECT", worst: "REJECT" },
      "the two unchecked PASS frames did not become NOW",
    );
    assert.deepEqual({ frames: s.framesLastMinute, notChecked: s.notCheckedLastMinute }, { frames: 4, notChecked: 2 });
    // the live summary carries the same counts (callbacks in quick succession: the trailing summary of the interval)
    const live = await waitFor(async () => {
      const last = published.filter((p) => p.requestId === "s1").at(-1);
      return last && last.frames === 4 ? last : null;
    }, 5000, 20);
    assert.deepEqual([live.framesChecked, live.framesNotChecked, live.framesLastMinute, live.notCheckedLastMinute, live.currentRisk], [2, 2, 4, 2, "REJECT"]);

    await frame("s1", "PASS");
    s = await summary("s1");
    assert.equal(s.currentRisk, "PASS");
    assert.equal(s.worstRisk, "REJECT");
  });

  test("a stream of only unchecked frames has no risk at all (not PASS), even if the frames say REJECT", async () => {
    await addStream("s2");
    await frame("s2", "PASS", 2);
    await frame("s2", "REJECT", 2);
    const s = await summary("s2");
    assert.equal(s.currentRisk, null);
    assert.equal(s.worstRisk, null);
    assert.deepEqual([s.frames, s.framesChecked, s.framesNotChecked], [2, 0, 2]);
  });

  test("Status lists streams behind in the last minute; not those whose skips detectStep explains, nor old ones", async () => {
    await addStream("s3", 2);
    for (let i = 0; i < 3; i++) {
      await frame("s3", "PASS", 1);
      await frame("s3", "PASS", 2);
    }
    const behind = await streamsBehind(store.db);
    assert.deepEqual(behind.map((b) => [b.requestId, b.notCheckedLastMinute, b.framesLastMinute]).sort(), [["s1", 2, 5], ["s2", 2, 2]]);
    assert.deepEqual(((await streams.list()).find((x) => x.requestId === "s3")!).framesNotChecked, 3);

    // every result of s1 arrived two minutes ago: nothing is left in its last minute
    await store.db.update(receivedCallbacks).set({ receivedAt: new Date(Date.now() - 120_000) }).where(eq(receivedCallbacks.requestId, "s1"));
    await store.db.update(dashboardStreams).set({ lastResultAt: new Date(Date.now() - 120_000) }).where(eq(dashboardStreams.requestId, "s1"));
    assert.deepEqual((await streamsBehind(store.db)).map((b) => b.requestId), ["s2"]);
    const s1 = await summary("s1");
    assert.deepEqual([s1.framesLastMinute, s1.notCheckedLastMinute, s1.framesNotChecked], [0, 0, 2], "the totals stay");

    // an ended stream is never behind
    await store.db.update(dashboardStreams).set({ status: "ended" }).where(eq(dashboardStreams.requestId, "s2"));
    assert.deepEqual(await streamsBehind(store.db), []);
  });
});
