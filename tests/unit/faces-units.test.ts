// Pure parts of face detection: age buckets and minors, gender gating, gallery labels, planning and capabilities.
import assert from "node:assert/strict";
import { suite, test } from "node:test";
import { IMG_BUSINESS_TYPES } from "../../lib/contract/taxonomy";
import { labelName } from "../../lib/labels";
import {
  ageBucket, ageHits, confidenceLevel, detectionHit, faceBusinessHits, genderHit, isMinor, minorLevel, politicsHits, type FaceFinding,
} from "../../server/detect/face-labels";
import { cosineSimilarity, entryLabel, GalleryReader } from "../../server/detect/gallery-store";
import { POLICY } from "../../server/detect/policy";
import { ALL_ENGINES, capabilityTable, planFrame } from "../../server/detect/registry";
import { entryFileName, slugOf } from "../../server/detect/store";
import type { DetectedFace } from "../../server/detect/types";

const face: DetectedFace = { id: "0", name: "", location: [10, 20, 110, 140], probability: 0.98, face_ratio: 0.013 };
const labels = (hits: { labels: string[] }[]) => hits.map((h) => h.labels.join(":"));

suite("age and minors (no child photo ships offline: the age → label mapping is tested here, not the model)", () => {
  test("buckets by estimated age", () => {
    assert.deepEqual([5, 12.9, 13, 17.9, 18, 35.9, 36, 59, 60, 90].map(ageBucket), ["ertong", "ertong", "qingshaonian", "qingshaonian", "qingnian", "qingnian", "zhongnian", "zhongnian", "laonian", "laonian"]);
  });
  test("an estimate under 18 adds minor:weichengnianren:weichengnianren, with the age in businessDetail", () => {
    const child = ageHits(face, 9.46);
    assert.deepEqual(labels(child), ["face:nianling:ertong", "minor:weichengnianren:weichengnianren"]);
    assert.equal(child[1].detail.age, 9.5);
    assert.deepEqual(child[1].detail.faces, [face]);
    assert.equal(child[1].confidenceLevel, 2);
    assert.deepEqual(labels(ageHits(face, 16)), ["face:nianling:qingshaonian", "minor:weichengnianren:weichengnianren"]);
    assert.deepEqual(labels(ageHits(face, 18)), ["face:nianling:qingnian"]);
    assert.deepEqual(labels(ageHits(face, 29.3)), ["face:nianling:qingnian"]);
    assert.equal(isMinor(17.99), true);
    assert.deepEqual([11, 14, 17].map(minorLevel), [2, 1, 0]);
  });
  test("AGE requested → every face gets its bucket, minors also the minor label; not requested → nothing", () => {
    const findings: FaceFinding[] = [{ face, age: 11 }, { face: { ...face, id: "1" }, age: 42 }];
    assert.deepEqual(labels(faceBusinessHits(findings, 2, 0, new Set(["AGE"]))), ["face:nianling:ertong", "minor:weichengnianren:weichengnianren", "face:nianling:zhongnian"]);
    assert.deepEqual(faceBusinessHits(findings, 2, 0, new Set(["GENDER"])), []);
  });
});

suite("gender, detection and confidence levels", () => {
  test("gender only at or above its minimum score, probability = the score", () => {
    assert.equal(genderHit(face, "male", 0.21), undefined);
    assert.equal(genderHit(face, "unknown", 0.9), undefined);
    const g = genderHit(face, "female", 0.934)!;
    assert.deepEqual([g.labels.join(":"), g.probability, g.confidenceLevel], ["face:xingbie:nv", 0.934, 2]);
    assert.equal(genderHit(face, "male", 0.6)!.confidenceLevel, 0);
  });
  test("no face → wurenlian with 1 − the best rejected candidate; faces → zhenren with all faces", () => {
    const none = detectionHit([], 0, 0.33);
    assert.deepEqual([none.labels.join(":"), none.probability, none.detail.face_num], ["face:renlianleixing:wurenlian", 0.67, 0]);
    const some = detectionHit([face], 12, 0);
    assert.deepEqual([some.labels[2], some.probability, some.detail.face_num], ["zhenren", 0.98, 12]);
    assert.deepEqual([0.4, 0.7, 0.95].map((s) => confidenceLevel(s, [0.7, 0.9])), [0, 1, 2]);
  });
});

suite("gallery labels", () => {
  const match = { list: "politicians", entry: "Zoë Ångström", similarity: 0.71 };
  test("slugs fold accents; a name without ASCII letters is masked; file names are safe and distinct", () => {
    assert.equal(slugOf("Zoë Ångström"), "zoeangstrom");
    assert.equal(entryLabel("Zoë Ångström", false), "zoeangstrom");
    assert.equal(entryLabel("张三", false), "***");
    assert.equal(entryLabel("Zoë Ångström", true), "***");
    assert.match(entryFileName("张三"), /^entry-[0-9a-f]{12}\.json$/);
    assert.notEqual(entryFileName("a b"), entryFileName("a-b"));
  });
  test("a politician match → POLITY REJECT risk hit naming the entry, and PUBLICFIGURE only when requested", () => {
    const findings: FaceFinding[] = [{ face: { ...face, name: match.entry }, match }, { face }];
    const [hit] = politicsHits(findings);
    assert.deepEqual([hit.imgType, hit.riskLevel, hit.labels.join(":"), hit.probability, hit.riskSource], ["POLITY", "REJECT", "politics:zhengzhirenwu:zoeangstrom", 0.71, 1002]);
    assert.deepEqual(hit.faces?.map((f) => f.name), ["Zoë Ångström"]);
    assert.deepEqual(labels(faceBusinessHits(findings, 2, 0, new Set(["PUBLICFIGURE"]))), ["publicfigure:zhengzhirenwu:zoeangstrom"]);
    assert.deepEqual(faceBusinessHits(findings, 2, 0, new Set(["TAINTEDSTAR"])), []);
    const tainted: FaceFinding[] = [{ face, match: { ...match, list: "tainted_stars" } }];
    assert.deepEqual(labels(faceBusinessHits(tainted, 1, 0, new Set(["TAINTEDSTAR"]))), ["taintedstar:liejiyiren:zoeangstrom"]);
    assert.deepEqual(politicsHits(tainted), []);
  });
  test("cosine similarity; an unread gallery matches nothing", () => {
    assert.equal(cosineSimilarity([1, 0], [1, 0]), 1);
    assert.equal(Math.round(cosineSimilarity([1, 1], [1, 0]) * 1000) / 1000, 0.707);
    assert.equal(new GalleryReader("/nonexistent").match([1, 2, 3], new Set(["politicians"])), undefined);
  });
  test("every label the face, gallery and hash rules emit has zh and en names", () => {
    for (const s of ["renlianleixing", "zhenren", "wurenlian", "nianling", ...POLICY.faces.ageBuckets.map((b) => b.slug), "xingbie", "nan", "nv", "weichengnianren", "zhengzhirenwu", "gongzhongrenwu", "liejiyiren", "jinjitupian"]) {
      assert.notEqual(labelName(s, 2, "zh"), s, s);
      assert.notEqual(labelName(s, 2, "en"), s, s);
    }
    for (const s of ["face", "minor", "publicfigure", "taintedstar", "politics", "prohibited"]) assert.notEqual(labelName(s, 1, "en"), s, s);
  });
});

suite("planning and capabilities follow the gallery and the bank", () => {
  const engines = new Set(ALL_ENGINES);
  test("POLITY needs politicians, PUBLICFIGURE public_figures or politicians, VIOLENT a non-empty bank", () => {
    const empty = planFrame(["POLITY", "VIOLENT", "EROTIC"], ["PUBLICFIGURE", "TAINTEDSTAR", "AGE", "VEHICLE", "BUILDING"], { engines, gallery: {}, bankSize: 0 });
    assert.deepEqual(empty.applied, ["EROTIC", "AGE", "VEHICLE"]);
    assert.deepEqual(empty.notApplied, ["POLITY", "VIOLENT", "PUBLICFIGURE", "TAINTEDSTAR", "BUILDING"]);
    assert.deepEqual([...empty.engines].sort(), ["faces", "nsfw", "objects"]);
    const full = planFrame(["POLITY", "QRCODE"], ["PUBLICFIGURE"], { engines, gallery: { politicians: 1 }, bankSize: 3 });
    assert.deepEqual(full.applied, ["POLITY", "QRCODE", "PUBLICFIGURE"]);
    // the bank is checked under any requested imgType, even without VIOLENT
    assert.ok(full.engines.has("hash"));
    assert.ok(!planFrame([], ["AGE"], { engines, bankSize: 3 }).engines.has("hash"));
    assert.deepEqual(planFrame(["QRCODE"], ["AGE"], { engines: new Set(["faces"] as const) }).notApplied, ["QRCODE"]);
  });
  test("capabilities: every imgBusinessType listed; POLITY / VIOLENT say exactly when they are supported", () => {
    const none = capabilityTable();
    const byType = (caps: typeof none, t: string) => caps.find((c) => c.type === t && (c.group === "imgType" || c.group === "imgBusinessType"))!;
    for (const t of IMG_BUSINESS_TYPES) assert.ok(none.some((c) => c.group === "imgBusinessType" && c.type === t && c.note), t);
    assert.match(byType(none, "POLITY").note!, /supported when the politicians gallery is non-empty.*no gallery folder configured/);
    assert.match(byType(none, "VIOLENT").note!, /supported via the prohibited-image hash bank when the bank is non-empty.*no hash bank folder configured/);
    const some = capabilityTable({ gallery: { politicians: 2, tainted_stars: 0 }, bankSize: 5 });
    assert.equal(byType(some, "POLITY").supported, true);
    assert.match(byType(some, "POLITY").note!, /2 politicians/);
    assert.equal(byType(some, "VIOLENT").supported, true);
    assert.equal(byType(some, "PUBLICFIGURE").supported, true);
    assert.equal(byType(some, "TAINTEDSTAR").supported, false);
    assert.match(byType(some, "VEHICLE").note!, /car, bus, truck/);
    assert.match(byType(some, "BUILDING").note!, /no COCO class/);
    assert.equal(byType(capabilityTable({ engines: new Set(["ocr"] as const) }), "AGE").supported, false);
  });
});
