// The detect pool end to end: real models in a worker thread on frames generated here.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  AUDIO_BUSINESS_TYPES, AUDIO_TYPES, AUDIOSTREAM_BUSINESS_TYPES, AUDIOSTREAM_TYPES, IMG_BUSINESS_TYPES, IMG_TYPES,
} from "../../lib/contract/taxonomy";
import {
  createDetectPool, InvalidImageError, PoolClosedError, QueueFullError, WorkerCrashedError, type DetectPool, type FrameVerdict,
} from "../../server/detect/index";
import { AD_TEXT_EN, AD_TEXT_ZH, patternFrame, qrFrame, testsrc2Frame, textFrame } from "../bench/detectors";

const DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", ".media", "detect-data");
const QUEUE_LIMIT = 3;
const ALL = ["QRCODE", "ADVERT", "IMGTEXTRISK", "EROTIC"];
let pool: DetectPool;
let frames: { qr: Buffer; en: Buffer; zh: Buffer; casino: Buffer; pattern: Buffer; testsrc2: Buffer };

before(async () => {
  pool = createDetectPool({ dataDir: DATA_DIR, workers: 1, queueLimit: QUEUE_LIMIT });
  const [qr, en, zh, casino, pattern, testsrc2] = await Promise.all([
    qrFrame("https://spam.example/buy"),
    textFrame(AD_TEXT_EN),
    textFrame(AD_TEXT_ZH),
    textFrame(["Online casino 百家乐"]),
    patternFrame(),
    testsrc2Frame(),
  ]);
  frames = { qr, en, zh, casino, pattern, testsrc2 };
  await pool.ready();
});

after(() => pool.close());

/** A private copy per call: the pool takes ownership of (detaches) the buffer it is given. */
function detect(frame: Buffer, imgTypes: string[], extra: { imgBusinessTypes?: string[]; lang?: "zh" | "en" } = {}): Promise<FrameVerdict> {
  return pool.detectFrame({ jpeg: new Uint8Array(frame), imgTypes, imgBusinessTypes: extra.imgBusinessTypes ?? [], lang: extra.lang });
}

test("capabilities list every type of every group; only real engines are supported", () => {
  const caps = pool.capabilities();
  const groups = { imgType: IMG_TYPES, imgBusinessType: IMG_BUSINESS_TYPES, audioType: AUDIO_TYPES, audioBusinessType: AUDIO_BUSINESS_TYPES, audiostreamType: AUDIOSTREAM_TYPES, audiostreamBusinessType: AUDIOSTREAM_BUSINESS_TYPES };
  for (const [group, types] of Object.entries(groups)) {
    for (const type of types) assert.ok(caps.some((c) => c.group === group && c.type === type), `${group} ${type}`);
  }
  const img = Object.fromEntries(caps.filter((c) => c.group === "imgType").map((c) => [c.type, c]));
  for (const t of ["QRCODE", "ADVERT", "IMGTEXTRISK", "EROTIC"]) assert.ok(img[t].supported && img[t].engine, t);
  assert.match(img.EROTIC.engine ?? "", /nsfwjs 4\.4 MobileNetV2/);
  for (const t of ["POLITY", "VIOLENT"]) assert.ok(!img[t].supported && img[t].note, t);
  // business types: only face and COCO-object types have an engine; gallery types need a gallery (none here)
  for (const c of caps.filter((c) => c.group === "imgBusinessType")) {
    assert.equal(c.supported, /human 3\.3/.test(c.engine ?? ""), c.type);
    assert.ok(c.note, c.type);
  }
  for (const t of ["PUBLICFIGURE", "TAINTEDSTAR", "BUILDING"]) assert.ok(!caps.find((c) => c.type === t)!.supported, t);
  assert.ok(caps.filter((c) => c.group.startsWith("audio")).every((c) => !c.supported || c.type === "NONE"));
});

test("QR code frame → REVIEW ad:erweima with the exact content and its box", async () => {
  const v = await detect(frames.qr, ["QRCODE"]);
  assert.equal(v.riskLevel, "REVIEW");
  assert.deepEqual([v.riskLabel1, v.riskLabel2, v.riskLabel3], ["ad", "erweima", "erweima"]);
  assert.equal(v.riskDescription, "广告:二维码:二维码");
  assert.equal(v.qrContent, "https://spam.example/buy");
  assert.equal(v.riskDetail.riskSource, 1002);
  const [obj] = v.riskDetail.objects ?? [];
  assert.equal(obj.qrContent, "https://spam.example/buy");
  assert.equal(obj.name, "qrcode");
  // pasted at (900, 300), 300 px wide with a 2-module margin
  const [x1, y1, x2, y2] = obj.location;
  assert.ok(x1 >= 900 && y1 >= 300 && x2 <= 1200 && y2 <= 600 && x2 - x1 > 200, String(obj.location));
  assert.deepEqual(v.applied, ["QRCODE"]);
  assert.ok(v.timingsMs.qrcode > 0);
});

test("English ad text → ADVERT hits naming list and entry, positions into imgText", async () => {
  const v = await detect(frames.en, ["ADVERT"], { lang: "en" });
  assert.equal(v.riskLevel, "REJECT");
  assert.deepEqual([v.riskLabel1, v.riskLabel2], ["ad", "lianxifangshi"]);
  assert.equal(v.riskDetail.riskSource, 1001);
  assert.match(v.riskDescription, /^Advertising:Contact information/);
  const ocr = v.riskDetail.ocrText;
  assert.ok(ocr && v.imgText === ocr.text && /maifen888/.test(ocr.text), v.imgText);
  const byList = Object.fromEntries((ocr.matchedLists ?? []).map((l) => [l.name, l.words]));
  assert.equal(byList.ad_contact[0].entry, "contact-handle");
  assert.match(byList.ad_contact[0].word, /wechat:? ?maifen888/i);
  assert.equal(byList.ad_words[0].word, "cheap followers");
  for (const w of Object.values(byList).flat()) assert.equal(ocr.text.slice(w.position[0], w.position[1]), w.word);
  assert.ok((ocr.riskSegments ?? []).length >= 1);
  assert.deepEqual(v.allLabels.map((l) => l.riskLevel), ["REJECT", "REVIEW"]);
  assert.ok(v.allLabels.every((l) => l.probability > 0.6 && l.probability <= 1));
});

test("Chinese ad text is read with its spacing removed and matched", async () => {
  const v = await detect(frames.zh, ["ADVERT", "IMGTEXTRISK"]);
  assert.match(v.imgText ?? "", /加微信 ?maifen888 ?低价刷粉/);
  const lists = v.riskDetail.ocrText?.matchedLists ?? [];
  assert.deepEqual(lists.find((l) => l.name === "ad_words")?.words.map((w) => w.word), ["低价刷粉"]);
  assert.ok(lists.find((l) => l.name === "ad_contact")?.words[0].word.startsWith("加微信"));
  assert.equal(v.riskDescription, "广告:联系方式:社交账号");
});

test("prohibited text → IMGTEXTRISK REJECT only when IMGTEXTRISK is requested", async () => {
  const v = await detect(frames.casino, ["IMGTEXTRISK"]);
  assert.equal(v.riskLevel, "REJECT");
  assert.deepEqual([v.riskLabel1, v.riskLabel2], ["prohibited", "dubo"]);
  assert.deepEqual(v.riskDetail.ocrText?.matchedLists?.[0].words.map((w) => w.word), ["Online casino", "百家乐"]);
  const adOnly = await detect(frames.casino, ["ADVERT"]);
  assert.equal(adOnly.riskLevel, "PASS");
});

for (const name of ["testsrc2", "pattern"] as const) {
  test(`${name} frame → PASS for every type, and the NSFW model really ran`, async () => {
    const v = await detect(frames[name], ALL);
    assert.deepEqual([v.riskLevel, v.riskLabel1, v.riskLabel2, v.riskLabel3, v.riskDescription], ["PASS", "normal", "", "", "正常"]);
    assert.deepEqual(v.allLabels, []);
    assert.equal(v.riskDetail.riskSource, 1000);
    assert.deepEqual([...v.applied].sort(), [...ALL].sort());
    assert.deepEqual(v.notApplied, []);
    for (const engine of ["qrcode", "ocr", "nsfw"]) assert.ok(v.timingsMs[engine] > 0, engine);
    const scores = v.scores?.nsfw ?? {};
    assert.deepEqual(Object.keys(scores).sort(), ["Drawing", "Hentai", "Neutral", "Porn", "Sexy"]);
    const sum = Object.values(scores).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 0.01, `scores sum ${sum}`);
    assert.equal(typeof v.imgText, "string");
    assert.equal(v.qrContent, undefined);
  });
}

test("POLITY, VIOLENT (no gallery, no bank) and model-less business types are reported as not applied, never faked", async () => {
  const v = await detect(frames.pattern, ["POLITY", "VIOLENT", "EROTIC"], { imgBusinessTypes: ["BEAUTY", "PUBLICFIGURE"], lang: "en" });
  assert.deepEqual(v.applied, ["EROTIC"]);
  assert.deepEqual(v.notApplied, ["POLITY", "VIOLENT", "BEAUTY", "PUBLICFIGURE"]);
  assert.equal(v.riskDescription, "Normal");
  assert.deepEqual(v.businessLabels, []);
  assert.equal(v.timingsMs.ocr, undefined);
});

test("bytes are transferred when the view owns its buffer, copied when it is a slice", async () => {
  const owned = new Uint8Array(frames.qr);
  const big = new Uint8Array(frames.qr.length + 10);
  big.set(frames.qr, 5);
  const slice = big.subarray(5, 5 + frames.qr.length);
  const [a, b] = await Promise.all([
    pool.detectFrame({ jpeg: owned, imgTypes: ["QRCODE"], imgBusinessTypes: [] }),
    pool.detectFrame({ jpeg: slice, imgTypes: ["QRCODE"], imgBusinessTypes: [] }),
  ]);
  assert.equal(owned.byteLength, 0);
  assert.equal(slice.byteLength, frames.qr.length);
  assert.equal(a.qrContent, b.qrContent);
});

test("queue limit → QueueFullError; the accepted frames still complete", async () => {
  const accepted = Array.from({ length: QUEUE_LIMIT }, () => detect(frames.qr, ["QRCODE"]));
  assert.equal(pool.stats().pending, QUEUE_LIMIT);
  await assert.rejects(detect(frames.qr, ["QRCODE"]), QueueFullError);
  const done = await Promise.all(accepted);
  assert.ok(done.every((v) => v.qrContent === "https://spam.example/buy"));
  assert.equal(pool.stats().pending, 0);
});

test("undecodable bytes → InvalidImageError; stats count processed frames per detector", async () => {
  await assert.rejects(pool.detectFrame({ jpeg: new Uint8Array([1, 2, 3, 4]), imgTypes: ["QRCODE"], imgBusinessTypes: [] }), InvalidImageError);
  const s = pool.stats();
  assert.ok(s.processed >= 10, String(s.processed));
  for (const k of ["decode", "qrcode", "ocr", "nsfw"]) assert.ok(s.perDetectorMs[k].count > 0 && s.perDetectorMs[k].totalMs > 0, k);
});

test("a crashed worker rejects its in-flight frame and is replaced", async () => {
  const inFlight = detect(frames.en, ["ADVERT"]);
  assert.equal(pool.stats().pending, 1); // dispatched at once: the worker is idle
  (pool as unknown as { injectCrashForTest(i?: number): void }).injectCrashForTest(0);
  await assert.rejects(inFlight, WorkerCrashedError);
  const v = await detect(frames.qr, ["QRCODE"]);
  assert.equal(v.qrContent, "https://spam.example/buy");
});


test("a pool whose data dir cannot be prepared fails ready() instead of hanging", async () => {
  // /dev/null is a file, so no folder can be made under it (Node's recursive mkdir hangs under /proc: not used here);
  // the Tesseract reader caches its traineddata there (PaddleOCR's models ship in an npm package)
  const broken = createDetectPool({ dataDir: "/dev/null/detect", ocrReader: "tesseract" });
  await assert.rejects(broken.ready(), /preparing OCR data/);
  await assert.rejects(broken.detectFrame({ jpeg: new Uint8Array(frames.qr), imgTypes: ["QRCODE"], imgBusinessTypes: [] }), /preparing OCR data/);
  await broken.close();
});

test("close() rejects queued frames and later calls", async () => {
  const running = detect(frames.en, ["ADVERT"]);
  const queued = detect(frames.qr, ["QRCODE"]);
  const rejected = Promise.all([assert.rejects(running, PoolClosedError), assert.rejects(queued, PoolClosedError)]);
  await pool.close();
  await rejected;
  await assert.rejects(detect(frames.qr, ["QRCODE"]), PoolClosedError);
  assert.equal(pool.stats().pending, 0);
});
