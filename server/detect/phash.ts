// 64-bit DCT perceptual hash: the same bits as sharp-phash 2.2, computing only the 8×8 coefficients it keeps.
import sharp from "sharp";
import { PDQ_MAX_DIM, pdqOfPixels } from "./pdq";
import { POLICY } from "./policy";

const N = 32;
/** COS[k][n] = cos((2k+1)·n·π / 2N) for n = 1..8 (sharp-phash's table, the columns it uses) */
const COS: Float64Array[] = Array.from({ length: N }, (_, k) => {
  const row = new Float64Array(9);
  for (let n = 1; n <= 8; n++) row[n] = Math.cos(((2 * k + 1) / (2 * N)) * n * Math.PI);
  return row;
});

type Input = Uint8Array | string;

/** Hash of 32×32 greyscale pixels (row-major): 16 hex digits, bit order as sharp-phash's "0"/"1" string. */
export function phashOfGrey32(px: Uint8Array): string {
  // separable DCT-II: rows of T are the 8 kept horizontal frequencies, then the 8 vertical ones
  const T: Float64Array[] = [];
  for (let u = 1; u <= 8; u++) {
    const row = new Float64Array(N);
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let i = 0; i < N; i++) s += COS[i][u] * px[N * j + i];
      row[j] = s;
    }
    T.push(row);
  }
  const F = new Float64Array(64);
  let total = 0;
  for (let u = 0; u < 8; u++) {
    for (let v = 1; v <= 8; v++) {
      let s = 0;
      for (let j = 0; j < N; j++) s += COS[j][v] * T[u][j];
      F[u * 8 + v - 1] = s / 4;
      total += s / 4;
    }
  }
  const avg = total / 64;
  let hex = "";
  for (let nib = 0; nib < 16; nib++) {
    let d = 0;
    for (let b = 0; b < 4; b++) d = (d << 1) | (F[nib * 4 + b] > avg ? 1 : 0);
    hex += d.toString(16);
  }
  return hex;
}

type Region = { left: number; top: number; width: number; height: number };

/** 32×32 greyscale pixels of the image (or of a region of it), auto-oriented: what pHash is computed from. */
async function grey32(image: Input, region?: Region): Promise<Uint8Array> {
  const img = sharp(image).rotate();
  return (region ? img.extract(region) : img).greyscale().resize(N, N, { fit: "fill" }).raw().toBuffer();
}

/** pHash of a whole image (auto-oriented like sharp-phash). */
export async function phash(image: Input): Promise<string> {
  return phashOfGrey32(await grey32(image));
}

/** The pixels mirrored left to right (w×h, row-major). */
export function mirrorGrey(px: Uint8Array, w: number = N, h: number = N): Uint8Array {
  const out = new Uint8Array(px.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = px[y * w + w - 1 - x];
  return out;
}

/** 64-bit difference hash of 9×8 greyscale pixels: bit = left pixel darker than its right neighbour, 16 hex digits. */
export function dhashOfGrey9x8(px: Uint8Array): string {
  let hex = "";
  for (let nib = 0; nib < 16; nib++) {
    let d = 0;
    for (let b = 0; b < 4; b++) {
      const i = nib * 4 + b;
      const y = i >> 3;
      const x = i & 7;
      d = (d << 1) | (px[y * 9 + x] < px[y * 9 + x + 1] ? 1 : 0);
    }
    hex += d.toString(16);
  }
  return hex;
}

async function grey9x8(image: Input, region?: Region): Promise<Uint8Array> {
  const img = sharp(image).rotate();
  return (region ? img.extract(region) : img).greyscale().resize(9, 8, { fit: "fill" }).raw().toBuffer();
}

/** "0"/"1" string as sharp-phash returns it. */
export function hexToBits(hex: string): string {
  return [...hex].map((c) => parseInt(c, 16).toString(2).padStart(4, "0")).join("");
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Hamming distance of two 16-hex-digit hashes. */
export function hamming(a: string, b: string): number {
  return popcount32(parseInt(a.slice(0, 8), 16) ^ parseInt(b.slice(0, 8), 16)) + popcount32(parseInt(a.slice(8, 16), 16) ^ parseInt(b.slice(8, 16), 16));
}

const THUMB = 160;

/**
 * The content box inside uniform borders (letterbox / pillarbox), in image pixels; undefined when the image has no
 * such border worth cutting (each side under 1.5 %) or the box would be under a fifth of the image.
 */
export async function contentBox(image: Input, tolerance: number = POLICY.hash.borderTolerance): Promise<{ left: number; top: number; width: number; height: number } | undefined> {
  const { data, info } = await sharp(image).rotate().greyscale().resize(THUMB, THUMB, { fit: "inside" }).raw().toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const bg = data[0];
  const uniform = (x0: number, y0: number, dx: number, dy: number, n: number) => {
    for (let k = 0; k < n; k++) if (Math.abs(data[(y0 + k * dy) * w + x0 + k * dx] - bg) > tolerance) return false;
    return true;
  };
  let top = 0;
  while (top < h && uniform(0, top, 1, 0, w)) top++;
  let bottom = h;
  while (bottom > top && uniform(0, bottom - 1, 1, 0, w)) bottom--;
  let left = 0;
  while (left < w && uniform(left, top, 0, 1, bottom - top)) left++;
  let right = w;
  while (right > left && uniform(right - 1, top, 0, 1, bottom - top)) right--;
  const cut = Math.max(top / h, (h - bottom) / h, left / w, (w - right) / w);
  if (cut < 0.015 || (right - left) < w / 5 || (bottom - top) < h / 5) return undefined;
  // scale to image pixels, 1 thumbnail pixel inside so no border blend remains
  const meta = await sharp(image).rotate().metadata();
  const iw = (meta.autoOrient?.width ?? meta.width) || w;
  const ih = (meta.autoOrient?.height ?? meta.height) || h;
  const sx = iw / w;
  const sy = ih / h;
  const x1 = Math.min(iw - 1, Math.ceil((left + 1) * sx));
  const y1 = Math.min(ih - 1, Math.ceil((top + 1) * sy));
  const x2 = Math.max(x1 + 1, Math.floor((right - 1) * sx));
  const y2 = Math.max(y1 + 1, Math.floor((bottom - 1) * sy));
  return { left: x1, top: y1, width: x2 - x1, height: y2 - y1 };
}

/** Hashes of one picture: pHash and dHash of it and of its mirror image. */
export interface ContentHashes {
  phash: string;
  phashMirror: string;
  dhash: string;
  dhashMirror: string;
}

async function contentHashes(image: Input, region?: Region): Promise<ContentHashes> {
  const [p, d] = await Promise.all([grey32(image, region), grey9x8(image, region)]);
  return { phash: phashOfGrey32(p), phashMirror: phashOfGrey32(mirrorGrey(p)), dhash: dhashOfGrey9x8(d), dhashMirror: dhashOfGrey9x8(mirrorGrey(d, 9, 8)) };
}

/**
 * What a frame is matched with: `full` = its pHash (the bits sharp-phash gives), `trimmed` = the pHash of its content
 * inside uniform borders when it has such borders; `variants` = pHash and dHash (and their mirror images) of the whole
 * frame and of the trimmed content.
 */
export interface FrameHashes {
  full: string;
  trimmed?: string;
  variants?: { full: ContentHashes; trimmed?: ContentHashes };
}

/**
 * The frame's hashes. `variants: false` gives only the pHashes (what the bank stored before mirror / dHash matching),
 * for the eval's before/after.
 */
export async function frameHashes(image: Input, trimBorders: boolean = POLICY.hash.trimBorders, variants = true): Promise<FrameHashes> {
  const box = trimBorders ? await contentBox(image) : undefined;
  if (!variants) {
    const full = await phash(image);
    return box ? { full, trimmed: phashOfGrey32(await grey32(image, box)) } : { full };
  }
  const [whole, inner] = await Promise.all([contentHashes(image), box ? contentHashes(image, box) : undefined]);
  return { full: whole.phash, ...(inner ? { trimmed: inner.phash } : {}), variants: { full: whole, ...(inner ? { trimmed: inner } : {}) } };
}

/** PDQ (256 bits, pdq.ts) of the image or a region, and of its mirror image: shrunk to fit 512 px first, as the reference hashers do. */
export async function pdqOfImage(image: Input, region?: Region): Promise<{ pdq: string; pdqMirror: string; quality: number }> {
  const img = sharp(image).rotate();
  const { data, info } = await (region ? img.extract(region) : img)
    .resize(PDQ_MAX_DIM, PDQ_MAX_DIM, { fit: "inside", withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const r = pdqOfPixels(data, info.width, info.height, info.channels, ["flipY"]);
  return { pdq: r.hash, pdqMirror: r.variants.flipY, quality: r.quality };
}

/** Crops a banked image is also hashed at: 95 % and 90 % of each side, at the 9 anchor points (corners, edges, centre). */
export const CROP_SCALES = [0.95, 0.9] as const;

/** The CROP_SCALES crops of a width × height image, each at the 9 anchors. */
export function cropRegions(width: number, height: number): Region[] {
  const regions: Region[] = [];
  for (const s of CROP_SCALES) {
    const w = Math.max(1, Math.round(width * s));
    const h = Math.max(1, Math.round(height * s));
    for (const ay of [0, 0.5, 1]) for (const ax of [0, 0.5, 1]) regions.push({ left: Math.round((width - w) * ax), top: Math.round((height - h) * ay), width: w, height: h });
  }
  return regions;
}

/**
 * pHashes of crops of the whole image: a frame that shows a cropped part of a banked image (≤ 10 % of a side cut,
 * anywhere) lies close to one of them.
 */
export async function cropHashes(image: Input): Promise<string[]> {
  // decode once: the crops come from the raw pixels
  const { data, info } = await sharp(image).rotate().greyscale().raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  return Promise.all(cropRegions(info.width, info.height).map(async (r) => phashOfGrey32(await sharp(data, raw).extract(r).resize(N, N, { fit: "fill" }).extractChannel(0).raw().toBuffer())));
}
