import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import sharp from "sharp";
import { placedFrame } from "../bench/detectors";
import { mediaDir, startStaticServer, stillVideo } from "../support/media";
import { moderateFile, startTestService } from "../support/app";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const HUMAN_ASSETS = path.resolve("node_modules/@vladmandic/human/assets");

describe("operator lists through /video/v4: face gallery and prohibited-image hash bank", async () => {
  const svc = await startTestService();
  let web: { url: string; close(): Promise<void> };
  const submitAndWait = (btId: string, file: string, imgType: string) => moderateFile(svc, web.url, file, { btId, imgType });
  before(async () => {
    web = await startStaticServer(mediaDir());
  });
  after(async () => {
    await web.close();
    await svc.close();
  });

  test("an edited copy of a banked image is REJECTed with the entry and distance; the original bank stays exact", async () => {
    const original = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#224488" } })
      .composite([{ input: Buffer.from(`<svg width="800" height="600"><circle cx="250" cy="300" r="180" fill="#dd3322"/><rect x="480" y="120" width="220" height="360" fill="#f4d03f"/><path d="M60 560 L400 60 L740 560 Z" fill="none" stroke="#fff" stroke-width="24"/></svg>`) }])
      .jpeg({ quality: 92 })
      .toBuffer();
    const upload = path.join(mediaDir(), "banked-original.jpg");
    await fs.writeFile(upload, original);
    await svc.engine!.lists.add("images", "prohibited", "banned flag", { name: "banned.jpg", bytes: new Uint8Array(original) });
    const edited = await sharp(original).resize(640).jpeg({ quality: 40 }).toBuffer();
    const res = await submitAndWait("hash-hit", await stillVideo("banked-copy", edited, { seconds: 3, fit720: true }), "VIOLENT");
    assert.equal(res.riskLevel, "REJECT");
    const f = res.frameDetail[0];
    assert.equal(f.riskLabel1, "prohibited");
    assert.equal(f.riskDetail.hashMatch.entry, "banned flag");
    assert.ok(f.riskDetail.hashMatch.distance <= 10, String(f.riskDetail.hashMatch.distance));
    const listed = await svc.engine!.lists.all();
    assert.ok(listed.images.entries.some((e) => e.entry === "banned flag"));
  });

  test("a politician in the face gallery: another photo of him → POLITY REJECT naming him", async () => {
    const portrait = await sharp(path.join(HUMAN_ASSETS, "screenshot-facedetect.jpg")).extract({ left: 0, top: 330, width: 170, height: 170 }).resize(320).extend({ top: 80, bottom: 80, left: 80, right: 80, background: "#000" }).jpeg({ quality: 92 }).toBuffer();
    const msg = await svc.engine!.lists.add("faces", "politicians", "Vladimir Mandic", { name: "vlado.jpg", bytes: new Uint8Array(portrait) });
    assert.match(msg, /face added/);
    const frame = await placedFrame("screenshot-facematch.jpg", { left: 0, top: 20, width: 175, height: 175 }, 300);
    const res = await submitAndWait("face-hit", await stillVideo("politician-other-photo", frame, { seconds: 3, fit720: true }), "POLITY");
    assert.equal(res.riskLevel, "REJECT", JSON.stringify(res.frameDetail?.[0]?.allLabels ?? res));
    const f = res.frameDetail[0];
    assert.equal(f.riskLabel1, "politics");
    assert.ok(f.riskDetail.faces.some((x: Json) => x.name === "Vladimir Mandic"), JSON.stringify(f.riskDetail.faces));
  });
});
