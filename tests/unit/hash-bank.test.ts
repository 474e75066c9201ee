// Prohibited-image hash bank: our pHash equals sharp-phash's; bank hits in a pool worker, incl. letterboxed copies.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, suite, test } from "node:test";
import sharp from "sharp";
import sharpPhash from "sharp-phash";
import { fileHashBank, HashBankReader, type HashBank } from "../../server/detect/hash-bank";
import { createDetectPool, type DetectPool, type FrameVerdict } from "../../server/detect/index";
import { contentBox, frameHashes, hamming, hexToBits, phash } from "../../server/detect/phash";
import { HUMAN_ASSETS, patternFrame, qrFrame, testsrc2Frame } from "../bench/detectors";

let dir: string;
let banned: Buffer;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hash-bank-test-"));
  banned = await sharp(path.join(HUMAN_ASSETS, "screenshot-vrm.jpg")).jpeg({ quality: 90 }).toBuffer();
});
after(() => rm(dir, { recursive: true, force: true }));

suite("pHash", () => {
  test("the same 64 bits as sharp-phash on photos and synthetic frames", async () => {
    const images = [
      path.join(HUMAN_ASSETS, "samples.jpg"), path.join(HUMAN_ASSETS, "screenshot-facedetect.jpg"), path.join(HUMAN_ASSETS, "screenshot-vrm.jpg"),
      await patternFrame(), await testsrc2Frame(), await qrFrame("https://spam.example/buy"),
    ];
    for (const img of images) assert.equal(hexToBits(await phash(img)), await sharpPhash(img));
  });
  test("distances: recompressed / resized copies stay close, different images far apart", async () => {
    const h = await phash(banned);
    const copy = await sharp(banned).resize(400).jpeg({ quality: 40 }).toBuffer();
    assert.ok(hamming(h, await phash(copy)) <= 4);
    for (const other of ["samples.jpg", "screenshot-faceid.jpg"]) assert.ok(hamming(h, await phash(path.join(HUMAN_ASSETS, other))) > 20, other);
    assert.equal(hamming("ffffffffffffffff", "0000000000000000"), 64);
    assert.equal(hamming("8000000000000001", "0000000000000000"), 2);
  });
  test("uniform borders are found and cut: a letterboxed 4:3 frame hashes like the frame itself", async () => {
    const frame43 = await sharp(await testsrc2Frame()).resize(960, 720, { fit: "fill" }).jpeg({ quality: 90 }).toBuffer();
    const boxed = await sharp(frame43).resize(1280, 720, { fit: "contain", background: "#000" }).jpeg({ quality: 75 }).toBuffer();
    const box = await contentBox(boxed);
    assert.ok(box && box.left >= 160 && box.left < 180 && box.width > 920 && box.width <= 960 && box.top < 10, JSON.stringify(box));
    const { full, trimmed } = await frameHashes(boxed);
    const h = await phash(frame43);
    assert.ok(hamming(h, full) > 10, String(hamming(h, full)));
    assert.ok(hamming(h, trimmed!) <= 6, String(hamming(h, trimmed!)));
    assert.equal(await contentBox(await patternFrame()), undefined);
  });
});

suite("bank in a worker", () => {
  let pool: DetectPool;
  let bank: HashBank;
  const bankDir = () => path.join(dir, "bank");
  before(async () => {
    pool = createDetectPool({ dataDir: path.join(dir, "data"), engines: ["hash"], hashBankDir: bankDir() });
    bank = fileHashBank(bankDir());
    await writeFile(path.join(dir, "banned.jpg"), banned);
    await pool.ready();
  });
  after(() => pool?.close());
  const detect = (frame: Buffer, imgTypes: string[]): Promise<FrameVerdict> => pool.detectFrame({ jpeg: new Uint8Array(frame), imgTypes, imgBusinessTypes: [], lang: "en" });
  const vio = () => pool.capabilities().find((c) => c.group === "imgType" && c.type === "VIOLENT")!;

  test("empty bank → VIOLENT unsupported and not applied", async () => {
    assert.equal(vio().supported, false);
    assert.match(vio().note!, /0 images in the bank/);
    const v = await detect(banned, ["VIOLENT"]);
    assert.deepEqual([v.riskLevel, v.notApplied], ["PASS", ["VIOLENT"]]);
  });

  test("added image: a resized, recompressed copy → REJECT prohibited:jinjitupian:<list> with hashMatch", async () => {
    const { hash } = await bank.add("violent", "vrm-demo", path.join(dir, "banned.jpg"));
    assert.match(hash, /^[0-9a-f]{16}$/);
    assert.deepEqual((await bank.list()).map((r) => [r.list, r.entry, r.hash]), [["violent", "vrm-demo", hash]]);
    assert.equal(vio().supported, true);
    const copy = await sharp(banned).resize(640).jpeg({ quality: 50 }).toBuffer();
    const v = await detect(copy, ["VIOLENT"]);
    assert.deepEqual([v.riskLevel, v.riskLabel1, v.riskLabel2, v.riskLabel3], ["REJECT", "prohibited", "jinjitupian", "violent"]);
    assert.equal(v.riskDescription, "Prohibited:Banned image:violent");
    assert.equal(v.riskDetail.riskSource, 1002);
    assert.equal(v.riskDetail.hashMatch?.entry, "vrm-demo");
    assert.ok(v.riskDetail.hashMatch!.distance <= 4, String(v.riskDetail.hashMatch!.distance));
    assert.deepEqual(v.allLabels[0].riskDetail.hashMatch, v.riskDetail.hashMatch);
    assert.deepEqual(v.applied, ["VIOLENT"]);
    assert.ok(v.timingsMs.hash > 0);
  });

  test("a bank hit counts under any requested imgType; a letterboxed copy matches after trimming", async () => {
    const boxed = await sharp(banned).resize(1280, 720, { fit: "contain", background: "#000" }).jpeg({ quality: 75 }).toBuffer();
    const v = await detect(boxed, ["QRCODE"]);
    assert.equal(v.riskLabel1, "prohibited");
    assert.equal(v.riskDetail.hashMatch?.trimmed, true);
    assert.deepEqual(v.notApplied, ["QRCODE"]); // the QR engine is not loaded in this pool
  });

  test("different images → PASS", async () => {
    for (const img of [await patternFrame(), await testsrc2Frame(), await sharp(path.join(HUMAN_ASSETS, "screenshot-faceid.jpg")).jpeg().toBuffer()]) {
      const v = await detect(img, ["VIOLENT", "EROTIC"]);
      assert.equal(v.riskLevel, "PASS");
      assert.equal(v.riskDetail.hashMatch, undefined);
    }
  });

  test("remove → no match; the reader reloads only when the stamp changes", async () => {
    const reader = new HashBankReader(bankDir());
    assert.equal(await reader.refresh(), true);
    assert.equal(await reader.refresh(), false);
    assert.equal(await bank.remove("violent", "vrm-demo"), true);
    assert.equal(await reader.refresh(), true);
    assert.equal(reader.size, 0);
    const v = await detect(banned, ["VIOLENT"]);
    assert.deepEqual([v.riskLevel, v.notApplied], ["PASS", ["VIOLENT"]]);
    await assert.rejects(bank.add("Bad List", "x", path.join(dir, "banned.jpg")), /invalid list name/);
  });
});
