// Faces: human's BlazeFace + FaceMesh (+ FaceRes age/gender/embedding when needed), gallery matching, POLITY hits.
import type { FaceResult, Human } from "@vladmandic/human";
import { faceBusinessHits, LISTS_FOR_TYPE, politicsHits, type FaceFinding } from "../face-labels";
import type { GalleryList, GalleryReader } from "../gallery-store";
import { POLICY } from "../policy";
import type { DetectedFace, FaceEmbedding } from "../types";
import type { Engine, EngineOutput, Frame, FrameRequest, RgbPixels } from "./engine";
import { decodeRgb, loadHuman, runHuman, toLocation } from "./human";

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const area = (f: FaceResult): number => f.box[2] * f.box[3];

/** Gallery lists the request consults, limited to non-empty ones. */
export function consultedLists(req: FrameRequest, gallery: GalleryReader | undefined): Set<GalleryList> {
  const lists = new Set<GalleryList>();
  if (!gallery) return lists;
  const types: string[] = [...req.businessTypes].filter((t) => t === "PUBLICFIGURE" || t === "TAINTEDSTAR");
  if (req.imgTypes.has("POLITY")) types.push("POLITY");
  for (const t of types) for (const l of LISTS_FOR_TYPE[t as keyof typeof LISTS_FOR_TYPE]) if (gallery.count(l) > 0) lists.add(l);
  return lists;
}

interface Detected {
  kept: FaceResult[];
  bestRejected: number;
  px: RgbPixels;
}

export class FaceEngine implements Engine {
  readonly name = "faces";
  readonly imgTypes = ["POLITY"] as const;
  private human: Human | undefined;

  constructor(private readonly gallery?: GalleryReader) {}

  async init(): Promise<void> {
    this.human = await loadHuman("faces");
  }

  private async detectFaces(px: RgbPixels, description: boolean): Promise<Detected> {
    if (!this.human) throw new Error("face engine not initialised");
    const result = await runHuman(this.human, px, { faces: true, description, objects: false });
    const kept = result.face.filter((f) => f.score >= POLICY.faces.minScore).sort((a, b) => area(b) - area(a));
    const rejected = result.face.filter((f) => f.score < POLICY.faces.minScore).map((f) => f.score);
    return { kept, bestRejected: rejected.length > 0 ? Math.max(...rejected) : 0, px };
  }

  async run(frame: Frame, requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    const lists = consultedLists(req, this.gallery);
    const description = req.businessTypes.has("AGE") || req.businessTypes.has("GENDER") || lists.size > 0;
    const { kept, bestRejected, px } = await this.detectFaces(await frame.rgb(), description);
    const frameArea = frame.width * frame.height;
    const findings: FaceFinding[] = kept.slice(0, POLICY.faces.reported).map((f, i) => {
      const location = toLocation(f.box, px, frame.width, frame.height);
      const face: DetectedFace = {
        id: String(i),
        name: "",
        location,
        probability: r3(f.score),
        face_ratio: Math.round((((location[2] - location[0]) * (location[3] - location[1])) / frameArea) * 10000) / 10000,
      };
      const match = f.embedding && lists.size > 0 ? this.gallery?.match(f.embedding, lists) : undefined;
      if (match) face.name = match.entry;
      return { face, age: description ? f.age : undefined, gender: f.gender, genderScore: f.genderScore, match };
    });
    return {
      hits: requested.has("POLITY") ? politicsHits(findings) : [],
      business: faceBusinessHits(findings, kept.length, bestRejected, req.businessTypes),
      faces: findings.map((f) => f.face),
      faceNum: kept.length,
    };
  }

  /** The descriptor of the largest face in an image (gallery reference photos). */
  async embedLargestFace(image: Uint8Array): Promise<FaceEmbedding | null> {
    const px = await decodeRgb(image);
    const { kept } = await this.detectFaces(px, true);
    const f = kept[0];
    if (!f?.embedding || f.embedding.length === 0) return null;
    return {
      faces: kept.length,
      embedding: [...f.embedding],
      location: toLocation(f.box, px, px.width * px.scale, px.height * px.scale),
      probability: r3(f.score),
      age: f.age,
    };
  }

  async close(): Promise<void> {}
}
