// Business labels through /video/v4 with the real face and object models: a portrait → FACEDETECTION / AGE / GENDER,
// a dinner photo → TABLEWARE (cup), each with its box; both PASS (business labels inform, they do not flag).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { dinnerFrame, faceFrame } from "../bench/detectors";
import { moderateFile, startTestService } from "../support/app";
import { mediaDir, startStaticServer, stillVideo } from "../support/media";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const labelsOf = (frame: Json) => (frame.businessLabels ?? []).map((b: Json) => `${b.businessLabel1}:${b.businessLabel2}:${b.businessLabel3}`);

describe("business labels through /video/v4: faces and objects", async () => {
  const svc = await startTestService();
  let web: { url: string; close(): Promise<void> };
  before(async () => {
    web = await startStaticServer(mediaDir());
  });
  after(async () => {
    await web.close();
    await svc.close();
  });

  test("a portrait → face type, age bucket and gender with the face's box; a dinner photo → TABLEWARE cup", async () => {
    const [portrait, dinner] = await Promise.all([stillVideo("biz-portrait", await faceFrame()), stillVideo("biz-dinner", await dinnerFrame())]);
    const face = await moderateFile(svc, web.url, portrait, { btId: "biz-face", imgBusinessType: "FACEDETECTION_AGE_GENDER", data: { returnAllImg: 1 } });
    const [f1] = face.frameDetail as Json[];
    assert.equal(f1.riskLevel, "PASS");
    const labels = labelsOf(f1);
    assert.ok(labels.includes("face:renlianleixing:zhenren"), JSON.stringify(labels));
    assert.ok(labels.some((l: string) => /^face:nianling:/.test(l)), JSON.stringify(labels));
    const gender = (f1.businessLabels as Json[]).find((b) => b.businessLabel2 === "xingbie");
    assert.ok(gender && gender.probability >= 0.5, JSON.stringify(f1.businessLabels));
    const box = (f1.businessLabels as Json[]).find((b) => b.businessDetail?.faces?.length)?.businessDetail.faces[0].location ?? f1.riskDetail?.faces?.[0]?.location;
    assert.ok(Array.isArray(box) && box[2] > box[0] && box[3] > box[1], JSON.stringify(f1));

    const objects = await moderateFile(svc, web.url, dinner, { btId: "biz-dinner", imgBusinessType: "TABLEWARE_VEHICLE", data: { returnAllImg: 1 } });
    const [f2] = objects.frameDetail as Json[];
    assert.equal(f2.riskLevel, "PASS");
    const cup = (f2.businessLabels as Json[]).find((b) => b.businessLabel3 === "beizi");
    assert.ok(cup, JSON.stringify(f2.businessLabels));
    assert.equal(cup.businessDetail.objects[0].name, "cup");
    assert.ok(!(f2.businessLabels as Json[]).some((b) => b.businessLabel2 === "jiaotonggongju"), "no vehicle in a dinner photo");
  });
});
