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
  assert.match(ad.note ?? "", /precision/);
});
