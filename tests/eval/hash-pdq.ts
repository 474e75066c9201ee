// PDQ (server/detect/pdq.ts) in the hash-bank eval: the banked images' and each frame's PDQ hashes, matched here the
// way hash-bank.ts matches pHash (whole, border-trimmed, mirrored, vs the entry's crops), on the 256-bit scale.
import sharp from "sharp";
import { PDQ_MATCH_DISTANCE, pdqHamming } from "../../server/detect/pdq";
import { contentBox, cropRegions, pdqOfImage } from "../../server/detect/phash";

export type PdqMethod = "pdq" | "pdq-mirror" | "pdq-trimmed" | "pdq-crop";

export interface PdqEntry {
  entry: string;
  full: string;
  trimmed?: string;
  crops: string[];
}

export interface PdqFrame {
  full: { pdq: string; pdqMirror: string };
  trimmed?: { pdq: string; pdqMirror: string };
}

/** A banked image's PDQ: whole, inside its uniform borders, and its 95 % / 90 % crops at 9 anchors. */
export async function pdqEntry(entry: string, image: Buffer): Promise<PdqEntry> {
  const meta = await sharp(image).rotate().metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  const box = await contentBox(image);
  const [full, inner, crops] = await Promise.all([
    pdqOfImage(image), box ? pdqOfImage(image, box) : undefined, Promise.all(cropRegions(width, height).map((r) => pdqOfImage(image, r))),
  ]);
  return { entry, full: full.pdq, ...(inner ? { trimmed: inner.pdq } : {}), crops: crops.map((c) => c.pdq) };
}

/** A frame's PDQ and its mirror image's (the dihedral flipY variant), whole and inside uniform borders. */
export async function pdqFrame(image: Buffer): Promise<PdqFrame> {
  const box = await contentBox(image);
  const [full, inner] = await Promise.all([pdqOfImage(image), box ? pdqOfImage(image, box) : undefined]);
  return { full, ...(inner ? { trimmed: inner } : {}) };
}

/** Nearest entry over the comparisons `methods` allows; distance of 256. */
export function nearestPdq(frame: PdqFrame, entries: readonly PdqEntry[], methods: ReadonlySet<PdqMethod>): { entry: string; distance: number; method: PdqMethod } | undefined {
  let best: { entry: string; distance: number; method: PdqMethod } | undefined;
  const consider = (entry: string, method: PdqMethod, a: string | undefined, b: string | undefined) => {
    if (!a || !b || !methods.has(method)) return;
    const distance = pdqHamming(a, b);
    if (!best || distance < best.distance) best = { entry, distance, method };
  };
  const frames = [frame.full, ...(methods.has("pdq-trimmed") && frame.trimmed ? [frame.trimmed] : [])];
  for (const e of entries) {
    const sides = [e.full, ...(methods.has("pdq-trimmed") && e.trimmed ? [e.trimmed] : [])];
    for (const f of frames) {
      for (const s of sides) {
        consider(e.entry, "pdq", f.pdq, s);
        consider(e.entry, "pdq-mirror", f.pdqMirror, s);
      }
      for (const c of e.crops) consider(e.entry, "pdq-crop", f.pdq, c);
    }
  }
  return best;
}

export const PDQ_SETS: Record<string, ReadonlySet<PdqMethod>> = {
  "PDQ": new Set(["pdq"]),
  "PDQ + mirror (dihedral)": new Set(["pdq", "pdq-mirror"]),
  "PDQ + mirror + trimmed": new Set(["pdq", "pdq-mirror", "pdq-trimmed"]),
  "PDQ + mirror + trimmed + crops": new Set(["pdq", "pdq-mirror", "pdq-trimmed", "pdq-crop"]),
};

export { PDQ_MATCH_DISTANCE };
