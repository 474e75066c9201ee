// Operator keyword lists and run-time thresholds through /video/v4: custom entries hit (image text and speech) and stop
// hitting once removed; raising a threshold changes a real verdict; all without a restart.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import QRCode from "qrcode";
import sharp from "sharp";
import { textFrame } from "../bench/detectors";
import { speechWav } from "../support/speech";
import { mediaDir, startStaticServer, stillVideo } from "../support/media";
import { moderateFile, startTestService } from "../support/app";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const run = promisify(execFile);

/** A short video whose audio track is the given WAV (grey picture). */
async function videoWithAudio(name: string, wav: string, seconds: number): Promise<string> {
  const out = path.join(mediaDir(), `${name}.mp4`);
  await run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `color=c=gray:s=320x240:r=10:d=${seconds}`, "-i", wav, "-af", "apad", "-t", String(seconds), "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-shortest", out]);
  return out;
}

const entriesOf = (labels: Json[]) => labels.flatMap((l) => (l.riskDetail.matchedLists ?? l.riskDetail.ocrText?.matchedLists ?? []).flatMap((m: Json) => m.words.map((w: Json) => `${m.name}:${w.entry}`)));

describe("keyword lists and thresholds through /video/v4", async () => {
  const svc = await startTestService();
  const lists = svc.engine!.lists;
  let web: { url: string; close(): Promise<void> };
  let n = 0;
  const submit = (file: string, imgType: string, audioType = "NONE") => moderateFile(svc, web.url, file, { btId: `kp-${++n}`, imgType, audioType, data: { returnAllAudio: 1 } });
  before(async () => {
    web = await startStaticServer(mediaDir());
  });
  after(async () => {
    await web.close();
    await svc.close();
  });

  test("image text: a custom keyword hits naming its list and entry; a QR threshold raised to REJECT; removal and reset undo both", async () => {
    const qr = await QRCode.toBuffer("https://example.com/zorblax", { width: 300, margin: 2 });
    const frame = await sharp(await textFrame(["ZORBLAX DEALS"])).composite([{ input: qr, left: 900, top: 300 }]).jpeg({ quality: 90 }).toBuffer();
    const file = await stillVideo("zorblax-qr", frame);

    await lists.keywords.add({ scope: "image", list: "ad_words", entry: "Zorblax" });
    await lists.policy.update({ rules: { qrcode: { reject: 1 } } });
    const hit = (await submit(file, "QRCODE_ADVERT")).frameDetail[0];
    assert.equal(hit.riskLevel, "REJECT", JSON.stringify(hit.allLabels));
    assert.equal(hit.riskLabel2, "erweima", "the QR code is now REJECT");
    const ad = hit.allLabels.find((l: Json) => l.riskLabel3 === "guanggaoci");
    assert.ok(ad, JSON.stringify(hit.allLabels));
    assert.equal(ad.riskLevel, "REVIEW");
    assert.deepEqual(entriesOf([ad]), ["ad_words:zorblax"], "why it matched: list and custom entry");
    assert.match(hit.riskDetail.ocrText.text, /ZORBLAX/i);

    await lists.keywords.remove({ scope: "image", list: "ad_words", entry: "zorblax" });
    await lists.policy.reset();
    const after = (await submit(file, "QRCODE_ADVERT")).frameDetail[0];
    assert.equal(after.riskLevel, "REVIEW", JSON.stringify(after.allLabels));
    assert.deepEqual(after.allLabels.map((l: Json) => l.riskLabel2), ["erweima"], "the keyword no longer hits; QR back to REVIEW");
  });

  test("a threshold raised above the OCR confidence drops a built-in list hit (PASS)", async () => {
    const file = await stillVideo("cheap-followers", await textFrame(["buy cheap followers"]));
    const before = (await submit(file, "ADVERT")).frameDetail[0];
    assert.equal(before.riskLevel, "REVIEW", JSON.stringify(before.allLabels));
    const confidence = before.allLabels[0].probability as number;
    assert.ok(confidence < 1, String(confidence));
    await lists.policy.update({ rules: { "ocr:ad_words": { review: 1 } } });
    const raised = await submit(file, "ADVERT");
    assert.equal(raised.riskLevel, "PASS", JSON.stringify(raised.frameDetail?.[0]?.allLabels));
    await lists.policy.reset("ocr:ad_words");
  });

  test("speech: a custom phrase in a new list hits through the transcript; removing it stops the hit", async () => {
    await lists.keywords.createList({ scope: "speech", list: "sweets_promo", type: "ADVERT", riskLevel: "REVIEW", labels: ["ad", "ad", "guanggaoci"] });
    await lists.keywords.add({ scope: "speech", list: "sweets_promo", entry: "chocolate factory" });
    const speech = await speechWav("welcome to the chocolate factory", { leadSec: 1, totalSec: 8 });
    const file = await videoWithAudio("chocolate-factory", speech, 8);
    const hit = await submit(file, "QRCODE", "ADVERT");
    const seg = hit.audioDetail[0];
    assert.equal(seg.riskLevel, "REVIEW", JSON.stringify(seg));
    assert.equal(seg.riskLabel1, "ad");
    assert.deepEqual(entriesOf([seg]), ["sweets_promo:chocolate factory"], JSON.stringify(seg.riskDetail));

    await lists.keywords.remove({ scope: "speech", list: "sweets_promo", entry: "chocolate factory" });
    const after = await submit(file, "QRCODE", "ADVERT");
    assert.equal(after.audioDetail[0].riskLevel, "PASS", JSON.stringify(after.audioDetail[0]));
    assert.match(after.audioDetail[0].riskDetail.audioText ?? "", /chocolate/i, "the words are still heard, no longer listed");
  });
});
