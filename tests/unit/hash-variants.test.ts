// Hash-bank variants (server/detect/hash-bank.ts, phash.ts): mirrored, letterboxed and cropped copies match and say
// which comparison matched; unrelated images do not; entries written before the variants still match.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, suite, test } from "node:test";
import sharp, { type Sharp } from "sharp";
import { fileHashBank, HashBankReader } from "../../server/detect/hash-bank";
import { entryFileName, bumpStamp } from "../../server/detect/store";
import { cropHashes, dhashOfGrey9x8, frameHashes, hamming, mirrorGrey, phash } from "../../server/detect/phash";
import { POLICY } from "../../server/detect/policy";
import { HUMAN_ASSETS, patternFrame, testsrc2Frame } from "../bench/detectors";

let dir: string;
let photo: Buffer;
let reader: HashBankReader;
const PHASH_ONLY = new Set(["phash"] as const);

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hash-variants-"));
  photo = await sharp(path.join(HUMAN_ASSETS, "screenshot-vrm.jpg")).resize(1280, 720, { fit: "cover" }).jpeg({ quality: 90 }).toBuffer();
  await writeFile(path.join(dir, "banned.jpg"), photo);
  const bank = fileHashBank(path.join(dir, "bank"));
  await bank.add("violent", "vrm", path.join(dir, "banned.jpg"));
  reader = new HashBankReader(path.join(dir, "bank"));
  await reader.refresh();
});
after(() => rm(dir, { recursive: true, force: true }));

const jpeg = (img: Sharp, quality = 80) => img.jpeg({ quality }).toBuffer();

suite("hash variants", () => {
  test("an entry stores its pHash, dHash and 18 crop pHashes", async () => {
    const [record] = await fileHashBank(path.join(dir, "bank")).list();
    assert.equal(record.hash, await phash(photo));
    assert.match(record.dhash!, /^[0-9a-f]{16}$/);
    assert.equal(record.crops!.length, 18);
    // the 95 % centre crop is close to the whole picture, the 90 % corner crops further away
    assert.ok(hamming(record.crops![4], record.hash) < hamming(record.crops![9], record.hash) + 8);
  });

  test("a mirrored, recompressed copy matches by its mirrored hash; pHash alone does not match it", async () => {
    const mirrored = await jpeg(sharp(photo).flop().resize(640), 50);
    const h = await frameHashes(mirrored);
    const m = reader.match(h);
    assert.equal(m?.entry, "vrm");
    assert.ok(m!.method === "phash-mirror" || m!.method === "dhash-mirror", m!.method);
    assert.ok(m!.distance <= POLICY.hash.maxDistance);
    assert.equal(reader.match(h, POLICY.hash.maxDistance, PHASH_ONLY), undefined);
  });

  test("a letterboxed copy matches after trimming (trimmed: true)", async () => {
    const boxed = await jpeg(sharp(await sharp(photo).resize(960, 540).toBuffer()).extend({ top: 90, bottom: 90, left: 160, right: 160, background: "#000" }));
    const m = reader.match(await frameHashes(boxed));
    assert.equal(m?.entry, "vrm");
    assert.equal(m?.trimmed, true);
    assert.equal(m?.method, "phash");
  });

  test("a copy with 10 % of each side cut from one corner matches a crop hash; pHash alone does not", async () => {
    const cropped = await jpeg(sharp(photo).extract({ left: 128, top: 72, width: 1152, height: 648 }));
    const h = await frameHashes(cropped);
    assert.ok(hamming(h.full, await phash(photo)) > POLICY.hash.maxDistance, "the whole-image pHash moved past the limit");
    const m = reader.match(h);
    assert.equal(m?.entry, "vrm");
    assert.equal(m?.method, "phash-crop");
    assert.equal(reader.match(h, POLICY.hash.maxDistance, PHASH_ONLY), undefined);
  });

  test("unrelated images match nothing", async () => {
    const others = [
      await sharp(path.join(HUMAN_ASSETS, "samples.jpg")).jpeg().toBuffer(),
      await sharp(path.join(HUMAN_ASSETS, "screenshot-faceid.jpg")).jpeg().toBuffer(),
      await patternFrame(),
      await testsrc2Frame(),
      await jpeg(sharp(await testsrc2Frame()).flop()),
    ];
    for (const [i, img] of others.entries()) {
      const m = reader.match(await frameHashes(img), 64);
      assert.ok(m!.distance > POLICY.hash.maxDistance + 2, `image ${i}: nearest ${m!.distance} (${m!.method})`);
      assert.equal(reader.match(await frameHashes(img)), undefined);
    }
  });

  test("an entry written before dHash and crops (pHash only) still matches, on pHash", async () => {
    const old = path.join(dir, "old-bank");
    await mkdir(path.join(old, "violent"), { recursive: true });
    await writeFile(path.join(old, "violent", entryFileName("vrm-old")), JSON.stringify({ list: "violent", entry: "vrm-old", hash: await phash(photo), source: "x.jpg", addedAt: 1 }));
    await bumpStamp(old);
    const r = new HashBankReader(old);
    await r.refresh();
    assert.equal(r.size, 1);
    const m = r.match(await frameHashes(await jpeg(sharp(photo).resize(640), 40)));
    assert.deepEqual([m?.entry, m?.method], ["vrm-old", "phash"]);
  });

  test("dHash and mirroring: bits as defined", () => {
    // 9×8 ramp rising left to right: every bit 1; its mirror image: every bit 0
    const ramp = new Uint8Array(72).map((_, i) => (i % 9) * 20);
    assert.equal(dhashOfGrey9x8(ramp), "ffffffffffffffff");
    assert.equal(dhashOfGrey9x8(mirrorGrey(ramp, 9, 8)), "0000000000000000");
    assert.deepEqual([...mirrorGrey(new Uint8Array([1, 2, 3, 4, 5, 6]), 3, 2)], [3, 2, 1, 6, 5, 4]);
  });

  test("crop hashes of an image without borders cover the whole picture", async () => {
    const crops = await cropHashes(photo);
    assert.equal(crops.length, 18);
    assert.equal(new Set(crops).size > 9, true);
  });
});
