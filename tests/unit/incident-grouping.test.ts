// Incident rule (server/incidents): hits of one source, medium and category within INCIDENT_GAP_SEC are one
// incident; the peak is the worst hit (level, then score, then earliest: incident-peak.test.ts); unchecked frames
// (detectType 2) never count.
import assert from "node:assert/strict";
import { test } from "node:test";
import { groupHits, joinable, summarize } from "../../server/incidents/grouping";
import { englishLabel, hitsOfFileResult, hitsOfStreamCallback, localStampSec } from "../../server/incidents/hits";
import { incidentsCsv } from "../../server/incidents/export";
import type { Incident } from "../../lib/incidents";

type Label = [level: string, l1: string, l2: string, l3: string, p: number];
const qr = (p = 1): Label => ["REVIEW", "ad", "erweima", "erweima", p];
const contact = (p = 0.9): Label => ["REJECT", "ad", "lianxifangshi", "shejiaozhanghao", p];
const porn = (p = 0.8): Label => ["REJECT", "porn", "porn", "porn", p];

const OCR = { text: "Add WeChat: maifen888", matchedLists: [{ name: "ad_contact", words: [{ word: "Add WeChat: maifen888", entry: "contact-handle" }] }] };
function frame(time: number, labels: Label[], extra: Record<string, unknown> = {}) {
  const all = labels.map(([riskLevel, riskLabel1, riskLabel2, riskLabel3, probability]) => ({ riskLevel, riskLabel1, riskLabel2, riskLabel3, riskDescription: "", probability, riskDetail: riskLabel2 === "erweima" ? { riskSource: 1002, objects: [{ name: "qrcode", qrContent: `https://spam.example/${time}` }] } : { riskSource: 1001, ocrText: OCR } }));
  const top = all[0] ?? { riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "" };
  return { requestId: `task_v${time}`, time, imgUrl: `/media/task/frame-${time}.jpg?exp=1&sig=x`, riskLevel: top.riskLevel, riskLabel1: top.riskLabel1, riskLabel2: top.riskLabel2, riskLabel3: top.riskLabel3, riskDescription: "", allLabels: all, riskDetail: { riskSource: 1002, ocrText: OCR }, auxInfo: { similarity: 0.9 }, ...extra };
}
const fileResult = (frames: unknown[], audios: unknown[] = []) => ({ code: 1100, requestId: "task", btId: "bt", riskLevel: "REJECT", auxInfo: {}, frameDetail: frames, audioDetail: audios });
const group = (frames: unknown[], gap = 10, audios: unknown[] = []) => groupHits(hitsOfFileResult(fileResult(frames, audios)), gap);

test("the gap rule: hits up to INCIDENT_GAP_SEC apart are one incident, further apart two; PASS frames between do not split", () => {
  const g = group([frame(1, [qr()]), frame(2, [qr()]), frame(5, []), frame(12, [qr()]), frame(23, [qr()]), frame(24, [qr()])]);
  assert.deepEqual(g.map((x) => [x.summary.start, x.summary.end, x.summary.hits]), [[1, 12, 3], [23, 24, 2]]);
  // exactly the gap joins; a hair more splits
  assert.equal(group([frame(0, [qr()]), frame(10, [qr()])]).length, 1);
  assert.equal(group([frame(0, [qr()]), frame(10.5, [qr()])]).length, 2);
  assert.equal(group([frame(0, [qr()]), frame(3, [qr()])], 2).length, 2, "the gap is configurable");
  // out of order input groups the same
  assert.deepEqual(group([frame(24, [qr()]), frame(1, [qr()]), frame(12, [qr()]), frame(23, [qr()]), frame(2, [qr()])]).map((x) => x.summary.hits), [3, 2]);
});

test("label sharing: one category (riskLabel1) is one incident, its sub-labels listed in English; other categories apart", () => {
  const g = group([frame(1, [qr()]), frame(3, [contact(), ["REVIEW", "ad", "ad", "guanggaoci", 0.9]]), frame(4, [porn()]), frame(6, [porn(), qr()])]);
  const ad = g.find((x) => x.label === "ad")!;
  const p = g.find((x) => x.label === "porn")!;
  assert.equal(g.length, 2);
  assert.deepEqual([ad.summary.start, ad.summary.end, ad.summary.hits], [1, 6, 3]);
  assert.deepEqual(ad.summary.labels, ["Advertising: QR code", "Advertising: Contact information: Social media account", "Advertising: Advertising wording"]);
  assert.equal(ad.summary.riskLevel, "REJECT", "the worst level of its hits");
  assert.deepEqual([p.summary.start, p.summary.end, p.summary.hits, p.summary.labels], [4, 6, 2, ["Pornography"]]);
  assert.equal(englishLabel("ad", "erweima", "erweima"), "Advertising: QR code");
});

test("peak: at one level the highest score; REJECT beats REVIEW, then the earlier frame; its evidence comes along", () => {
  const [g] = group([frame(1, [qr(0.6)]), frame(2, [qr(0.95)]), frame(3, [qr(0.7)])]);
  assert.equal(g.summary.peak.itemId, "task_v2");
  assert.equal(g.summary.peak.score, 0.95);
  assert.deepEqual(g.summary.peak.evidence.qr, ["https://spam.example/2"]);
  assert.equal(g.summary.peak.mediaUrl, "/media/task/frame-2.jpg?exp=1&sig=x");
  const [tie] = group([frame(1, [qr(0.9)]), frame(2, [contact(0.9)]), frame(3, [contact(0.9)])]);
  assert.equal(tie.summary.peak.itemId, "task_v2", "REJECT beats REVIEW at the same score, then the earlier");
  const [ocr] = group([frame(1, [contact(0.9)])]);
  assert.deepEqual(ocr.summary.peak.evidence.words, [{ list: "ad_contact", word: "Add WeChat: maifen888", entry: "contact-handle" }]);
  assert.equal(ocr.summary.peak.evidence.ocrText, "Add WeChat: maifen888");
});

test("unchecked frames (auxInfo.detectType 2) never create or extend an incident", () => {
  const skipped = (t: number) => ({ frameDetail: { ...frame(t, [qr()]), auxInfo: { detectType: 2, imgTime: `2026-11-21 10:00:${String(t).padStart(2, "0")}.000` } }, code: 1100, message: "ok", requestId: `s_${t}`, contentType: 1 });
  assert.deepEqual(hitsOfStreamCallback(skipped(5), new Date()), []);
  const checked = { ...skipped(5), frameDetail: { ...skipped(5).frameDetail, auxInfo: { detectType: 1, imgTime: "2026-11-21 10:00:05.000" } } };
  const [h] = hitsOfStreamCallback(checked, new Date(), 7);
  assert.equal(h.hit.t, localStampSec("2026-11-21 10:00:05.000"));
  assert.equal(h.callbackId, 7);
  // a stream-end and a failed callback give nothing either
  assert.deepEqual(hitsOfStreamCallback({ statCode: 1, code: 1100, riskLevel: "REJECT" }, new Date()), []);
  assert.deepEqual(hitsOfStreamCallback({ code: 1903, message: "x" }, new Date()), []);
});

test("audio segments group by their own span, apart from frames; the transcript and matched words are the evidence", () => {
  const seg = (s: number, e: number) => ({ requestId: `task_a${s}`, audioUrl: `/media/task/a${s}.wav`, audioStarttime: s, audioEndtime: e, riskLevel: "REJECT", riskLabel1: "ad", riskLabel2: "ad", riskLabel3: "guanggaoci", riskDescription: "", allLabels: [{ riskLevel: "REJECT", riskLabel1: "ad", riskLabel2: "ad", riskLabel3: "guanggaoci", riskDescription: "", probability: 0.8, riskDetail: { riskSource: 1002, audioText: "buy cheap followers", matchedLists: [{ name: "spoken_ads", words: [{ word: "cheap followers" }] }] } }], riskDetail: { riskSource: 1002, audioText: "buy cheap followers" } });
  const g = group([frame(1, [qr()])], 10, [seg(0, 10), seg(10, 20), seg(40, 50)]);
  assert.deepEqual(g.map((x) => [x.media, x.summary.start, x.summary.end, x.summary.hits]), [["audio", 0, 20, 2], ["frame", 1, 1, 1], ["audio", 40, 50, 1]]);
  const audio = g.find((x) => x.media === "audio")!;
  assert.equal(audio.summary.peak.evidence.transcript, "buy cheap followers");
  assert.deepEqual(audio.summary.peak.evidence.words, [{ list: "spoken_ads", word: "cheap followers" }]);
  assert.ok(joinable({ start: 0, end: 20 }, { t: 30, endT: 40 }, 10));
  assert.ok(!joinable({ start: 0, end: 20 }, { t: 30.1, endT: 40 }, 10));
  assert.throws(() => summarize([]));
});

test("CSV: quoted cells, formulas neutralised", () => {
  const [g] = group([frame(1, [qr()])]);
  const incident = { id: "0123456789abcdef", source: { kind: "file", requestId: "task", ref: "bt", title: '=HYPERLINK("x")', url: null, href: "/files/bt" }, media: "frame", label: "ad", labelName: "Advertising", labels: g.summary.labels, riskLevel: "REVIEW", timeBase: "offset", start: 61, end: 65, hits: 1, peak: g.summary.peak, status: "open", assignee: null, lastDecision: null, createdAt: "", updatedAt: "" } as Incident;
  const [head, row] = incidentsCsv([incident], "http://h").trim().split("\r\n");
  assert.match(head, /^id,status,riskLevel,category/);
  assert.match(row, /^"0123456789abcdef","open","REVIEW","Advertising","Advertising: QR code","file","bt","'=HYPERLINK\(""x""\)","1:01","1:05"/);
  assert.match(row, /"http:\/\/h\/review\?id=0123456789abcdef"$/);
});
