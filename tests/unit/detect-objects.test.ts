// Objects end to end: human's CenterNet in a pool worker → COCO classes mapped to imgBusinessType labels, persons[].
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { after, before, suite, test } from "node:test";
import { IMG_BUSINESS_TYPES } from "../../lib/contract/taxonomy";
import { labelName } from "../../lib/labels";
import { objectBusinessHits } from "../../server/detect/engines/objects";
import { createDetectPool, type DetectPool, type FrameVerdict } from "../../server/detect/index";
import { OBJECT_GROUPS, objectGroupForClass, OBJECT_TYPE_GAPS, UNMAPPED_COCO_CLASSES } from "../../server/detect/object-map";
import { dinnerFrame, patternFrame, qrFrame } from "../bench/detectors";

// CenterNet's 80 COCO classes, as @vladmandic/human names them
const COCO = [
  "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light", "fire hydrant", "stop sign",
  "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella",
  "handbag", "tie", "suitcase", "frisbee", "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard",
  "surfboard", "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich", "orange",
  "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch", "potted plant", "bed", "dining table", "toilet", "tv",
  "laptop", "mouse", "remote", "keyboard", "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase",
  "scissors", "teddy bear", "hair drier", "toothbrush",
];

suite("COCO → imgBusinessType table", () => {
  test("every COCO class is mapped to exactly one group or listed as unmapped; every label has zh and en names", () => {
    for (const c of COCO) assert.ok(Boolean(objectGroupForClass(c)) !== (UNMAPPED_COCO_CLASSES as readonly string[]).includes(c), c);
    const seen = OBJECT_GROUPS.flatMap((g) => Object.keys(g.classes));
    assert.equal(new Set(seen).size, seen.length);
    for (const g of OBJECT_GROUPS) {
      assert.ok((IMG_BUSINESS_TYPES as readonly string[]).includes(g.type), g.type);
      for (const slug of [g.label2, ...Object.values(g.classes)]) for (const lang of ["zh", "en"] as const) assert.notEqual(labelName(slug, 2, lang), slug, slug);
      assert.notEqual(labelName(g.label1, 1, "en"), g.label1);
    }
    for (const t of Object.keys(OBJECT_TYPE_GAPS)) assert.ok((IMG_BUSINESS_TYPES as readonly string[]).includes(t) && !OBJECT_GROUPS.some((g) => g.type === t), t);
  });
  test("labels only for requested groups and scores at the threshold; one label per class with every box", () => {
    const found = [
      { label: "cup", score: 0.46, location: [1, 2, 3, 4] as [number, number, number, number] },
      { label: "cup", score: 0.81, location: [5, 6, 7, 8] as [number, number, number, number] },
      { label: "dog", score: 0.39, location: [1, 1, 2, 2] as [number, number, number, number] },
      { label: "car", score: 0.9, location: [1, 1, 2, 2] as [number, number, number, number] },
    ];
    const hits = objectBusinessHits(found, new Set(["TABLEWARE", "MAMMAL"]));
    assert.deepEqual(hits.map((h) => [h.labels.join(":"), h.probability, h.confidenceLevel, h.detail.objects?.length]), [["object:canju:beizi", 0.81, 2, 2]]);
  });
});

suite("object engine in a worker", () => {
  let pool: DetectPool;
  let frames: { dinner: Buffer; pattern: Buffer; qr: Buffer };
  before(async () => {
    pool = createDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-detect-objects"), engines: ["objects"] });
    frames = { dinner: await dinnerFrame(), pattern: await patternFrame(), qr: await qrFrame("https://spam.example/buy") };
    await pool.ready();
  });
  after(() => pool?.close());
  const detect = (frame: Buffer, imgBusinessTypes: string[]): Promise<FrameVerdict> =>
    pool.detectFrame({ jpeg: new Uint8Array(frame), imgTypes: [], imgBusinessTypes, lang: "en" });

  test("dinner photo → TABLEWARE cup label with its box, and the diner in persons[]", async () => {
    const v = await detect(frames.dinner, ["TABLEWARE", "VEHICLE", "BUILDING"]);
    assert.deepEqual(v.applied, ["TABLEWARE", "VEHICLE"]);
    assert.deepEqual(v.notApplied, ["BUILDING"]);
    const cup = v.businessLabels.find((b) => b.businessLabel3 === "beizi");
    assert.ok(cup, JSON.stringify(v.scores));
    assert.equal(cup.businessDescription, "Object:Tableware:Cup");
    assert.ok(cup.probability >= 0.4 && cup.probability < 1);
    const [obj] = cup.businessDetail.objects ?? [];
    assert.equal(obj.name, "cup");
    const [x1, y1, x2, y2] = obj.location;
    assert.ok(x1 >= 0 && y1 >= 0 && x2 <= 1280 && y2 <= 720 && x2 > x1 && y2 > y1, String(obj.location));
    assert.ok(!v.businessLabels.some((b) => b.businessLabel2 === "jiaotonggongju"));
    assert.ok((v.riskDetail.person_num ?? 0) >= 1, JSON.stringify(v.riskDetail));
    assert.ok(v.riskDetail.persons![0].person_ratio > 0.05);
    assert.equal(v.riskLevel, "PASS");
    assert.ok(v.timingsMs.objects > 0);
  });

  for (const name of ["pattern", "qr"] as const) {
    test(`${name} frame → no persons and no object labels`, async () => {
      const v = await detect(frames[name], OBJECT_GROUPS.map((g) => g.type));
      assert.equal(v.riskDetail.person_num, 0);
      assert.deepEqual(v.businessLabels, [], JSON.stringify(v.scores));
    });
  }

  test("capabilities: mapped types supported with their COCO classes, faces types not loaded in this pool", () => {
    const caps = pool.capabilities().filter((c) => c.group === "imgBusinessType");
    assert.equal(caps.length, IMG_BUSINESS_TYPES.length);
    for (const g of OBJECT_GROUPS) {
      const c = caps.find((x) => x.type === g.type)!;
      assert.ok(c.supported && /CenterNet/.test(c.engine ?? ""), g.type);
      for (const cls of Object.keys(g.classes)) assert.ok(c.note!.includes(cls), `${g.type} ${cls}`);
    }
    assert.match(caps.find((c) => c.type === "AGE")!.note!, /not loaded/);
    assert.ok(caps.filter((c) => !c.supported).every((c) => c.note));
  });
});
