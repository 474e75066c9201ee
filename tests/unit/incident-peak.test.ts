// Issue #26.1: an incident's peak is its worst hit — the worst level first (REJECT > REVIEW > PASS), then the highest
// score, then the earliest — by one order (lib/incidents.ts peakOrder) used wherever a peak is chosen: a whole file's
// grouping, a live incident extended hit by hit, a merge. A REJECT incident's peak is a REJECT hit with its own evidence.
// Also the context headline of issue #26.5 ("3 earlier incidents, 2 confirmed").
import assert from "node:assert/strict";
import { test } from "node:test";
import { betterHit, extend, groupHits, summarize } from "../../server/incidents/grouping";
import { hitsOfFileResult, hitsOfStreamCallback } from "../../server/incidents/hits";
import { peakOf, peakOrder, type IncidentHit } from "../../lib/incidents";
import { contextHeadline } from "../../lib/incident-context";

const QR = "https://spam.example/qr";
const qrEntry = (p: number) => ({ riskLevel: "REVIEW", riskLabel1: "ad", riskLabel2: "erweima", riskLabel3: "erweima", probability: p, riskDetail: { riskSource: 1002, objects: [{ name: "qrcode", qrContent: QR }] } });
const adText = (p: number, text = "Add WeChat: maifen888") => ({ riskLevel: "REJECT", riskLabel1: "ad", riskLabel2: "lianxifangshi", riskLabel3: "shejiaozhanghao", probability: p, riskDetail: { riskSource: 1001, ocrText: { text, matchedLists: [{ name: "ad_contact", words: [{ word: text, entry: "contact-handle" }] }] } } });
function frame(time: number, labels: Array<Record<string, unknown>>) {
  const top = labels.find((l) => l.riskLevel === "REJECT") ?? labels[0];
  return { requestId: `task_v${time}`, time, imgUrl: `/media/task/frame-${time}.jpg`, riskLevel: top.riskLevel, riskLabel1: "ad", riskLabel2: top.riskLabel2, riskLabel3: top.riskLabel3, riskDescription: "", allLabels: labels, riskDetail: top.riskDetail, auxInfo: {} };
}
const hit = (riskLevel: IncidentHit["riskLevel"], score: number, t: number): IncidentHit => ({ itemId: `i${t}-${riskLevel}-${score}`, t, endT: t, score, riskLevel, labels: [], mediaUrl: null, evidence: { qr: [], words: [], faces: [] } });

test("peakOrder: worst level first, then the highest score, then the earliest", () => {
  const rejectLow = hit("REJECT", 0.6, 9);
  const reviewFull = hit("REVIEW", 1, 1);
  assert.ok(peakOrder(rejectLow, reviewFull) < 0, "a REJECT at 0.6 beats a REVIEW at 1.0");
  assert.ok(peakOrder(hit("REVIEW", 0.9, 5), hit("REVIEW", 0.8, 1)) < 0, "same level: the higher score");
  assert.ok(peakOrder(hit("REJECT", 0.8, 2), hit("REJECT", 0.8, 3)) < 0, "same level and score: the earlier");
  assert.ok(peakOrder(hit("REVIEW", 0.1, 9), hit("PASS", 1, 0)) < 0, "REVIEW beats PASS");
  assert.equal(peakOrder(hit("REJECT", 0.8, 2), hit("REJECT", 0.8, 2)), 0);
  const list = [reviewFull, hit("REJECT", 0.5, 4), rejectLow, hit("REJECT", 0.6, 12), hit("REVIEW", 0.99, 0)];
  assert.equal(peakOf(list), rejectLow);
  assert.deepEqual([...list].sort(peakOrder).map((h) => h.itemId), ["i9-REJECT-0.6", "i12-REJECT-0.6", "i4-REJECT-0.5", "i1-REVIEW-1", "i0-REVIEW-0.99"]);
  assert.throws(() => peakOf([]));
  // the pairwise form keeps the first of equals, whichever side the better one is on
  assert.equal(betterHit(reviewFull, rejectLow), rejectLow);
  assert.equal(betterHit(rejectLow, reviewFull), rejectLow);
});

test("a file: the REVIEW QR frame at 1.0 is not the peak of the REJECT ad-text incident; the REJECT frame is, with its own evidence", () => {
  const [g, ...rest] = groupHits(hitsOfFileResult({ code: 1100, requestId: "task", frameDetail: [frame(1, [qrEntry(1)]), frame(2, [qrEntry(1)]), frame(3, [adText(0.72)]), frame(4, [qrEntry(1)])], audioDetail: [] }), 10);
  assert.equal(rest.length, 0, "one ad incident");
  assert.equal(g.summary.riskLevel, "REJECT");
  assert.equal(g.summary.peak.itemId, "task_v3");
  assert.equal(g.summary.peak.riskLevel, "REJECT");
  assert.equal(g.summary.peak.score, 0.72);
  assert.equal(g.summary.peak.mediaUrl, "/media/task/frame-3.jpg");
  assert.deepEqual(g.summary.peak.evidence.qr, [], "the ad-text frame's evidence, not the QR's");
  assert.deepEqual(g.summary.peak.evidence.words.map((w) => w.word), ["Add WeChat: maifen888"]);
});

test("a frame with a REVIEW QR at 1.0 beside REJECT ad text at 0.7 is a 0.7 REJECT hit: a cleaner REJECT frame at 0.9 is the peak", () => {
  const [mixed] = hitsOfFileResult({ code: 1100, frameDetail: [frame(1, [qrEntry(1), adText(0.7)])] });
  assert.deepEqual([mixed.hit.riskLevel, mixed.hit.score], ["REJECT", 0.7]);
  assert.deepEqual(mixed.hit.evidence.qr, [QR], "its own evidence: both what it showed");
  const [g] = groupHits(hitsOfFileResult({ code: 1100, frameDetail: [frame(1, [qrEntry(1), adText(0.7)]), frame(2, [adText(0.9, "VX: buyfans")])] }), 10);
  assert.equal(g.summary.peak.itemId, "task_v2");
});

test("live: extending hit by hit and recomputing from every hit (a merge) give the same peak", () => {
  const at = new Date("2026-11-28T10:00:00Z");
  const cb = (n: number, labels: Array<Record<string, unknown>>) => hitsOfStreamCallback({ code: 1100, requestId: `live_v${n}`, frameDetail: { ...frame(n, labels), auxInfo: { imgTime: `2026-11-28 10:00:0${n}` } } }, at)[0].hit;
  const hits = [cb(1, [qrEntry(1)]), cb(2, [adText(0.6)]), cb(3, [qrEntry(1)]), cb(4, [adText(0.8)]), cb(5, [adText(0.8)])];
  let s = summarize([hits[0]]);
  assert.equal(s.peak.itemId, "live_v1", "the only hit so far");
  const seen: string[] = [];
  for (const h of hits.slice(1)) {
    s = extend(s, h);
    seen.push(s.peak.itemId);
  }
  assert.deepEqual(seen, ["live_v2", "live_v2", "live_v4", "live_v4"], "a REJECT takes over, a later REVIEW at 1.0 never does, a tie keeps the earlier");
  assert.equal(summarize([...hits].reverse()).peak.itemId, "live_v4", "arrival order does not matter");
});

test("context headline: '3 earlier incidents, 2 confirmed', later ones and other states named", () => {
  const c = { incidents: 3, earlier: 3, open: 1, confirmed: 2, cleared: 0, escalated: 0 };
  assert.equal(contextHeadline(c), "3 earlier incidents, 2 confirmed, 1 open");
  assert.equal(contextHeadline({ ...c, open: 0 }), "3 earlier incidents, 2 confirmed");
  assert.equal(contextHeadline({ incidents: 4, earlier: 1, open: 1, confirmed: 0, cleared: 2, escalated: 1 }), "4 other incidents (1 earlier), 0 confirmed, 1 escalated, 2 cleared, 1 open");
  assert.equal(contextHeadline({ incidents: 1, earlier: 1, open: 0, confirmed: 1, cleared: 0, escalated: 0 }), "1 earlier incident, 1 confirmed");
  assert.equal(contextHeadline({ incidents: 0, earlier: 0, open: 0, confirmed: 0, cleared: 0, escalated: 0 }), "no other incidents");
});
