// Pure parts of the detect engine: OCR text normalisation, keyword lists, policy, verdict assembly, labels.
import assert from "node:assert/strict";
import { describe as suite, test } from "node:test";
import { IMG_TYPES } from "../../lib/contract/taxonomy";
import { describe, labelName } from "../../lib/labels";
import type { Hit } from "../../server/detect/engines/engine";
import { nsfwHits } from "../../server/detect/engines/nsfw";
import { textHits } from "../../server/detect/engines/ocr";
import { DEFAULT_LISTS } from "../../server/detect/lists/default-lists";
import { capabilityTable, engineForImgType } from "../../server/detect/registry";
import { compileLists, IMAGE_TEXT, matchLists, riskSegments, wordToPattern } from "../../server/detect/text/match";
import { foldForMatch, normalizeText } from "../../server/detect/text/normalize";
import { buildVerdict } from "../../server/detect/verdict";

const LISTS = compileLists(DEFAULT_LISTS);
const BOTH = new Set(["ADVERT", "IMGTEXTRISK"]);

function words(text: string, types: ReadonlySet<string> = BOTH) {
  return matchLists(text, LISTS, types).flatMap((h) => h.words.map((w) => ({ list: h.list.name, level: h.riskLevel, label3: h.label3, ...w })));
}

suite("normalizeText", () => {
  test("joins Chinese characters Tesseract spaced apart, keeps spaces next to Latin", () => {
    assert.equal(normalizeText("加 微 信 maifen888 低 价 刷 粉\n"), "加微信 maifen888 低价刷粉");
  });
  test("full-width forms become ASCII, blank runs collapse, empty lines go", () => {
    assert.equal(normalizeText("  Ｖ信：ＡＢＣ１２３  \n\n  two   words \r\n"), "V信:ABC123\ntwo words");
  });
  test("CJK punctuation counts as CJK", () => {
    assert.equal(normalizeText("你 好 。 世 界"), "你好。世界");
  });
  test("foldForMatch keeps the length", () => {
    const s = "İstanbul WeChat 微信";
    assert.equal(foldForMatch(s).length, s.length);
    assert.equal(foldForMatch("WeChat"), "wechat");
  });
});

suite("keyword matching", () => {
  test("English ad frame: contact handle and ad words with exact positions", () => {
    const text = "Add WeChat: maifen888\nfor cheap followers";
    const found = words(text);
    assert.deepEqual(found.map((w) => [w.list, w.entry, w.word, w.position]), [
      ["ad_contact", "contact-handle", "Add WeChat: maifen888", [0, 21]],
      ["ad_words", "cheap followers", "cheap followers", [26, 41]],
    ]);
    for (const w of found) assert.equal(text.slice(w.position[0], w.position[1]), w.word);
    assert.equal(found[0].level, "REJECT");
    assert.equal(found[1].level, "REVIEW");
  });
  test("Chinese ad frame after normalisation", () => {
    const text = normalizeText("加 微 信 maifen888 低 价 刷 粉");
    const found = words(text);
    assert.deepEqual(found.map((w) => [w.list, w.word, w.position]), [
      ["ad_contact", "加微信 maifen888", [0, 13]],
      // 低价刷粉 contains 刷粉: only the longer match is kept
      ["ad_words", "低价刷粉", [14, 18]],
    ]);
  });
  test("phones and URLs", () => {
    const text = "call +44 20 7946 0958 or 138 1234 5678, see https://spam.example/buy or shop.xyz/a; 热线 400-123-4567";
    const found = words(text, new Set(["ADVERT"]));
    assert.deepEqual(found.map((w) => [w.entry, w.word]).sort(), [
      ["cn-landline", "400-123-4567"],
      ["cn-mobile", "138 1234 5678"],
      ["intl-phone", "+44 20 7946 0958"],
      ["url", "https://spam.example/buy"],
      ["url", "shop.xyz/a"],
    ]);
  });
  test("contact handles need a verb, a colon or a digit in the id", () => {
    assert.equal(words("wechat groups are fun").length, 0);
    assert.equal(words("vx abcdefg").length, 0);
    assert.deepEqual(words("vx abc123").map((w) => w.word), ["vx abc123"]);
    assert.deepEqual(words("微信号：abc_def").map((w) => w.word), ["微信号：abc_def"]);
    assert.deepEqual(words("Telegram: shopbot").map((w) => w.label3), ["shejiaozhanghao"]);
  });
  test("ASCII words respect word boundaries; lists follow the requested types", () => {
    assert.equal(words("a method for cocaineless fun").length, 0);
    assert.deepEqual(words("Online  Casino and 百家乐").map((w) => w.word), ["Online  Casino", "百家乐"]);
    assert.equal(words("Online casino", new Set(["ADVERT"])).length, 0);
    assert.equal(wordToPattern("cheap followers"), "(?<![a-z0-9])cheap\\s+followers(?![a-z0-9])");
    // image text: OCR drops the spaces of a tight line; a long phrase still matches, its ends still on word boundaries
    const image = compileLists(LISTS.map((l) => l.list), { joinSpaces: true });
    const imageWords = (text: string) => matchLists(text, image, BOTH).flatMap((h) => h.words.map((w) => w.word));
    assert.deepEqual(imageWords("BUY CHEAPFOLLOWERS NOW"), ["CHEAPFOLLOWERS"]);
    assert.deepEqual(imageWords("supercheapfollowersx"), []);
    assert.deepEqual(words("BUY CHEAPFOLLOWERS NOW"), [], "transcripts keep their spaces: no joined match");
    // a short phrase never matches joined: it would hide inside ordinary words ("the rapist" in "therapist")
    const short = compileLists([{ ...LISTS[0].list, entries: ["the rapist"] }], { joinSpaces: true });
    assert.deepEqual(matchLists("my therapist said hi", short, BOTH), []);
    assert.equal(matchLists("the rapist was caught", short, BOTH).length, 1);
  });
  test("image text: a long phrase read with one OCR error still matches; a different word or a short phrase does not", () => {
    const image = compileLists(LISTS.map((l) => l.list), IMAGE_TEXT);
    const imageWords = (text: string) => matchLists(text, image, BOTH).flatMap((h) => h.words.map((w) => w.word));
    // a look-alike (0 for o, 1 for i, I for l), a dropped letter, a stray one
    assert.deepEqual(imageWords("0nline casino tonight"), ["0nline casino"]);
    assert.deepEqual(imageWords("Online cas1no"), ["Online cas1no"]);
    assert.deepEqual(imageWords("OnIine casino"), ["OnIine casino"]);
    assert.deepEqual(imageWords("onlne casino"), ["onlne casino"]);
    assert.deepEqual(imageWords("cheap follovvers"), ["cheap follovvers"]);
    // two errors, a letter that is no look-alike, a short phrase: nothing
    assert.deepEqual(imageWords("0nline cas1no"), []);
    assert.deepEqual(imageWords("online cosino"), []);
    assert.deepEqual(imageWords("offline casino"), []);
    const short = compileLists([{ ...LISTS[0].list, entries: ["bet now"] }], IMAGE_TEXT);
    assert.deepEqual(matchLists("b3t now", short, BOTH), []);
    // speech transcripts are matched exactly
    assert.deepEqual(words("0nline casino"), []);
  });
  test("riskSegments are whole lines, merged", () => {
    const text = "hello\nAdd WeChat: maifen888 now\nbye";
    const segs = riskSegments(text, [{ word: "WeChat: maifen888", position: [10, 27], entry: "x" }, { word: "now", position: [28, 31], entry: "y" }]);
    assert.deepEqual(segs, [{ segment: "Add WeChat: maifen888 now", position: [6, 31] }]);
  });
  test("textHits: probability is the OCR confidence of the line that matched", () => {
    const { text, hits } = textHits([{ text: "nothing here", confidence: 50 }, { text: "买枪 now", confidence: 87.5 }], LISTS, BOTH);
    assert.equal(text, "nothing here\n买枪 now");
    assert.equal(hits.length, 1);
    assert.deepEqual(hits[0].labels, ["prohibited", "qiangzhi", "qiangzhi"]);
    assert.equal(hits[0].probability, 0.875);
    assert.deepEqual(hits[0].matchedLists, [{ name: "prohibited_weapons", words: [{ word: "买枪", position: [13, 15], entry: "买枪" }] }]);
  });
});

suite("policy and verdict", () => {
  test("nsfw rules: neutral scores pass, porn rejects, mid porn reviews, one hit per class", () => {
    assert.deepEqual(nsfwHits({ Neutral: 0.9, Drawing: 0.05, Porn: 0.03, Hentai: 0.01, Sexy: 0.01 }), []);
    assert.deepEqual(nsfwHits({ Porn: 0.91 }).map((h) => [h.riskLevel, h.labels[0]]), [["REJECT", "porn"]]);
    assert.deepEqual(nsfwHits({ Porn: 0.7 }).map((h) => [h.riskLevel, h.labels[1]]), [["REVIEW", "yisiseqing"]]);
    assert.deepEqual(nsfwHits({ Sexy: 0.85 }).map((h) => [h.riskLevel, h.labels[0]]), [["REVIEW", "sexy"]]);
  });
  test("verdict: worst hit on top, all hits listed, PASS shape when none", () => {
    const review: Hit = { imgType: "QRCODE", riskLevel: "REVIEW", labels: ["ad", "erweima", "erweima"], probability: 1, riskSource: 1002, objects: [{ id: "0", name: "qrcode", location: [1, 2, 3, 4], probability: 1, qrContent: "x" }] };
    const reject: Hit = { imgType: "EROTIC", riskLevel: "REJECT", labels: ["porn", "porn", "porn"], probability: 0.9, riskSource: 1002 };
    const v = buildVerdict({ hits: [review, reject], lang: "en", qrObjects: review.objects, applied: ["QRCODE", "EROTIC"], notApplied: [], timingsMs: {} });
    assert.equal(v.riskLevel, "REJECT");
    assert.equal(v.riskDescription, "Pornography:Pornography:Pornography");
    assert.deepEqual(v.allLabels.map((l) => l.riskLabel1), ["porn", "ad"]);
    assert.equal(v.qrContent, "x");
    const pass = buildVerdict({ hits: [], lang: "zh", text: "", applied: ["ADVERT"], notApplied: [], timingsMs: {} });
    assert.deepEqual([pass.riskLevel, pass.riskLabel1, pass.riskLabel2, pass.riskLabel3, pass.riskDescription], ["PASS", "normal", "", "", "正常"]);
    assert.deepEqual(pass.riskDetail, { riskSource: 1000, ocrText: { text: "" } });
  });
});

suite("registry and labels", () => {
  test("every imgType is in the registry; POLITY and VIOLENT have no engine", () => {
    for (const t of IMG_TYPES) assert.ok(capabilityTable().some((c) => c.group === "imgType" && c.type === t));
    assert.equal(engineForImgType("POLITY"), undefined);
    assert.equal(engineForImgType("VIOLENT"), undefined);
    assert.equal(engineForImgType("EROTIC"), "nsfw");
    assert.equal(engineForImgType("toString"), undefined);
  });
  test("describe() gives L1:L2:L3 names in both languages", () => {
    assert.equal(describe("ad", "lianxifangshi", "shejiaozhanghao", "zh"), "广告:联系方式:社交账号");
    assert.equal(describe("ad", "erweima", "erweima", "en"), "Advertising:QR code:QR code");
    assert.equal(describe("normal", "", "", "en"), "Normal");
    assert.equal(describe("politics", "zhengzhixiangzheng", "***"), "涉政:政治象征:***");
    assert.equal(labelName("somethingnew", 2), "somethingnew");
  });
  test("every label the default lists and policy emit has both display names", () => {
    const slugs = new Set<string>();
    for (const l of DEFAULT_LISTS) {
      slugs.add(l.label2).add(l.label3);
      for (const e of l.entries) if (typeof e !== "string" && e.label3) slugs.add(e.label3);
    }
    for (const s of [...slugs, "erweima", "porn", "dongmanseqing", "yisiseqing", "xinggan"]) {
      assert.notEqual(labelName(s, 2, "zh"), s, s);
      assert.notEqual(labelName(s, 2, "en"), s, s);
    }
  });
});
