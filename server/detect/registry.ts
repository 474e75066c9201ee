// Detector registry keyed by the contract's types: which engine answers which type (static; no model imports here).
import {
  AUDIO_BUSINESS_TYPES, AUDIO_TYPES, AUDIOSTREAM_BUSINESS_TYPES, AUDIOSTREAM_TYPES, IMG_BUSINESS_TYPES, IMG_TYPES,
  type ImgType,
} from "../../lib/contract/taxonomy";
import { OBJECT_TYPE_GAPS, objectGroupForType } from "./object-map";
import { POLICY } from "./policy";
import type { Capability, CapabilityView, EngineName, OcrReaderName } from "./types";

export type { EngineName };
export const ALL_ENGINES: readonly EngineName[] = ["qrcode", "ocr", "nsfw", "faces", "objects", "hash"];
/**
 * Engines whose model takes a batch of frames (FrameDetector.detectBatch, DetectPoolOptions.maxBatch). Measured
 * (issue #28): NSFW MobileNetV2 ≈ 15–20 % less CPU a frame at 2–4 frames a batch; PaddleOCR's detector none.
 */
export const BATCHED_ENGINES = ["nsfw"] as const satisfies readonly EngineName[];

export const ENGINE_DESCRIPTIONS: Record<EngineName, string> = {
  qrcode: "zxing-cpp via zxing-wasm 3.1 (QR Code, Micro QR)",
  ocr: "PaddleOCR PP-OCRv4 text detector + recogniser (Chinese + English, ONNX Runtime) + keyword lists",
  nsfw: "nsfwjs 4.4 MobileNetV2 (tfjs wasm)",
  faces: "@vladmandic/human 3.3 BlazeFace + FaceMesh + FaceRes (tfjs wasm)",
  objects: "@vladmandic/human 3.3 CenterNet, COCO classes (tfjs wasm)",
  hash: "64-bit DCT pHash (sharp greyscale 32×32, sharp-phash bits) against the prohibited-image hash bank",
};

/** The OCR engine when OCR_READER=tesseract. */
const TESSERACT_DESCRIPTION = "tesseract.js 7 OCR (eng + chi_sim 4.0.0_best_int) + keyword lists";

/** The engine as this pool runs it (the OCR engine names the reader it was loaded with). */
const describeEngine = (engine: EngineName, st: DetectState): string => (engine === "ocr" && st.ocrReader === "tesseract" ? TESSERACT_DESCRIPTION : ENGINE_DESCRIPTIONS[engine]);

/** One contract type in a registry table (frames here, audio in audio/registry.ts): its engine and note, or why none. */
export type TypeEntry<E extends string> = { engine: E; note: string } | { engine?: undefined; note: string };

/** The engine a table gives a type, or undefined (unknown type, or none). */
export function engineIn<E extends string>(table: Readonly<Record<string, TypeEntry<E>>>, type: string): E | undefined {
  return Object.prototype.hasOwnProperty.call(table, type) ? table[type].engine : undefined;
}

/** Engines that always answer an imgType. POLITY and VIOLENT depend on the gallery / hash bank: see planFrame. */
export const IMG_TYPE_REGISTRY: Record<ImgType, TypeEntry<EngineName>> = {
  QRCODE: { engine: "qrcode", note: "decoded QR → REVIEW ad:erweima, with qrContent" },
  ADVERT: { engine: "ocr", note: "lists ad_contact (URLs, phones, contact handles) and ad_words" },
  IMGTEXTRISK: { engine: "ocr", note: "lists prohibited_gambling, prohibited_drugs, prohibited_weapons, violence_terror" },
  EROTIC: { engine: "nsfw", note: "porn / hentai → REJECT porn, suspected → REVIEW, sexy → REVIEW (thresholds on the Policy page); only false positives were measurable offline: no labelled explicit images exist here, and no drawn or bundled image reached a threshold" },
  POLITY: { note: "supported when the politicians gallery is non-empty (face match); no model for political symbols or scenes" },
  VIOLENT: { note: "supported via the prohibited-image hash bank when the bank is non-empty; no weapons / gore / terror-scene classifier" },
};

/** The engine that always answers an imgType, or undefined (unknown type, or one that depends on gallery / bank). */
export function engineForImgType(type: string): EngineName | undefined {
  return engineIn(IMG_TYPE_REGISTRY, type);
}

const FACE_TYPES: Record<string, string> = {
  FACEDETECTION: `face:renlianleixing:zhenren (faces[], face_num) or …:wurenlian; FaceMesh score ≥ ${POLICY.faces.minScore}; faces under ~60 px in a 1280-wide frame are often missed`,
  AGE: `FaceRes age → face:nianling:<bucket> per face, plus minor:weichengnianren:weichengnianren under ${POLICY.faces.minorAge}; estimates cluster near 29 and were not checked on children`,
  GENDER: `FaceRes gender → face:xingbie:nan|nv, only at score ≥ ${POLICY.faces.genderMinScore} (probability = that score)`,
};

const GALLERY_TYPES: Record<string, { lists: readonly GalleryListName[]; what: string }> = {
  PUBLICFIGURE: { lists: ["public_figures", "politicians"], what: "publicfigure:gongzhongrenwu|zhengzhirenwu:<entry>" },
  TAINTEDSTAR: { lists: ["tainted_stars"], what: "taintedstar:liejiyiren:<entry>" },
};

type GalleryListName = "public_figures" | "tainted_stars" | "politicians";

const UNSUPPORTED_BUSINESS: Record<string, string> = {
  BEAUTY: "no offline beauty model", RACE: "no offline race model (human's GEAR model is not shipped in the package)",
  FAKEFACE: "no forged-face model (human's antispoof model targets camera spoofing, not forgeries)",
  FACECOMPARE: "face embeddings exist (faces engine) but imgCompareBase is not fetched by the task layer yet",
  ...OBJECT_TYPE_GAPS,
};
const GROUP_GAPS: [readonly string[], string][] = [
  [["POSTURE", "DRESS", "TEMPERAMENT", "BODY", "DEFORMITY"], "no offline model for posture / attire / body attributes"],
  [["PICTUREFORM", "PICTURESTRUCT", "LOWVISION", "LOWCONTNET", "LIVEPICTURE", "SCREENSHOT"], "no offline picture-property classifier"],
  [["FITNESS", "CATE", "MUSIC", "SPORTS", "SCENERY", "CITYVIEW", "SETTING", "EXTREMEWEATHER", "DANCE"], "no offline scene classifier (COCO objects are not scenes; food objects are reported under FOOD)"],
];
for (const [types, note] of GROUP_GAPS) for (const t of types) UNSUPPORTED_BUSINESS[t] = note;

export interface DetectState {
  /** engines loaded in the workers */
  engines: ReadonlySet<EngineName>;
  /** entries per gallery list; undefined when no gallery folder is configured */
  gallery?: Readonly<Record<string, number>>;
  /** entries in the hash bank; undefined when no bank folder is configured */
  bankSize?: number;
  /** what reads image text (default paddle) */
  ocrReader?: OcrReaderName;
}

export interface FramePlan {
  applied: string[];
  notApplied: string[];
  engines: Set<EngineName>;
}

const galleryCount = (st: DetectState, lists: readonly string[]): number => lists.reduce((n, l) => n + (st.gallery?.[l] ?? 0), 0);

/** Which engines a frame needs and which of its types are really checked, given what is loaded and stored. */
export function planFrame(imgTypes: readonly string[], businessTypes: readonly string[], st: DetectState): FramePlan {
  const plan: FramePlan = { applied: [], notApplied: [], engines: new Set() };
  const decide = (type: string, engine: EngineName | undefined, ok = true) => {
    if (engine && ok && st.engines.has(engine)) {
      plan.applied.push(type);
      plan.engines.add(engine);
    } else {
      plan.notApplied.push(type);
    }
  };
  for (const t of new Set(imgTypes)) {
    if (t === "POLITY") decide(t, "faces", galleryCount(st, ["politicians"]) > 0);
    else if (t === "VIOLENT") decide(t, "hash", (st.bankSize ?? 0) > 0);
    else decide(t, engineForImgType(t));
  }
  // a bank hit counts under any requested imgType
  if (imgTypes.length > 0 && (st.bankSize ?? 0) > 0 && st.engines.has("hash")) plan.engines.add("hash");
  for (const t of new Set(businessTypes)) {
    if (FACE_TYPES[t]) decide(t, "faces");
    else if (GALLERY_TYPES[t]) decide(t, "faces", galleryCount(st, GALLERY_TYPES[t].lists) > 0);
    else decide(t, objectGroupForType(t) ? "objects" : undefined);
  }
  return plan;
}

function unsupported(group: Capability["group"], types: readonly string[], note: string): Capability[] {
  return types.map((type) => ({ group, type, supported: false, note }));
}

/** "12 politicians in the gallery", or without the figure for a stranger's view ("entries in the gallery"). */
const sized = (n: number, what: string, counts: boolean) => (counts ? `${n} ${what}` : n > 0 ? `${what}: some` : `${what}: none`);

function imgCapability(type: ImgType, st: DetectState, counts: boolean): Capability {
  const e = IMG_TYPE_REGISTRY[type];
  const loaded = (engine: EngineName) => st.engines.has(engine);
  if (type === "POLITY") {
    const n = galleryCount(st, ["politicians"]);
    const ok = n > 0 && loaded("faces");
    const where = st.gallery === undefined ? "no gallery folder configured" : sized(n, "politicians in the gallery", counts);
    return ok
      ? { group: "imgType", type, supported: true, engine: ENGINE_DESCRIPTIONS.faces, note: `supported while the politicians gallery is non-empty (${where}): face match (cosine ≥ ${POLICY.gallery.minSimilarity}) → REJECT politics:zhengzhirenwu:<entry>; political symbols and scenes are not detected` }
      : { group: "imgType", type, supported: false, note: `${e.note} (${where})` };
  }
  if (type === "VIOLENT") {
    const n = st.bankSize ?? 0;
    const where = st.bankSize === undefined ? "no hash bank folder configured" : sized(n, "images in the bank", counts);
    return n > 0 && loaded("hash")
      ? { group: "imgType", type, supported: true, engine: ENGINE_DESCRIPTIONS.hash, note: `supported via the prohibited-image hash bank while it is non-empty (${where}): Hamming ≤ ${POLICY.hash.maxDistance} → REJECT prohibited:jinjitupian:<list> with riskDetail.hashMatch; no violence classifier` }
      : { group: "imgType", type, supported: false, note: `${e.note} (${where})` };
  }
  return e.engine && loaded(e.engine)
    ? { group: "imgType", type, supported: true, engine: describeEngine(e.engine, st), note: e.note }
    : { group: "imgType", type, supported: false, note: e.engine ? `engine ${e.engine} not loaded in this pool` : e.note };
}

function businessCapability(type: string, st: DetectState, counts: boolean): Capability {
  const group = "imgBusinessType" as const;
  const faces = st.engines.has("faces");
  if (FACE_TYPES[type]) return faces ? { group, type, supported: true, engine: ENGINE_DESCRIPTIONS.faces, note: FACE_TYPES[type] } : { group, type, supported: false, note: "faces engine not loaded in this pool" };
  const g = GALLERY_TYPES[type];
  if (g) {
    const n = galleryCount(st, g.lists);
    const where = st.gallery === undefined ? "no gallery folder configured" : sized(n, `entries in ${g.lists.join(" + ")}`, counts);
    return n > 0 && faces
      ? { group, type, supported: true, engine: ENGINE_DESCRIPTIONS.faces, note: `gallery face match (cosine ≥ ${POLICY.gallery.minSimilarity}) → ${g.what} (${where})` }
      : { group, type, supported: false, note: `supported when the gallery lists ${g.lists.join(" / ")} are non-empty (${where})` };
  }
  const o = objectGroupForType(type);
  if (o) {
    const note = `COCO ${Object.keys(o.classes).join(", ")} (score ≥ ${POLICY.objects.minScore}) → ${o.label1}:${o.label2}:<class>`;
    return st.engines.has("objects") ? { group, type, supported: true, engine: ENGINE_DESCRIPTIONS.objects, note } : { group, type, supported: false, note: "objects engine not loaded in this pool" };
  }
  return { group, type, supported: false, note: UNSUPPORTED_BUSINESS[type] ?? (type.endsWith("LOGO") ? "no offline logo detector" : "no offline model for this type") };
}

/** Every type of every contract group, with the engine that serves it or why none does. */
export function capabilityTable(state: Partial<DetectState> = {}, view: CapabilityView = {}): Capability[] {
  const counts = view.counts !== false;
  const st: DetectState = { engines: state.engines ?? new Set(ALL_ENGINES), gallery: state.gallery, bankSize: state.bankSize, ocrReader: state.ocrReader };
  const audio = "audio detection is not implemented in the frame engine yet";
  return [
    ...IMG_TYPES.map((type) => imgCapability(type, st, counts)),
    ...IMG_BUSINESS_TYPES.map((type) => businessCapability(type, st, counts)),
    ...AUDIO_TYPES.map((type): Capability =>
      type === "NONE"
        ? { group: "audioType", type, supported: true, note: "switches audio detection off: nothing to run" }
        : { group: "audioType", type, supported: false, note: audio }),
    ...unsupported("audioBusinessType", AUDIO_BUSINESS_TYPES, audio),
    ...unsupported("audiostreamType", AUDIOSTREAM_TYPES, audio),
    ...unsupported("audiostreamBusinessType", AUDIOSTREAM_BUSINESS_TYPES, audio),
  ];
}
