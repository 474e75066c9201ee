// The keyword-list model (built-in seed + operator overlay, one model for image text and speech) and run-time thresholds.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { textHits } from "../../server/detect/engines/ocr";
import { nsfwHits } from "../../server/detect/engines/nsfw";
import { compileAudioLists, matchTranscript } from "../../server/detect/audio/text-lists";
import { textTranscript } from "../../server/detect/audio/stt/transcript";
import { effectiveLists, entryId, type KeywordList } from "../../server/detect/lists/model";
import { BUILT_IN_LISTS, fileKeywordLists, InputError, KeywordListsReader } from "../../server/detect/lists/store";
import { filePolicy } from "../../server/detect/settings/policy-store";
import { thresholdsReader, Thresholds } from "../../server/detect/settings/thresholds";

const tmp = () => fs.mkdtemp(path.join(os.tmpdir(), "kw-unit-"));
const IMAGE: KeywordList = { scope: "image", name: "ad_words", type: "ADVERT", riskLevel: "REVIEW", label1: "ad", label2: "ad", label3: "guanggaoci", entries: ["buy likes", { id: "rx", pattern: "zz+" }] };
const SPEECH: KeywordList = { scope: "speech", name: "ad_words", type: "ADVERT", riskLevel: "REVIEW", label1: "ad", label2: "ad", label3: "guanggaoci", entries: [{ phrase: "promo code", label3: "guanggaoci" }] };

describe("keyword list model", () => {
  test("one shape for both scopes; entry ids are the word, phrase or rule id", () => {
    assert.deepEqual([IMAGE, SPEECH].flatMap((l) => l.entries.map(entryId)), ["buy likes", "rx", "promo code"]);
    for (const l of BUILT_IN_LISTS) assert.ok(l.scope === "image" || l.scope === "speech", l.name);
    assert.ok(BUILT_IN_LISTS.some((l) => l.scope === "image") && BUILT_IN_LISTS.some((l) => l.scope === "speech"));
  });

  test("overlay: added words follow the built-in entries, removed ids go, lists with the same name stay apart by scope", () => {
    const out = effectiveLists([IMAGE, SPEECH], {
      lists: [
        { scope: "image", name: "ad_words", added: ["flash sale"], removed: ["buy likes"] },
        { scope: "image", name: "mine", custom: { type: "IMGTEXTRISK", riskLevel: "REJECT", labels: ["prohibited", "dubo", "dubo"] }, added: ["lucky spin"], removed: [] },
      ],
    });
    assert.deepEqual(out[0].entries.map(entryId), ["rx", "flash sale"]);
    assert.deepEqual(out[1].entries.map(entryId), ["promo code"], "the speech list of the same name is untouched");
    assert.deepEqual([out[2].name, out[2].type, out[2].riskLevel, out[2].label1, out[2].builtIn, out[2].entries], ["mine", "IMGTEXTRISK", "REJECT", "prohibited", false, ["lucky spin"]]);
  });
});

describe("keyword list store (DATA_DIR overlay)", () => {
  test("add, remove (built-in and added), create and delete lists; readers see each change", async () => {
    const dir = await tmp();
    const store = fileKeywordLists(dir);
    const reader = new KeywordListsReader(dir);
    const img = (name: string) => reader.compiled("image").find((c) => c.list.name === name);
    assert.ok(!img("ad_words")!.entries.some((e) => e.id === "zorblax deal"));

    await store.add({ scope: "image", list: "ad_words", entry: "  Zorblax   DEAL " });
    assert.ok(img("ad_words")!.entries.some((e) => e.id === "zorblax deal"), "normalised and visible to the reader");
    const hits = textHits([{ text: "big Zorblax deal today", confidence: 90 }], reader.compiled("image"), new Set(["ADVERT"]));
    assert.deepEqual(hits.hits[0].matchedLists, [{ name: "ad_words", words: [{ word: "Zorblax deal", position: [4, 16], entry: "zorblax deal" }] }]);

    await store.remove({ scope: "image", list: "ad_words", entry: "zorblax deal" });
    await store.remove({ scope: "image", list: "ad_words", entry: "buy likes" });
    assert.ok(!img("ad_words")!.entries.some((e) => e.id === "zorblax deal" || e.id === "buy likes"));
    const view = (await store.all()).find((l) => l.scope === "image" && l.name === "ad_words")!;
    assert.deepEqual(view.removed, ["buy likes"]);
    await store.add({ scope: "image", list: "ad_words", entry: "buy likes" });
    assert.ok(img("ad_words")!.entries.some((e) => e.id === "buy likes"), "adding a removed built-in entry restores it");
    assert.deepEqual((await store.all()).find((l) => l.scope === "image" && l.name === "ad_words")!.removed, []);

    await store.createList({ scope: "speech", list: "casino_slang", type: "BAN", riskLevel: "REJECT", labels: ["prohibited", "dubo", "dubo"] });
    await store.add({ scope: "speech", list: "casino_slang", entry: "lucky wheel bonus" });
    const speech = compileAudioLists(reader.all());
    assert.ok(speech.phrases.includes("lucky wheel bonus"), "custom speech entries are spotted acoustically too");
    const t = textTranscript("spin the lucky wheel bonus now", 0.8);
    const h = matchTranscript(t, speech, new Set(["BAN"]), { fromOffset: 0, defaultConf: 0.8 });
    assert.deepEqual(h.map((x) => [x.type, x.riskLevel, x.labels.join(":"), x.matchedLists[0].name, x.matchedLists[0].words[0].entry]), [["BAN", "REJECT", "prohibited:dubo:dubo", "casino_slang", "lucky wheel bonus"]]);
    await store.deleteList({ scope: "speech", list: "casino_slang" });
    assert.ok(!reader.all().some((l) => l.name === "casino_slang"));
  });

  test("bad input is an InputError naming the problem; nothing is written", async () => {
    const dir = await tmp();
    const store = fileKeywordLists(dir);
    const cases: Array<[() => Promise<unknown>, RegExp]> = [
      [() => store.add({ scope: "video", list: "ad_words", entry: "x" }), /scope/],
      [() => store.add({ scope: "image", list: "ad_words", entry: "   " }), /entry.*empty/],
      [() => store.add({ scope: "image", list: "no_such_list", entry: "hello" }), /no image list no_such_list/],
      [() => store.add({ scope: "image", list: "ad_words", entry: "buy likes" }), /already/],
      [() => store.add({ scope: "speech", list: "ad_words", entry: "加微信" }), /English words/],
      [() => store.add({ scope: "image", list: "../etc", entry: "x" }), /list/],
      [() => store.remove({ scope: "image", list: "ad_words", entry: "never there" }), /no entry/],
      [() => store.createList({ scope: "image", list: "x1", type: "DIRTY", riskLevel: "REVIEW", labels: ["ad", "ad", "ad"] }), /type.*ADVERT, IMGTEXTRISK/],
      [() => store.createList({ scope: "image", list: "x1", type: "ADVERT", riskLevel: "REVIEW", labels: ["bogus", "ad", "ad"] }), /label1/],
      [() => store.createList({ scope: "image", list: "ad_words", type: "ADVERT", riskLevel: "REVIEW", labels: ["ad", "ad", "ad"] }), /exists/],
      [() => store.deleteList({ scope: "image", list: "ad_words" }), /built in/],
      [() => store.add(null), /invalid/i],
    ];
    for (const [fn, re] of cases) await assert.rejects(fn, (e: Error) => e instanceof InputError && re.test(e.message), String(re));
    assert.deepEqual(await fs.readdir(dir).catch(() => []), [], "no document written");
  });
});

describe("run-time thresholds", () => {
  test("defaults reproduce the built-in decisions", () => {
    const th = new Thresholds();
    assert.deepEqual(nsfwHits({ Neutral: 0.9, Porn: 0.03, Hentai: 0.01, Sexy: 0.01 }, th), []);
    assert.deepEqual(nsfwHits({ Porn: 0.91 }, th).map((h) => [h.riskLevel, h.labels.join(":")]), [["REJECT", "porn:porn:porn"]]);
    assert.deepEqual(nsfwHits({ Hentai: 0.7 }, th).map((h) => [h.riskLevel, h.labels[1]]), [["REVIEW", "yisiseqing"]]);
    assert.equal(th.level("qrcode", 1), "REVIEW");
    assert.deepEqual([th.level("hash", 8), th.level("hash", 9)], ["REJECT", null]); // POLICY.hash.maxDistance 8 (#15 hash eval)
    assert.deepEqual([th.level("known:banned_songs", 0.8), th.level("known:anthem", 0.8), th.level("known:anthem", 0.7)], ["REJECT", "REVIEW", null]);
    assert.equal(th.level("ocr:any_list", 0.61, "REJECT"), "REJECT", "list hits keep their own level");
  });

  test("overrides move the bands, escalate, or switch a label off", () => {
    const th = new Thresholds({ "nsfw:Porn": { review: 0.3, reject: 0.5 }, qrcode: { reject: 1 }, hash: { reject: 4, review: 12 }, "ocr:ad_words": { review: 0.95 }, "nsfw:Sexy": { enabled: false } });
    assert.deepEqual(nsfwHits({ Porn: 0.4, Sexy: 0.99 }, th).map((h) => [h.riskLevel, h.labels[1]]), [["REVIEW", "yisiseqing"]]);
    assert.equal(th.level("qrcode", 1), "REJECT");
    assert.deepEqual([th.level("hash", 3), th.level("hash", 11), th.level("hash", 13)], ["REJECT", "REVIEW", null]);
    assert.equal(th.loosest("hash"), 12);
    const lines = [{ text: "buy likes here", confidence: 90 }];
    assert.equal(textHits(lines, new KeywordListsReader(undefined).compiled("image"), new Set(["ADVERT"]), th).hits.length, 0, "OCR confidence 0.9 < 0.95");
  });

  test("policy store: effective table with defaults, validated PATCH / PUT, reset; readers follow", async () => {
    const dir = await tmp();
    const kw = fileKeywordLists(await tmp());
    const policy = filePolicy(dir, () => kw.effective());
    const read = thresholdsReader(dir);
    const table = (await policy.get()).rules;
    const porn = table.find((r) => r.key === "nsfw:Porn")!;
    assert.deepEqual([porn.defaults.review, porn.defaults.reject, porn.effective.enabled, porn.overridden], [0.6, 0.85, true, false]);
    assert.ok(table.some((r) => r.key === "ocr:ad_contact") && table.some((r) => r.key === "speech:abuse") && table.some((r) => r.key === "known:anthem"));

    const after = await policy.update({ rules: { "nsfw:Porn": { reject: 0.95 }, hash: { review: 14 } } });
    const p2 = after.rules.find((r) => r.key === "nsfw:Porn")!;
    assert.deepEqual([p2.effective.review, p2.effective.reject, p2.overridden], [0.6, 0.95, true]);
    assert.equal(read().level("nsfw:Porn", 0.9), "REVIEW", "0.9 is below the new reject threshold");
    assert.equal(read().level("hash", 13), "REVIEW");

    const bad: Array<[unknown, RegExp]> = [
      [{ rules: { "nsfw:Nope": { review: 0.5 } } }, /unknown rule/],
      [{ rules: { "nsfw:Porn": { review: 2 } } }, /between 0 and 1/],
      [{ rules: { "nsfw:Porn": { review: 0.99 } } }, /reject .* must be ≥ review/],
      [{ rules: { hash: { reject: 20 } } }, /must be ≤ review/],
      [{ rules: { qrcode: { review: "high" } } }, /rules\.qrcode\.review/],
      [{ rules: { qrcode: { extra: 1 } } }, /invalid|unrecognized/i],
      [{}, /rules/],
    ];
    for (const [input, re] of bad) await assert.rejects(policy.update(input), (e: Error) => e instanceof InputError && re.test(e.message), String(re));

    await policy.replace({ rules: { qrcode: { enabled: false } } });
    assert.equal(read().level("qrcode", 1), null);
    assert.equal(read().level("nsfw:Porn", 0.9), "REJECT", "PUT replaced the earlier overrides");
    await policy.reset("qrcode");
    assert.equal(read().level("qrcode", 1), "REVIEW");
    await policy.update({ rules: { "ocr:ad_words": { review: 0.9 } } });
    await policy.reset();
    assert.deepEqual((await policy.get()).rules.filter((r) => r.overridden), []);
  });
});
