// Issue #26.1 and #26.5 through the real paths. Peak: a real file with a QR code (REVIEW, score 1.0) and then ad text
// (REJECT, an OCR score under 1) moderated by the embedded engine and accepted by the dashboard's file receiver makes
// one REJECT "ad" incident whose peak is the ad-text frame with its own evidence, in the incident, its detail, the
// CSV and the export zip (peak.jpg first, the manifest's peak); migration 0270 fixes a row stored under the old rule.
// Context: API streams of two end users (tokenId, mirrored onto the dashboard with it) with incidents and decisions.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { sql } from "drizzle-orm";
import { moderateFile, startTestService, TEST_KEY } from "../support/app";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { readZip } from "../support/zip";
import { getRegistry } from "../../server/registry";
import { receiveFileCallback } from "../../server/dashboard/receiver";
import { hashToken } from "../../server/dashboard/tokens";
import { INCIDENT_MIGRATIONS } from "../../server/incidents/migrations";
import { dashboardFiles, dashboardStreams, incidentHits, incidents as incidentsTable } from "../../server/store/schema";
import { eq } from "drizzle-orm";
import type { IncidentHit } from "../../lib/incidents";
import type { ContextIncident, ContextSource } from "../../lib/incident-context";

const QR_TEXT = "https://spam.example/peak";
const AD_TEXT = "Add WeChat: maifen888";

describe("peak and context", async () => {
  const svc = await startTestService();
  const file = await makeVideo({ name: "peak-qr-then-ad", durationSec: 7, width: 640, height: 360, audio: "none", background: "gray", qr: { text: QR_TEXT, fromSec: 0, toSec: 3 }, text: { content: AD_TEXT, fromSec: 4, toSec: 7 } });
  const media = await startStaticServer(mediaDir());
  after(async () => {
    await media.close();
    await svc.close();
  });

  test("a REJECT ad-text incident's peak is its REJECT frame, not the REVIEW QR frame at 1.0: incident, detail, CSV, zip; migration 0270", async () => {
    const { incidents } = getRegistry();
    const db = svc.engine!.ctx.store.db;
    const asDashboard = { post: async (p: string, body: unknown) => (await svc.engine!.call(p, body, svc.url)) as Record<string, unknown> };
    const result = await moderateFile(asDashboard, media.url, file, { btId: "peak-file", imgType: "QRCODE_ADVERT" });
    const frames = result.frameDetail as Array<{ requestId: string; time: number; riskLevel: string; allLabels?: Array<{ riskLevel: string; riskLabel1: string; probability: number }> }>;
    const qrFrames = frames.filter((f) => f.allLabels?.some((l) => l.riskLevel === "REVIEW" && l.riskLabel1 === "ad"));
    const adFrames = frames.filter((f) => f.riskLevel === "REJECT");
    assert.ok(qrFrames.length > 0 && adFrames.length > 0, `QR and ad-text frames: ${JSON.stringify(frames.map((f) => [f.time, f.riskLevel]))}`);
    const qrScore = Math.max(...qrFrames.flatMap((f) => f.allLabels!.filter((l) => l.riskLevel === "REVIEW").map((l) => l.probability)));
    const adScores = adFrames.map((f) => Math.max(...f.allLabels!.filter((l) => l.riskLevel === "REJECT").map((l) => l.probability)));
    assert.ok(Math.max(...adScores) < qrScore, `the case of the issue: ad text ${adScores} scores under the QR's ${qrScore}`);

    // accepted by the dashboard's file receiver, as the dashboard's own file
    const token = "peak-test-token";
    await db.insert(dashboardFiles).values({ requestId: result.requestId, btId: result.btId, url: "http://example.test/peak.mp4", title: "peak file", serviceBaseUrl: svc.url, receiverToken: hashToken(token), status: "processing", createdAt: new Date() });
    const answer = await receiveFileCallback({ db, publish: () => undefined, signingSecret: null }, hashToken(token), JSON.stringify(result), new Headers({ "webhook-id": "msg_peak_1" }));
    assert.equal(answer.status, 200, JSON.stringify(answer));
    await incidents.idle();
    const [inc, ...others] = await incidents.list({ requestId: result.requestId }, "tester");
    assert.equal(others.length, 0, "one ad incident");
    assert.equal(inc.riskLevel, "REJECT");
    const best = adFrames[adScores.indexOf(Math.max(...adScores))];
    assert.equal(inc.peak.riskLevel, "REJECT");
    assert.equal(inc.peak.itemId, best.requestId, "the best REJECT frame (the earliest of equals)");
    assert.equal(inc.peak.score, Math.max(...adScores));
    assert.deepEqual(inc.peak.evidence.qr, [], "its own evidence: not the QR");
    assert.ok(inc.peak.evidence.words.length > 0 && /maifen888/i.test(inc.peak.evidence.words.map((w) => w.word).join(" ")), JSON.stringify(inc.peak.evidence));
    assert.ok(inc.peak.mediaUrl?.includes(`/media/${result.requestId}/`), "its own frame");
    const detail = (await incidents.get(inc.id))!;
    assert.deepEqual(detail.peak, inc.peak);
    assert.ok(detail.hitList.some((h) => h.riskLevel === "REVIEW" && h.score > inc.peak.score), "the QR frame is a hit of it, outranked");
    const csv = await incidents.csv({ requestId: result.requestId }, "x", "http://h");
    assert.match(csv.split("\r\n")[1], new RegExp(`"${inc.id}",.*"${inc.peak.score}","",`), "CSV: the peak's score, no QR content");

    // the export zip: the peak first (peak.jpg, the REJECT frame's own bytes), named in the manifest
    const exported = await incidents.exportZip(inc.id, "tester");
    assert.ok(exported && "body" in exported);
    const zip = readZip(Buffer.from(await new Response(exported.body).arrayBuffer()));
    assert.equal([...zip.keys()][0], "peak.jpg");
    const doc = JSON.parse(zip.get("incident.json")!.toString("utf8"));
    assert.equal(doc.peak.itemId, best.requestId);
    assert.equal(doc.peak.riskLevel, "REJECT");
    assert.equal(doc.incident.peak.itemId, best.requestId);
    assert.ok(doc.peak.hitFile?.startsWith("frames/"));
    assert.ok(zip.get("peak.jpg")!.equals(zip.get(doc.peak.hitFile)!), "peak.jpg is the REJECT frame");
    assert.deepEqual(doc.hits.filter((h: { peak: boolean }) => h.peak).map((h: { itemId: string }) => h.itemId), [best.requestId]);

    // a row stored under the old rule (the QR frame at 1.0 as peak) is put right by migration 0270
    const qrHit = detail.hitList.find((h) => h.riskLevel === "REVIEW")!;
    await db.update(incidentsTable).set({ peak: qrHit as unknown as Record<string, unknown>, peakScore: qrHit.score }).where(eq(incidentsTable.id, inc.id));
    assert.equal((await incidents.get(inc.id))!.peak.itemId, qrHit.itemId);
    for (const stmt of INCIDENT_MIGRATIONS[0].sql.split(/;\s*\n/).filter((s) => s.trim())) await db.execute(sql.raw(stmt));
    const fixed = (await incidents.get(inc.id))!;
    assert.equal(fixed.peak.itemId, best.requestId);
    const [row] = await db.select({ peakScore: incidentsTable.peakScore }).from(incidentsTable).where(eq(incidentsTable.id, inc.id));
    assert.equal(row.peakScore, inc.peak.score);
    const stored = await db.select({ hit: incidentHits.hit }).from(incidentHits).where(eq(incidentHits.incidentId, inc.id));
    assert.deepEqual(stored.map((r) => (r.hit as unknown as IncidentHit).score).sort(), detail.hitList.map((h) => h.score).sort(), "hit scores stay as recorded");
  });

  test("context: the same source's other incidents, and by tokenId the user's other streams, files and incidents with decisions; never another user's", async () => {
    const { incidents, dashboard } = getRegistry();
    const db = svc.engine!.ctx.store.db;
    // three API streams (no source behind them: they end at once) and one API file; mirrored onto the dashboard with their tokenId
    const start = async (tokenId: string, name: string) => {
      const ack = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "default", eventId: "live", imgType: "QRCODE", audioType: "NONE", imgCallback: "http://127.0.0.1:9/cb", data: { streamType: "NORMAL", url: `rtmp://127.0.0.1:9/live/${name.replace(/ /g, "-")}`, tokenId, streamName: name } });
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      return ack.requestId as string;
    };
    const a1 = await start("user-a", "A first");
    const a2 = await start("user-a", "A second");
    const b1 = await start("user-b", "B only");
    await dashboard.streams.list();
    const rows = await db.select({ requestId: dashboardStreams.requestId, tokenId: dashboardStreams.tokenId }).from(dashboardStreams);
    const tokenOf = (id: string) => rows.find((r) => r.requestId === id)?.tokenId;
    assert.deepEqual([tokenOf(a1), tokenOf(a2), tokenOf(b1)], ["user-a", "user-a", "user-b"], "the mirror stores tokenId");

    // hits fed through the incidents' own stream path, as the receiver feeds accepted callbacks
    const base = Date.parse("2026-11-28T09:00:00Z");
    let cb = 0;
    const feed = async (requestId: string, sec: number, level: "REVIEW" | "REJECT", label = "ad") => {
      const stamp = new Date(base + sec * 1000);
      const local = `${stamp.getFullYear()}-${String(stamp.getMonth() + 1).padStart(2, "0")}-${String(stamp.getDate()).padStart(2, "0")} ${stamp.toTimeString().slice(0, 8)}`;
      const body = { code: 1100, message: "ok", requestId: `${requestId}_v${sec}`, statCode: 0, frameDetail: { riskLevel: level, riskLabel1: label, riskLabel2: "", riskLabel3: "", riskDescription: "", allLabels: [{ riskLevel: level, riskLabel1: label, riskLabel2: "", riskLabel3: "", riskDescription: "", probability: 0.9 }], imgUrl: null, auxInfo: { imgTime: local } } };
      await incidents.feed({ kind: "stream", requestId, callbackId: ++cb, receivedAt: stamp, body });
    };
    await feed(a1, 0, "REJECT");
    await feed(a1, 100, "REVIEW");
    await feed(a1, 200, "REVIEW", "porn");
    await feed(a2, 0, "REJECT");
    await feed(a2, 100, "REVIEW");
    await feed(b1, 0, "REJECT");
    await incidents.idle();
    const of = async (id: string) => (await incidents.list({ requestId: id }, "x")).sort((p, q) => p.start - q.start);
    const [a1x, a1y, a1z] = await of(a1);
    const [a2x, a2y] = await of(a2);
    const [b1x] = await of(b1);
    assert.ok(a1z && a2y && b1x, "incidents created");
    await incidents.decide(a1x.id, { decision: "confirmed", note: "spam" }, "alice");
    await incidents.decide(a2x.id, { decision: "confirmed", note: null }, "bob");
    await incidents.decide(a2y.id, { decision: "cleared", note: "fine" }, "bob");
    await incidents.decide(b1x.id, { decision: "confirmed", note: null }, "carol");

    const c = (await incidents.context(a1y.id))!;
    assert.equal(c.tokenId, "user-a");
    assert.deepEqual(c.sameSource.map((i) => i.id).sort(), [a1x.id, a1z.id].sort());
    const x = c.sameSource.find((i) => i.id === a1x.id)!;
    assert.deepEqual([x.status, x.decision?.decision, x.decision?.username, x.decision?.note, x.earlier, x.href], ["confirmed", "confirmed", "alice", "spam", true, `/review?id=${a1x.id}`]);
    assert.equal(c.sameSource.find((i) => i.id === a1z.id)!.earlier, false);
    assert.deepEqual(c.summary.sameSource, { incidents: 2, earlier: 1, open: 1, confirmed: 1, cleared: 0, escalated: 0 });

    const sources = c.sameUser.filter((s): s is ContextSource => s.type !== "incident");
    const userIncidents = c.sameUser.filter((s): s is ContextIncident => s.type === "incident");
    assert.deepEqual(sources.map((s) => [s.type, s.requestId, s.title, s.incidents, s.confirmed, s.cleared]), [["stream", a2, "A second", 2, 1, 1]], "the user's other stream, not the current one, not user-b's");
    assert.equal(sources[0].href, `/streams/${a2}`);
    assert.deepEqual(userIncidents.map((i) => [i.id, i.status, i.decision?.username]).sort(), [[a2x.id, "confirmed", "bob"], [a2y.id, "cleared", "bob"]].sort());
    assert.deepEqual(c.summary.sameUser, { incidents: 2, earlier: 0, open: 0, confirmed: 1, cleared: 1, escalated: 0, streams: 1, files: 0 });
    const text = JSON.stringify(c);
    assert.ok(!text.includes(b1) && !text.includes(b1x.id) && !text.includes("carol"), "nothing of another end user");

    // a file of user-a joins the context; user-b's context never shows user-a's
    const fileAck = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "ctx-file-a", tokenId: "user-a", url: `${media.url}/none.mp4`, detectFrequency: 1, videoTitle: "A upload" } });
    assert.equal(fileAck.code, 1100, JSON.stringify(fileAck));
    await dashboard.listFiles();
    const withFile = (await incidents.context(a1y.id))!;
    assert.deepEqual(withFile.sameUser.filter((s) => s.type === "file").map((s) => [(s as ContextSource).ref, (s as ContextSource).title]), [["ctx-file-a", "A upload"]]);
    assert.equal(withFile.summary.sameUser.files, 1);
    const cb1 = (await incidents.context(b1x.id))!;
    assert.deepEqual([cb1.tokenId, cb1.sameUser, cb1.sameSource], ["user-b", [], []]);
    assert.equal(JSON.stringify(cb1).includes("user-a"), false);

    // a source without an end user (the dashboard's own file above) has an empty user context
    const [peakInc] = await incidents.list({ kind: "file", label: "ad", riskLevel: "REJECT" }, "x");
    const none = (await incidents.context(peakInc.id))!;
    assert.deepEqual([none.tokenId, none.sameUser, none.summary.sameUser.incidents], [null, [], 0]);
    assert.equal(await incidents.context("ffffffffffffffff"), null);
  });
});
