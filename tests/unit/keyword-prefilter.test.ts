// The keyword lists' prefilter (issue #28, "no work twice"): a word's regex runs only on a text that contains one of
// its anchors (the whole word, or with one OCR error allowed, either half). It may never change a result: every
// built-in word, exact, joined, in other cases and with each one-error form OCR misreads produce, embedded in other
// text, gives exactly the hits it gives with every regex run; and texts with none of the words give none.
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILT_IN_LISTS } from "../../server/detect/lists/store";
import { anchorsOf, compileLists, IMAGE_TEXT, matchLists, probeOf, type CompiledList } from "../../server/detect/text/match";
import { prng } from "../support/prng";

const image = compileLists(BUILT_IN_LISTS.filter((l) => l.scope === "image"), IMAGE_TEXT);
const speech = compileLists(BUILT_IN_LISTS.filter((l) => l.scope === "speech"));
/** The same lists with every regex run (no prefilter). */
const unfiltered = (lists: CompiledList[]): CompiledList[] => lists.map((l) => ({ ...l, entries: l.entries.map((e) => ({ ...e, re: new RegExp(e.re.source, e.re.flags), anchors: null })) }));
const types = new Set(BUILT_IN_LISTS.map((l) => l.type));

const wordsOf = (lists: CompiledList[]) =>
  lists.flatMap((l) => l.list.entries.flatMap((e) => (typeof e === "string" ? [e] : "phrase" in e ? [e.phrase] : [])));

/** What OCR makes of a word: the forms with one error (each character swapped for a look-alike, dropped, or a stray one added). */
function misreads(word: string): string[] {
  const look: Record<string, string[]> = { o: ["0"], l: ["1", "|"], i: ["1", "l"], s: ["5", "$"], e: ["c"], a: ["@"], m: ["rn"], w: ["vv"], d: ["cl"], n: ["h"], t: ["+"] };
  const out: string[] = [];
  const c = [...word.toLowerCase()];
  c.forEach((ch, i) => {
    if (ch === " ") return;
    for (const alt of look[ch] ?? []) out.push([...c.slice(0, i), alt, ...c.slice(i + 1)].join(""));
    out.push([...c.slice(0, i), ...c.slice(i + 1)].join(""));
    out.push([...c.slice(0, i), "x", ...c.slice(i)].join(""));
  });
  out.push(`${word}x`);
  return out;
}

test("the prefilter never changes a result: every built-in word, exact, joined, re-cased and misread, in context", () => {
  const rnd = prng(28);
  const contexts = ["", "LIMITED OFFER ", "score 3 : 1\n", "直播间 ", "www.example.com "];
  let texts = 0;
  let matched = 0;
  for (const [lists, words] of [[image, wordsOf(image)], [speech, wordsOf(speech)]] as const) {
    const all = unfiltered(lists);
    for (const w of words) {
      const forms = [w, w.toUpperCase(), w.replace(/\s+/g, ""), w.replace(/\s+/g, "  \n"), ...misreads(w)];
      for (const f of forms) {
        const ctx = contexts[Math.floor(rnd() * contexts.length)];
        const text = `${ctx}${f} now`;
        const expected = matchLists(text, all, types);
        assert.deepEqual(matchLists(text, lists, types), expected, `${JSON.stringify(text)} (word ${JSON.stringify(w)})`);
        texts++;
        if (expected.length) matched++;
      }
    }
  }
  assert.ok(texts > 1000 && matched > texts / 4, `${texts} texts, ${matched} with hits: the forms reach the regexes`);
});

test("texts with none of the words: no hits with or without the prefilter; the prefilter settles most words without their regex", () => {
  const rnd = prng(7);
  const chars = "abcdefghijklmnopqrstuvwxyz0123456789 .,:\n加微信直播";
  const all = unfiltered(image);
  for (let k = 0; k < 200; k++) {
    const text = Array.from({ length: 20 + Math.floor(rnd() * 400) }, () => chars[Math.floor(rnd() * chars.length)]).join("");
    assert.deepEqual(matchLists(text, image, types), matchLists(text, all, types), JSON.stringify(text));
  }
  const probe = probeOf("LIMITED OFFER today only at www.example.com");
  const entries = image.flatMap((l) => l.entries);
  const skipped = entries.filter((e) => e.anchors && !e.anchors.some((a) => probe.includes(a))).length;
  assert.ok(skipped >= entries.length * 0.8, `${skipped} of ${entries.length} entries settled by the prefilter`);
});

test("anchors: the whole word, or both halves with one error allowed; case variants the regex accepts are one form", () => {
  assert.deepEqual(anchorsOf("Free Gift"), ["freegift"]);
  assert.deepEqual(anchorsOf("online casino", IMAGE_TEXT), ["online", "casino"]);
  assert.deepEqual(anchorsOf("加微信", IMAGE_TEXT), ["加微信"], "shorter than the one-error length: whole");
  // the regex's `iu` flags take ſ for s, ς for σ and the Kelvin sign for k: so does the probe
  assert.equal(probeOf("ſale"), probeOf("SALE"));
  assert.equal(probeOf("ΣΟΦΟΣ"), probeOf("σοφος"));
  assert.equal(probeOf("\u212Aey"), "key");
  const [sale] = compileLists([{ ...BUILT_IN_LISTS[0], entries: ["sale now"] }], IMAGE_TEXT);
  assert.equal(matchLists("ſale now", [sale], types).length, new RegExp(sale.entries[0].re.source, "iu").test("ſale now") ? 1 : 0);
});
