// QR decoding passes (server/detect/engines/qrcode.ts): generated frames that the first zxing pass reads, and ones
// only the crop pass or the local-threshold pass reads; nothing invented on a look-alike pattern; the gate in front of
// the fallback passes (issue #28) skips them on a frame without finder-like patterns, never on a faint code.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, suite, test } from "node:test";
import { initQr, localMeanThreshold, readQrCodes } from "../../server/detect/engines/qrcode";
import { conditionFrame, type CondSpec } from "../eval/qr";
import { patternFrame, plainFrame } from "../eval/frames";

const frame = async (spec: CondSpec) => new Uint8Array(await readFile(await conditionFrame(spec)));

before(() => initQr());

suite("QR passes", () => {
  test("a 21-module code at 2 px per module", async () => {
    const { codes } = await readQrCodes(await frame({ condition: "plain", payloads: ["https://t.cn/x"], modulePx: 2, background: "light", seed: 1 }));
    assert.deepEqual(codes.map((c) => c.text), ["https://t.cn/x"]);
    const [x1, y1, x2, y2] = codes[0].location;
    assert.ok(x2 - x1 >= 40 && x2 - x1 <= 52 && y2 - y1 >= 40, JSON.stringify(codes[0].location));
  });

  test("rotated and inverted codes", async () => {
    const rotated = await readQrCodes(await frame({ condition: "rotation", payloads: ["weixin://contacts/profile/maifen888"], modulePx: 3, background: "gradient", seed: 2 }));
    assert.deepEqual(rotated.codes.map((c) => c.text), ["weixin://contacts/profile/maifen888"]);
    const inverted = await readQrCodes(await frame({ condition: "inverted", payloads: ["加微信 maifen888 低价刷粉"], modulePx: 3, background: "noise", seed: 3 }));
    assert.deepEqual(inverted.codes.map((c) => c.text), ["加微信 maifen888 低价刷粉"]);
  });

  test("three codes in one frame: every one reported, each with its own place", async () => {
    const payloads = ["https://t.cn/x", "tel:+8613800138000", "https://spam.example/buy?id=123"];
    const { codes } = await readQrCodes(await frame({ condition: "multi (3 codes)", payloads, modulePx: 3, background: "dark", seed: 4 }));
    assert.deepEqual(codes.map((c) => c.text).sort(), [...payloads].sort());
    const lefts = codes.map((c) => c.location[0]).sort((a, b) => a - b);
    assert.ok(lefts[1] - lefts[0] > 100 && lefts[2] - lefts[1] > 100, JSON.stringify(lefts));
  });

  test("a tilted 2 px/module code the first pass only locates: decoded by the crop ×3 pass", async () => {
    // eval frame (tests/eval/qr.ts conditions set): the pre-#15 single pass finds nothing here
    const jpeg = await frame({ condition: "perspective", payloads: ["https://t.cn/x"], modulePx: 2, background: "testsrc2", seed: 1048 });
    assert.deepEqual((await readQrCodes(jpeg, "single")).codes, []);
    const { codes, passes } = await readQrCodes(jpeg);
    assert.deepEqual(codes.map((c) => [c.text, c.pass]), [["https://t.cn/x", "zxing-crop-x3"]]);
    assert.ok(!passes.some((p) => p.startsWith("zxing-local")), passes.join());
  });

  test("a low-contrast code darker than the page around it: decoded by the local-threshold pass", async () => {
    const jpeg = await frame({ condition: "low contrast", payloads: ["https://t.cn/x"], modulePx: 2, background: "light", seed: 1120 });
    assert.deepEqual((await readQrCodes(jpeg, "single")).codes, []);
    const { codes } = await readQrCodes(jpeg);
    assert.deepEqual(codes.map((c) => [c.text, c.pass]), [["https://t.cn/x", "zxing-local-threshold-r3"]]);
  });

  test("a look-alike (random module grid with finder squares): nothing is invented, with every pass or behind the gate", async () => {
    const jpeg = new Uint8Array(await readFile(await patternFrame("fake-finders", 7)));
    const ungated = await readQrCodes(jpeg, "ungated");
    assert.deepEqual(ungated.codes, []);
    assert.deepEqual(ungated.passes.filter((p) => p.startsWith("zxing-local")), ["zxing-local-threshold-r3", "zxing-local-threshold-r4", "zxing-local-threshold-r6"]);
    assert.deepEqual((await readQrCodes(jpeg)).codes, []);
  });

  test("gate: a code-less frame without finder-like patterns skips the fallback passes", async () => {
    for (const bg of ["light", "gradient"] as const) {
      const read = await readQrCodes(new Uint8Array(await readFile(await plainFrame(bg, 3))));
      assert.deepEqual(read.codes, [], bg);
      assert.equal(read.gated, true, bg);
      assert.deepEqual(read.passes, ["zxing"], bg);
    }
  });

  test("gate: a faint 3 px/module code whose finders show only in the 4 px binarisation still gets the fallback passes", async () => {
    // eval frame (round 3 of the conditions set): no finder-like pattern in the 3 px binarisation, a clear triple in the 4 px one
    const jpeg = await frame({ condition: "low contrast", payloads: ["https://t.cn/x"], modulePx: 3, background: "light", seed: 1780 });
    const { codes, gated } = await readQrCodes(jpeg);
    assert.deepEqual(codes.map((c) => [c.text, c.pass]), [["https://t.cn/x", "zxing-local-threshold-r4"]]);
    assert.ok(!gated);
  });

  test("localMeanThreshold: dark where darker than the box mean, edges clamped", () => {
    // 5×3: a dark pixel in the middle of a flat field, and a flat field stays white
    const g = new Uint8Array([100, 100, 100, 100, 100, 100, 100, 40, 100, 100, 100, 100, 100, 100, 100]);
    const out = localMeanThreshold(g, 5, 3, 1);
    assert.deepEqual([...out], [255, 255, 255, 255, 255, 255, 255, 0, 255, 255, 255, 255, 255, 255, 255]);
    assert.ok(localMeanThreshold(new Uint8Array(64).fill(90), 8, 8, 3).every((v) => v === 255));
  });
});
