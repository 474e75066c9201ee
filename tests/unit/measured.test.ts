import assert from "node:assert/strict";
import { test } from "node:test";
import { withMeasuredScores } from "../../server/service/measured";

test("capabilities carry the eval's measured scores for supported types, nothing for unsupported ones", () => {
  const [qr, polity, ad] = withMeasuredScores([
    { group: "imgType", type: "QRCODE", supported: true, engine: "zxing-wasm" },
    { group: "imgType", type: "POLITY", supported: false, note: "no model" },
    { group: "audioType", type: "ADVERT", supported: true, engine: "pocketsphinx" },
  ]);
  assert.match(qr.note ?? "", /measured on the synthetic eval set: precision \d+ %, recall \d+ %/);
  assert.equal(polity.note, "no model");
  assert.match(ad.note ?? "", /precision \d+ %, recall \d+ %, [\d.]+ false positives per hour of continuous unrelated speech \([\d.]+ on speech held out from every rule\)/);
});

test("EROTIC, faces and objects say exactly what was measured: false positives only, or nothing", () => {
  const [erotic, face, car] = withMeasuredScores([
    { group: "imgType", type: "EROTIC", supported: true, engine: "nsfwjs" },
    { group: "imgBusinessType", type: "FACEDETECTION", supported: true, engine: "human" },
    { group: "imgBusinessType", type: "VEHICLE", supported: true, engine: "human" },
  ]);
  assert.match(erotic.note ?? "", /\d+ false positives on \d+ negatives; recall not measured: no labelled positives offline/);
  assert.doesNotMatch(erotic.note ?? "", /precision/);
  for (const c of [face, car]) assert.match(c.note ?? "", /not measured by npm run eval/);
});
