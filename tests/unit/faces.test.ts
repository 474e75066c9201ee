// Faces end to end: human (BlazeFace + FaceMesh + FaceRes) in a pool worker, business labels, the face gallery and POLITY.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import sharp from "sharp";
import { createDetectPool, fileFaceGallery, type DetectPool, type FaceGallery, type FrameVerdict } from "../../server/detect/index";
import { faceFrame, groupFrame, HUMAN_ASSETS, patternFrame, placedFrame, qrFrame, testsrc2Frame, textFrame, type Region } from "../bench/detectors";

const FACE_TYPES = ["FACEDETECTION", "AGE", "GENDER"];
let dir: string;
let pool: DetectPool;
let gallery: FaceGallery;
let frames: Record<"face" | "group" | "groupSmall" | "otherPhoto" | "woman" | "pattern" | "qr" | "testsrc2" | "text", Buffer>;
/** reference portraits of the package author (two photos) and of a woman, as files for gallery.add */
let refs: { vladoA: string; vladoB: string; woman: string; noFace: string };

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "faces-test-"));
  pool = createDetectPool({ dataDir: path.join(dir, "data"), engines: ["faces"], galleryDir: path.join(dir, "gallery") });
  gallery = fileFaceGallery(path.join(dir, "gallery"), { embedder: pool });
  const group = await groupFrame();
  frames = {
    face: await faceFrame(),
    group,
    // the same frame at 960×540, JPEG quality 50 (q40 or faces under ~100 px fall below the match threshold)
    groupSmall: await sharp(group).resize(960).jpeg({ quality: 50 }).toBuffer(),
    // the author's "selected face" in the face-match screenshot: a photo none of the references comes from
    otherPhoto: await placedFrame("screenshot-facematch.jpg", { left: 0, top: 20, width: 175, height: 175 }, 300),
    woman: await placedFrame("screenshot-facedetect.jpg", { left: 160, top: 330, width: 165, height: 170 }, 300),
    pattern: await patternFrame(),
    qr: await qrFrame("https://spam.example/buy"),
    testsrc2: await testsrc2Frame(),
    text: await textFrame(["Add WeChat: maifen888", "低价刷粉"]),
  };
  // a head-and-shoulders portrait with a margin, as an operator would upload
  const portrait = (file: string, region: Region) =>
    sharp(path.join(HUMAN_ASSETS, file)).extract(region).resize(320).extend({ top: 80, bottom: 80, left: 80, right: 80, background: "#000" }).jpeg({ quality: 92 }).toBuffer();
  refs = { vladoA: path.join(dir, "vlado-a.jpg"), vladoB: path.join(dir, "vlado-b.jpg"), woman: path.join(dir, "woman.jpg"), noFace: path.join(dir, "pattern.jpg") };
  await writeFile(refs.vladoA, await portrait("screenshot-facedetect.jpg", { left: 0, top: 330, width: 170, height: 170 }));
  await writeFile(refs.vladoB, await portrait("samples.jpg", { left: 380, top: 0, width: 150, height: 130 }));
  await writeFile(refs.woman, await portrait("screenshot-facedetect.jpg", { left: 460, top: 330, width: 170, height: 170 }));
  await writeFile(refs.noFace, frames.pattern);
  await pool.ready();
});

after(async () => {
  await gallery?.close();
  await pool?.close();
  await rm(dir, { recursive: true, force: true });
});

function detect(frame: Buffer, imgTypes: string[], imgBusinessTypes: string[], lang: "zh" | "en" = "en"): Promise<FrameVerdict> {
  return pool.detectFrame({ jpeg: new Uint8Array(frame), imgTypes, imgBusinessTypes, lang });
}

const labelsOf = (v: FrameVerdict) => v.businessLabels.map((b) => `${b.businessLabel1}:${b.businessLabel2}:${b.businessLabel3}`);

test("portrait frame → one face with a plausible box, real-person label, age bucket and gender with its score", async () => {
  const v = await detect(frames.face, [], FACE_TYPES);
  assert.equal(v.riskDetail.face_num, 1);
  const [f] = v.riskDetail.faces ?? [];
  // the portrait (800×564 scaled to 1021×720, x offset 130) has the face at about x 150–320, y 175–350
  const [x1, y1, x2, y2] = f.location;
  assert.ok(x1 > 130 && x2 < 420 && y1 > 120 && y2 < 420 && x2 - x1 > 100, String(f.location));
  assert.ok(f.probability >= 0.5 && f.face_ratio > 0.02 && f.face_ratio < 0.1, JSON.stringify(f));
  assert.equal(f.name, "");
  const labels = labelsOf(v);
  assert.equal(labels[0], "face:renlianleixing:zhenren");
  assert.match(labels.find((l) => l.startsWith("face:nianling:")) ?? "", /^face:nianling:(qingnian|zhongnian)$/);
  const age = v.businessLabels.find((b) => b.businessLabel2 === "nianling")!;
  assert.ok(age.businessDetail.age! > 25 && age.businessDetail.age! < 55, String(age.businessDetail.age));
  const gender = v.businessLabels.find((b) => b.businessLabel2 === "xingbie")!;
  assert.equal(gender.businessLabel3, "nan");
  assert.ok(gender.probability >= 0.5 && gender.confidenceLevel >= 1, JSON.stringify(gender));
  assert.equal(gender.businessDescription, "Face:Gender:Male");
  assert.ok(!labels.includes("minor:weichengnianren:weichengnianren"));
  assert.deepEqual(v.applied, FACE_TYPES);
  assert.ok(v.timingsMs.faces > 0);
});

test("row of five close-ups → five faces, largest first, each with an age label", async () => {
  const v = await detect(frames.group, [], ["FACEDETECTION", "AGE"], "zh");
  assert.equal(v.riskDetail.face_num, 5);
  const areas = (v.riskDetail.faces ?? []).map((f) => (f.location[2] - f.location[0]) * (f.location[3] - f.location[1]));
  assert.deepEqual(areas, [...areas].sort((a, b) => b - a));
  assert.equal(v.businessLabels.filter((b) => b.businessLabel2 === "nianling").length, 5);
  assert.equal(v.businessLabels[0].businessDescription, "人脸:人脸类型:真人");
  assert.equal(v.riskLevel, "PASS");
});

for (const name of ["pattern", "qr", "testsrc2", "text"] as const) {
  test(`${name} frame → no face (FaceMesh rejects BlazeFace's candidates), FACEDETECTION says no face`, async () => {
    const v = await detect(frames[name], ["QRCODE"], ["FACEDETECTION", "AGE", "GENDER"]);
    assert.equal(v.riskDetail.face_num, 0);
    assert.deepEqual(v.riskDetail.faces, []);
    assert.deepEqual(labelsOf(v), ["face:renlianleixing:wurenlian"]);
    assert.ok(v.businessLabels[0].probability >= 0.5);
  });
}

test("gallery: empty → POLITY / PUBLICFIGURE unsupported and not applied; a photo without a face is refused", async () => {
  const caps = pool.capabilities();
  assert.equal(caps.find((c) => c.type === "POLITY")!.supported, false);
  assert.match(caps.find((c) => c.type === "POLITY")!.note ?? "", /politicians gallery is non-empty/);
  const v = await detect(frames.group, ["POLITY"], ["PUBLICFIGURE"]);
  assert.deepEqual(v.notApplied, ["POLITY", "PUBLICFIGURE"]);
  await assert.rejects(gallery.add("politicians", "Nobody", refs.noFace), /no face found/);
  await assert.rejects(gallery.add("celebs" as never, "X", refs.vladoA), /invalid list name/);
});

test("gallery: two photos of one man → his face in the frame is named, POLITY rejects, only gallery faces are named", async () => {
  assert.deepEqual(await gallery.add("politicians", "Vladimir Mandić", refs.vladoA), { faces: 1, references: 1, probability: 1 });
  assert.equal((await gallery.add("politicians", "Vladimir Mandić", refs.vladoB)).references, 2);
  await gallery.add("public_figures", "Woman Three", refs.woman);
  assert.deepEqual((await gallery.list()).map((e) => [e.list, e.entry, e.references]), [["politicians", "Vladimir Mandić", 2], ["public_figures", "Woman Three", 1]]);
  const caps = pool.capabilities();
  assert.equal(caps.find((c) => c.type === "POLITY")!.supported, true);
  assert.equal(caps.find((c) => c.type === "TAINTEDSTAR")!.supported, false);

  // the pool started before these additions: the worker re-reads the gallery's stamp
  const v = await detect(frames.group, ["POLITY"], ["PUBLICFIGURE"], "zh");
  assert.deepEqual(v.applied, ["POLITY", "PUBLICFIGURE"]);
  assert.equal(v.riskLevel, "REJECT");
  assert.deepEqual([v.riskLabel1, v.riskLabel2, v.riskLabel3], ["politics", "zhengzhirenwu", "vladimirmandic"]);
  assert.equal(v.riskDescription, "涉政:政治人物:vladimirmandic");
  assert.equal(v.riskDetail.riskSource, 1002);
  // both references of him and the woman's are cut from this very photo (other crops and scales): named, but only the politician is a POLITY risk
  const named = (v.riskDetail.faces ?? []).filter((f) => f.name !== "");
  assert.deepEqual(named.map((f) => f.name).sort(), ["Vladimir Mandić", "Woman Three"]);
  assert.equal(v.allLabels.length, 1);
  assert.deepEqual(v.allLabels[0].riskDetail.faces?.map((f) => f.name), ["Vladimir Mandić"]);
  const figures = v.businessLabels.map((b) => [b.businessLabel1, b.businessLabel2, b.businessLabel3, b.businessDetail.match?.list]);
  assert.deepEqual(figures.sort(), [["publicfigure", "gongzhongrenwu", "womanthree", "public_figures"], ["publicfigure", "zhengzhirenwu", "vladimirmandic", "politicians"]]);
  const vlado = v.businessLabels.find((b) => b.businessLabel3 === "vladimirmandic")!;
  assert.ok(vlado.businessDetail.match!.similarity >= 0.75, String(vlado.businessDetail.match!.similarity));
  assert.equal(vlado.businessDescription, "公众人物:政治人物:vladimirmandic");
});

test("gallery: another photo of him and a 960×540 q50 copy match; a different woman matches nobody", async () => {
  const other = await detect(frames.otherPhoto, ["POLITY"], []);
  assert.equal(other.riskLabel3, "vladimirmandic");
  assert.ok(other.allLabels[0].probability >= 0.7, String(other.allLabels[0].probability));
  const small = await detect(frames.groupSmall, ["POLITY"], []);
  assert.equal(small.riskLabel3, "vladimirmandic");
  assert.ok(small.allLabels[0].probability >= 0.7, String(small.allLabels[0].probability));
  const woman = await detect(frames.woman, ["POLITY"], ["PUBLICFIGURE"]);
  assert.equal(woman.riskLevel, "PASS");
  assert.equal(woman.riskDetail.face_num, 1);
  assert.equal(woman.riskDetail.faces?.[0].name, "");
  assert.deepEqual(woman.businessLabels, []);
});

test("gallery: remove → no longer matched, POLITY back to not applied", async () => {
  assert.equal(await gallery.remove("politicians", "Vladimir Mandić"), true);
  assert.equal(await gallery.remove("politicians", "Vladimir Mandić"), false);
  const v = await detect(frames.face, ["POLITY"], ["PUBLICFIGURE", "FACEDETECTION"]);
  assert.deepEqual(v.notApplied, ["POLITY"]);
  assert.equal(v.riskLevel, "PASS");
  assert.equal(v.riskDetail.faces?.[0].name, "");
  assert.deepEqual(labelsOf(v), ["face:renlianleixing:zhenren"]);
});

test("a gallery without an embedder starts its own faces-only worker, stopped by close()", async () => {
  const own = fileFaceGallery(path.join(dir, "own-gallery"));
  try {
    assert.deepEqual(await own.add("tainted_stars", "Woman Three", refs.woman), { faces: 1, references: 1, probability: 1 });
    assert.deepEqual((await own.list()).map((e) => [e.list, e.entry, e.sources]), [["tainted_stars", "Woman Three", ["woman.jpg"]]]);
  } finally {
    await own.close();
  }
});
