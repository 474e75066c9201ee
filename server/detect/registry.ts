// Detector registry keyed by the contract's types: which engine answers which type (static; no model imports here).
import {
  AUDIO_BUSINESS_TYPES, AUDIO_TYPES, AUDIOSTREAM_BUSINESS_TYPES, AUDIOSTREAM_TYPES, IMG_BUSINESS_TYPES, IMG_TYPES,
  type ImgType,
} from "../../lib/contract/taxonomy";
import type { Capability } from "./types";

export type EngineName = "qrcode" | "ocr" | "nsfw";

export const ENGINE_DESCRIPTIONS: Record<EngineName, string> = {
  qrcode: "zxing-cpp via zxing-wasm 3.1 (QR Code, Micro QR)",
  ocr: "tesseract.js 7 OCR (eng + chi_sim 4.0.0_best_int) + keyword lists",
  nsfw: "nsfwjs 4.4 MobileNetV2 (tfjs wasm)",
};

type Entry = { engine: EngineName; note?: string } | { engine?: undefined; note: string };

export const IMG_TYPE_REGISTRY: Record<ImgType, Entry> = {
  QRCODE: { engine: "qrcode", note: "decoded QR → REVIEW ad:erweima, with qrContent" },
  ADVERT: { engine: "ocr", note: "lists ad_contact (URLs, phones, contact handles) and ad_words" },
  IMGTEXTRISK: { engine: "ocr", note: "lists prohibited_gambling, prohibited_drugs, prohibited_weapons, violence_terror" },
  EROTIC: { engine: "nsfw", note: "porn / hentai → REJECT porn, suspected → REVIEW, sexy → REVIEW" },
  POLITY: { note: "no offline model available yet (political symbols and figures need a dedicated model)" },
  VIOLENT: { note: "no offline model available yet (weapons / gore / terror-scene classifier)" },
};

/** The engine for an imgType, or undefined when the type is unknown or has no real detector. */
export function engineForImgType(type: string): EngineName | undefined {
  return Object.prototype.hasOwnProperty.call(IMG_TYPE_REGISTRY, type) ? IMG_TYPE_REGISTRY[type as ImgType].engine : undefined;
}

function unsupported(group: Capability["group"], types: readonly string[], note: string): Capability[] {
  return types.map((type) => ({ group, type, supported: false, note }));
}

/** Every type of every contract group, with the engine that serves it or why none does. */
export function capabilityTable(): Capability[] {
  const img: Capability[] = IMG_TYPES.map((type) => {
    const e = IMG_TYPE_REGISTRY[type];
    return e.engine
      ? { group: "imgType", type, supported: true, engine: ENGINE_DESCRIPTIONS[e.engine], note: e.note }
      : { group: "imgType", type, supported: false, note: e.note };
  });
  const audio = "audio detection is not implemented in the frame engine yet";
  return [
    ...img,
    ...unsupported("imgBusinessType", IMG_BUSINESS_TYPES, "no business (attribute/object) detector yet"),
    ...AUDIO_TYPES.map((type): Capability =>
      type === "NONE"
        ? { group: "audioType", type, supported: true, note: "switches audio detection off: nothing to run" }
        : { group: "audioType", type, supported: false, note: audio }),
    ...unsupported("audioBusinessType", AUDIO_BUSINESS_TYPES, audio),
    ...unsupported("audiostreamType", AUDIOSTREAM_TYPES, audio),
    ...unsupported("audiostreamBusinessType", AUDIOSTREAM_BUSINESS_TYPES, audio),
  ];
}
