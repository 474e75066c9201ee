// Taxonomy tuples, parseTypeList and the code tables.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AUDIO_BUSINESS_TYPES, AUDIO_TYPES, AUDIOSTREAM_BUSINESS_TYPES, AUDIOSTREAM_TYPES, CODES, Code, DUPLICATE_STREAM_ERROR_CODE,
  IMG_BUSINESS_TYPES, IMG_TYPES, STREAM_END_ERROR_CODES, STREAM_END_ERROR_MEANING, TYPE_ALIASES, codeMessage, isCode,
  parseTypeList, worstRiskLevel,
} from "../../lib/contract";

test("taxonomy sizes match §5 and have no duplicates", () => {
  const sizes: Array<[readonly string[], number]> = [
    [IMG_TYPES, 6], [AUDIO_TYPES, 12], [AUDIO_BUSINESS_TYPES, 9], [IMG_BUSINESS_TYPES, 72],
    [AUDIOSTREAM_TYPES, 15], [AUDIOSTREAM_BUSINESS_TYPES, 7],
  ];
  for (const [list, n] of sizes) {
    assert.equal(list.length, n);
    assert.equal(new Set(list).size, n);
    for (const t of list) assert.ok(!t.includes("_"), `${t} must not contain the joining character`);
  }
  assert.ok(IMG_BUSINESS_TYPES.includes("DANCE") && IMG_BUSINESS_TYPES.includes("LOWCONTNET"));
  assert.ok(AUDIO_TYPES.includes("NONE"));
});

test("parseTypeList splits on _, applies aliases, dedupes and reports unknown names", () => {
  assert.deepEqual(parseTypeList("POLITICS_PORN_AD_MOAN", AUDIOSTREAM_TYPES), { types: ["POLITY", "EROTIC", "ADVERT", "MOAN"], unknown: [] });
  assert.deepEqual(parseTypeList("POLITY__EROTIC_POLITICAL_polity", IMG_TYPES), { types: ["POLITY", "EROTIC"], unknown: [] });
  assert.deepEqual(parseTypeList("ABUSE_CATS", AUDIO_TYPES), { types: ["DIRTY"], unknown: ["CATS"] });
  assert.deepEqual(parseTypeList("ABUSE", IMG_TYPES), { types: [], unknown: ["ABUSE"] });
  assert.deepEqual(parseTypeList("3CPRODUCTSLOGO_FOODLOGO", IMG_BUSINESS_TYPES).types, ["3CPRODUCTSLOGO", "FOODLOGO"]);
  assert.deepEqual(parseTypeList("", IMG_TYPES), { types: [], unknown: [] });
  for (const target of Object.values(TYPE_ALIASES)) assert.ok(AUDIOSTREAM_TYPES.includes(target as never));
});

test("codes: fixed messages in both languages, product-specific 1904", () => {
  assert.equal(codeMessage(Code.SUCCESS), "Success");
  assert.equal(codeMessage(Code.SUCCESS, "zh"), "成功");
  assert.equal(codeMessage(Code.PROCESSING), "Processing");
  assert.equal(codeMessage(1904, "en", "videostream"), "Stream route limit exceeded");
  assert.equal(codeMessage(1904, "en", "audiostream"), "Stream pulling failed");
  for (const c of CODES) for (const lang of ["en", "zh"] as const) assert.ok(codeMessage(c, lang).length > 0);
  assert.deepEqual([...CODES].sort(), [1100, 1101, 1901, 1902, 1903, 1904, 1905, 9100, 9101]);
  assert.ok(isCode(1902) && !isCode(1001));
  assert.deepEqual(STREAM_END_ERROR_CODES, [3001, 3002, 3003, 3004, 3005]);
  assert.match(STREAM_END_ERROR_MEANING[3005].en, /token/);
  assert.equal(DUPLICATE_STREAM_ERROR_CODE, 1001);
});

test("worstRiskLevel orders REJECT > REVIEW > PASS", () => {
  assert.equal(worstRiskLevel("PASS", "REVIEW"), "REVIEW");
  assert.equal(worstRiskLevel("REJECT", "REVIEW"), "REJECT");
  assert.equal(worstRiskLevel("PASS", "PASS"), "PASS");
});
