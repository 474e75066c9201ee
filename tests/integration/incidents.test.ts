// Incidents (issue #11.3) from real callback bodies: a file result (through the dashboard's file receiver) and
// the callbacks of a live stream whose QR code comes and goes (fed as they arrive) go into server/incidents;
// decisions, assignment, filters, CSV and the evidence zip (frames read from the media store) are checked.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { moderateFile, startTestService, TEST_KEY } from "../support/app";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startRtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";
import { readZip } from "../support/zip";
import { getRegistry } from "../../server/registry";
import { receiveFileCallback } from "../../server/dashboard/receiver";
import { hashToken } from "../../server/dashboard/tokens";
import { dashboardFiles } from "../../server/store/schema";
import { incidentTime, type Incident } from "../../lib/incidents";
import { IDENTITY_HEADERS } from "../../lib/roles";

const QR_TEXT = "https://spam.example/incidents";

describe("incidents from real callbacks", async () => {
  // frames every second; the live source's QR windows are about 3 s apart, so a 2 s gap keeps them apart
  const svc = await startTestService({ env: { INCIDENT_GAP_SEC: "2" } });
  const file = await makeVideo({ name: "incidents-qr-window", durationSec: 10, width: 640, height: 360, audio: "none", background: "gray", qr: { text: QR_TEXT, fromSec: 1, toSec: 3 } });
  const media = await startStaticServer(mediaDir());
  after(async () => {
    await media.close();
    await svc.close();
  });
  // the file's one incident (first test), reviewed frame by frame in the last
  let fileIncident: Incident | undefined;

  test("a file result through the dashboard's file receiver: its QR window is one incident; decisions, assignment, filters, CSV, zip", async () => {
    const { incidents } = getRegistry();
    // submitted in process as the dashboard's own principal, as the dashboard does (API files are mirrored instead: api-tasks.ts)
    const asDashboard = { post: async (p: string, body: unknown) => (await svc.engine!.call(p, body, svc.url)) as Record<string, unknown> };
    const result = await moderateFile(asDashboard, media.url, file, { btId: "incident-file", imgType: "QRCODE" });
    // the dashboard's receiver accepts it (a record as if the dashboard had submitted it) and feeds the incidents
    const token = "incident-test-token";
    const db = svc.engine!.ctx.store.db;
    await db.insert(dashboardFiles).values({ requestId: result.requestId, btId: result.btId, url: "http://example.test/qr.mp4", title: "qr file", serviceBaseUrl: svc.url, receiverToken: hashToken(token), status: "processing", createdAt: new Date() });
    const answer = await receiveFileCallback({ db, publish: () => undefined, signingSecret: null }, hashToken(token), JSON.stringify(result), new Headers({ "webhook-id": "msg_incident_1" }));
    assert.equal(answer.status, 200, JSON.stringify(answer));
    await incidents.idle();
    const list = await incidents.list({ requestId: result.requestId }, "tester");
    assert.equal(list.length, 1, JSON.stringify(list.map((i) => [i.start, i.end])));
    const [inc] = list;
    fileIncident = inc;
    assert.equal(inc.source.kind, "file");
    assert.equal(inc.source.ref, "incident-file");
    assert.equal(inc.source.title, "qr file");
    assert.equal(inc.source.href, "/files/incident-file");
    assert.equal(inc.label, "ad");
    assert.equal(inc.labelName, "Advertising");
    assert.deepEqual(inc.labels, ["Advertising: QR code"]);
    assert.equal(inc.timeBase, "offset");
    const qrFrames = (result.frameDetail as Array<{ time: number; riskLevel: string }>).filter((f) => f.riskLevel !== "PASS");
    assert.equal(inc.hits, qrFrames.length);
    assert.deepEqual([inc.start, inc.end], [Math.min(...qrFrames.map((f) => f.time)), Math.max(...qrFrames.map((f) => f.time))]);
    assert.deepEqual(inc.peak.evidence.qr, [QR_TEXT]);
    assert.match(inc.peak.mediaUrl ?? "", new RegExp(`/media/${result.requestId}/`));
    assert.equal(inc.status, "open");

    const detail = (await incidents.get(inc.id))!;
    assert.equal(detail.hitList.length, inc.hits);
    assert.ok(detail.hitList.every((h) => h.t >= inc.start && h.t <= inc.end));

    // decisions: who, when, note; the last one is shown with the incident
    const confirmed = await incidents.decide(inc.id, { decision: "confirmed", note: "spam QR" }, "alice");
    assert.equal(confirmed?.status, "confirmed");
    assert.equal(confirmed?.lastDecision?.username, "alice");
    assert.equal(confirmed?.lastDecision?.note, "spam QR");
    const bulk = await incidents.decideMany({ ids: [inc.id, "ffffffffffffffff"], decision: "escalated", note: null }, "bob");
    assert.deepEqual(bulk.missing, ["ffffffffffffffff"]);
    assert.equal(bulk.updated[0].status, "escalated");
    assert.deepEqual((await incidents.get(inc.id))!.decisions.map((d) => [d.decision, d.username, d.note]), [["confirmed", "alice", "spam QR"], ["escalated", "bob", null]]);

    // assignment: an existing account, or nobody
    assert.deepEqual(await incidents.assign(inc.id, { assignee: "nobody-here" }, "alice"), { ok: false, status: 422, error: "no active account named nobody-here" });
    assert.equal((await incidents.assign("0000000000000000", { assignee: null }, "alice")).ok, false);
    const cleared = await incidents.assign(inc.id, { assignee: null }, "alice");
    assert.ok(cleared.ok && cleared.incident.assignee === null);

    // filters
    assert.equal((await incidents.list({ status: "open", requestId: result.requestId }, "x")).length, 0);
    assert.equal((await incidents.list({ status: "escalated", kind: "file", label: "ad", requestId: "incident-file" }, "x")).length, 1);
    assert.equal((await incidents.list({ kind: "stream", requestId: result.requestId }, "x")).length, 0);
    assert.equal((await incidents.list({ assignee: "none", requestId: result.requestId, sort: "worst" }, "x")).length, 1);
    assert.equal((await incidents.list({ since: new Date(Date.now() + 60_000).toISOString() }, "x")).length, 0);

    const csv = await incidents.csv({ requestId: result.requestId }, "x", "http://h");
    assert.match(csv, new RegExp(`"${inc.id}","escalated","REVIEW","Advertising"`));

    // the evidence zip: every frame as JPEG from the media store, and incident.json with bodies and decisions
    const zip = (await incidents.exportZip(inc.id, "tester")) as { body: ReadableStream<Uint8Array> };
    const entries = readZip(Buffer.from(await new Response(zip.body).arrayBuffer()));
    const frames = [...entries.keys()].filter((n) => n.startsWith("frames/"));
    assert.equal(frames.length, inc.hits);
    for (const f of frames) assert.deepEqual([...entries.get(f)!.subarray(0, 3)], [0xff, 0xd8, 0xff], `${f} is a JPEG`);
    const doc = JSON.parse(entries.get("incident.json")!.toString("utf8"));
    assert.equal(doc.incident.id, inc.id);
    assert.equal(doc.hits.length, inc.hits);
    assert.equal(doc.hits[0].resultBody.riskLabel2, "erweima");
    assert.deepEqual(doc.decisions.map((d: { decision: string }) => d.decision), ["confirmed", "escalated"]);
    assert.deepEqual(doc.missing, []);

    // the same result again (a retry with a new webhook-id) adds nothing
    await incidents.feed({ kind: "file", requestId: result.requestId, body: result });
    assert.equal((await incidents.list({ requestId: result.requestId }, "x")).length, 1);
    assert.equal((await incidents.get(inc.id))!.hits, inc.hits);
  });

  test("a live stream: each callback is fed as it arrives; incidents are created, extended, and a new window is a new one", async () => {
    const { incidents, hub } = getRegistry();
    // what goes to the socket.io room `incidents`
    const pushed: Incident[] = [];
    const emit = hub.incident.bind(hub);
    hub.incident = (i) => (pushed.push(i), emit(i));
    // QR at 1–3 s of every 6 s loop: windows about 3 s apart (more than the 2 s gap)
    const src = await startRtmpSource({ name: "incidents-live", audio: "none", qr: { text: QR_TEXT, fromSec: 1, toSec: 3 } });
    const rx = await startReceiver();
    try {
      const ack = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "VS", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "NORMAL", url: src.rtmpUrl, tokenId: "incidents", detectFrequency: 1, returnAllImg: 1 } });
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const requestId = ack.requestId as string;
      let fed = 0;
      const hitsSeen = new Map<string, number>();
      const list = await waitFor(async () => {
        for (const r of rx.received.slice(fed)) await incidents.feed({ kind: "stream", requestId, callbackId: ++fed, receivedAt: new Date(r.at), body: r.body });
        const l: Incident[] = await incidents.list({ requestId }, "x");
        for (const i of l) hitsSeen.set(i.id, Math.max(hitsSeen.get(i.id) ?? 0, i.hits));
        return l.length >= 2 ? l : null;
      }, 60_000, 200);
      await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId });
      for (const i of list) {
        assert.equal(i.source.kind, "stream");
        assert.equal(i.source.href, `/streams/${requestId}`);
        assert.equal(i.timeBase, "epoch");
        assert.deepEqual(i.peak.evidence.qr, [QR_TEXT]);
      }
      const sorted = [...list].sort((a, b) => a.start - b.start);
      for (let k = 1; k < sorted.length; k++) assert.ok(sorted[k].start - sorted[k - 1].end > 2, "windows further apart than the gap are separate incidents");
      assert.ok(list.some((i) => i.hits >= 2), "an incident was extended by later frames");
      // the API task's callbacks are also mirrored by the dashboard (api-tasks.ts) and may extend an incident after
      // the snapshot above: compare the pushes with each incident as it stands once every feed has settled
      await incidents.idle();
      const settled = new Map((await incidents.list({ requestId }, "x")).map((i) => [i.id, i.hits]));
      for (const i of list) {
        const events = pushed.filter((e) => e.id === i.id).map((e) => e.hits);
        assert.deepEqual(events, Array.from({ length: settled.get(i.id) ?? i.hits }, (_, n) => n + 1), "pushed live at creation and at every extension");
      }
      const detail = (await incidents.get(sorted[0].id))!;
      assert.equal(detail.hitList.length, detail.hits);
      assert.ok(detail.hitList.every((h) => h.itemId.startsWith(`${requestId}_`)), "each hit names its frame");
      // feeding the same callbacks again changes nothing
      for (const [n, r] of rx.received.slice(0, fed).entries()) await incidents.feed({ kind: "stream", requestId, callbackId: n + 1, receivedAt: new Date(r.at), body: r.body });
      const again = await incidents.list({ requestId }, "x");
      assert.deepEqual(again.map((i) => [i.id, i.hits]).sort(), (await incidents.list({ requestId }, "x")).map((i) => [i.id, i.hits]).sort());
      assert.equal(again.reduce((n, i) => n + i.hits, 0), (await Promise.all(again.map(async (i) => (await incidents.get(i.id))!.hitList.length))).reduce((a, b) => a + b, 0));
    } finally {
      await rx.close();
      await src.close();
    }
  });

  test("a decision on one frame reaches the incidents it is a hit of: confirming decides them, clearing once every hit is cleared", async () => {
    const { incidents, auth } = getRegistry();
    const inc = fileIncident!;
    const detail = (await incidents.get(inc.id))!;
    assert.ok(detail.hitList.length >= 2, "a window of several frames");
    const as = { [IDENTITY_HEADERS.id]: "rita-id", [IDENTITY_HEADERS.username]: "rita", "content-type": "application/json" };
    // POST /api/reviews as the lightbox sends it (the route handler's one call), the gate's identity headers set
    const review = async (body: Record<string, unknown>) => {
      const res = await auth.recordReview(new Request("http://x/api/reviews", { method: "POST", headers: as, body: JSON.stringify(body) }));
      assert.equal(res.status, 201);
      return (await res.json()) as { message: string; incidents: Array<{ incidentId: string; decided: boolean; status: string; reason: string }> };
    };
    const peak = detail.peak;
    const frameAt = `frame at ${incidentTime(inc, peak.t)}`;
    const confirmed = await review({ targetKind: "file", targetId: "incident-file", item: peak.itemId, itemLabel: "frame at 00:02.0", decision: "confirmed", note: "QR to scam site" });
    assert.deepEqual(confirmed.incidents.map((e) => [e.incidentId, e.decided, e.status, e.reason]), [[inc.id, true, "confirmed", `confirmed through its ${frameAt}`]]);
    const after1 = (await incidents.get(inc.id))!;
    assert.equal(after1.status, "confirmed");
    const last = after1.decisions.at(-1)!;
    assert.deepEqual([last.decision, last.username, last.note, last.itemLabel], ["confirmed", "rita", "QR to scam site", frameAt]);
    assert.deepEqual((await incidents.list({ requestId: "incident-file", status: "open" }, "x")).length, 0);
    // the task's review list names the item in words, not by its id
    const listed = (await (await auth.reviews(new Request("http://x/api/reviews?targetKind=file&targetId=incident-file", { headers: as }))).json()) as { reviews: Array<{ item: string; itemLabel: string }> };
    assert.deepEqual([listed.reviews[0].item, listed.reviews[0].itemLabel], [peak.itemId, "frame at 00:02.0"]);

    // clearing one frame of several leaves the incident as it was, and says why; the last one cleared clears it
    for (const [n, h] of detail.hitList.entries()) {
      const r = await review({ targetKind: "file", targetId: "incident-file", item: h.itemId, decision: "cleared", note: null });
      const lastOne = n === detail.hitList.length - 1;
      assert.equal(r.incidents[0].decided, lastOne, r.message);
      if (!lastOne) assert.equal(r.incidents[0].reason, `stays confirmed: ${n + 1} of ${detail.hitList.length} hits cleared; the others are not reviewed`);
      assert.equal((await incidents.get(inc.id))!.status, lastOne ? "cleared" : "confirmed");
    }
    // an item of no incident (another source kind, a decision on the whole task) changes nothing
    assert.deepEqual((await review({ targetKind: "stream", targetId: "incident-file", item: peak.itemId, decision: "confirmed" })).incidents, []);
    assert.deepEqual((await review({ targetKind: "file", targetId: "incident-file", decision: "escalated" })).incidents, []);
    assert.equal((await incidents.get(inc.id))!.status, "cleared");
  });
});
