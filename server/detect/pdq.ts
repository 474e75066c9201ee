// PDQ, the 256-bit perceptual hash of Facebook's ThreatExchange ("pdqhash-2017-10-09.pdf"), written from the spec and
// following the C++ reference (pdq/cpp/hashing, pdq/cpp/downscaling) step for step. Every arithmetic step is rounded to
// float32 (Math.fround) as the reference's `float` code rounds it, so the bits come out the same, not just close.
const f = Math.fround;

/** Two passes of horizontal + vertical box filtering: a tent-like blur before decimation (the reference's count). */
const JAROSZ_PASSES = 2;
/** Smaller images get the all-zero hash and quality 0, as in the reference. */
const MIN_DIM = 5;
/** The reference hashers shrink larger images to fit inside this box first (for speed); pdqOfImage does the same. */
export const PDQ_MAX_DIM = 512;
/** The distance under which the spec counts two PDQ hashes as the same picture (of 256 bits). */
export const PDQ_MATCH_DISTANCE = 31;

const LUMA_R = f(0.299);
const LUMA_G = f(0.587);
const LUMA_B = f(0.114);

/** Rows 1..16 of the 64-point DCT-II matrix, float as the reference stores it: D[i·64 + j]. */
const DCT = (() => {
  const scale = f(Math.sqrt(2 / 64));
  const d = new Float32Array(16 * 64);
  for (let i = 0; i < 16; i++) for (let j = 0; j < 64; j++) d[i * 64 + j] = scale * Math.cos((Math.PI / 2 / 64) * (i + 1) * (2 * j + 1));
  return d;
})();

/** Luminance Y = 0.299 R + 0.587 G + 0.114 B of RGB(A) pixels; 1- or 2-channel pixels are grey already. */
export function pdqLuma(px: Uint8Array, width: number, height: number, channels: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let k = 0, p = 0; k < out.length; k++, p += channels) {
    out[k] = channels < 3 ? px[p] : f(f(f(LUMA_R * px[p]) + f(LUMA_G * px[p + 1])) + f(LUMA_B * px[p + 2]));
  }
  return out;
}

/** Box filter of one row or column (reference box1DFloat): windows shrink at both ends instead of padding. */
function box1D(src: Float32Array, dst: Float32Array, start: number, length: number, stride: number, window: number): void {
  const half = (window + 2) >> 1;
  let sum = 0;
  let size = 0;
  let ri = start;
  let li = start;
  let oi = start;
  for (let i = 0; i < half - 1; i++, ri += stride) {
    sum = f(sum + src[ri]);
    size++;
  }
  for (let i = 0; i < window - half + 1; i++, ri += stride, oi += stride) {
    sum = f(sum + src[ri]);
    size++;
    dst[oi] = sum / size;
  }
  for (let i = 0; i < length - window; i++, ri += stride, li += stride, oi += stride) {
    sum = f(f(sum + src[ri]) - src[li]);
    dst[oi] = sum / size;
  }
  for (let i = 0; i < half - 1; i++, li += stride, oi += stride) {
    sum = f(sum - src[li]);
    size--;
    dst[oi] = sum / size;
  }
}

/** Window per pass: half of one output cell, rounded up (reference computeJaroszFilterWindowSize). */
const jaroszWindow = (oldDim: number, newDim: number) => Math.floor((oldDim + 2 * newDim - 1) / (2 * newDim));

/** Blur (in place, in `a`) and take the 64×64 cell centres: the reference's downsample. */
function downsample64(a: Float32Array, width: number, height: number): Float32Array {
  if (width === 64 && height === 64) return a.slice();
  const b = new Float32Array(a.length);
  const wRows = jaroszWindow(width, 64);
  const wCols = jaroszWindow(height, 64);
  for (let pass = 0; pass < JAROSZ_PASSES; pass++) {
    for (let y = 0; y < height; y++) box1D(a, b, y * width, width, 1, wRows);
    for (let x = 0; x < width; x++) box1D(b, a, x, height, width, wCols);
  }
  const out = new Float32Array(64 * 64);
  for (let i = 0; i < 64; i++) {
    const y = Math.floor(((i + 0.5) * height) / 64);
    for (let j = 0; j < 64; j++) out[i * 64 + j] = a[y * width + Math.floor(((j + 0.5) * width) / 64)];
  }
  return out;
}

/** 0–100: the sum of significant neighbour differences of the 64×64 image (flat or tiny images score low). */
function quality(a: Float32Array): number {
  let sum = 0;
  const grad = (u: number, v: number) => Math.abs(Math.trunc(f(f(f(u - v) * 100) / 255)));
  for (let i = 0; i < 63; i++) for (let j = 0; j < 64; j++) sum += grad(a[i * 64 + j], a[(i + 1) * 64 + j]);
  for (let i = 0; i < 64; i++) for (let j = 0; j < 63; j++) sum += grad(a[i * 64 + j], a[i * 64 + j + 1]);
  return Math.min(100, Math.trunc(sum / 90));
}

/** B = D·A·Dᵀ: the 16×16 lowest non-DC DCT coefficients of the 64×64 image, summed in the reference's order. */
function dct64To16(a: Float32Array): Float32Array {
  const t = new Float32Array(16 * 64);
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 64; j++) {
      let s = 0;
      for (let k = 0; k < 64; k++) s = f(s + f(DCT[i * 64 + k] * a[k * 64 + j]));
      t[i * 64 + j] = s;
    }
  }
  const b = new Float32Array(256);
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 16; j++) {
      let s = 0;
      for (let k = 0; k < 64; k++) s = f(s + f(t[i * 64 + k] * DCT[j * 64 + k]));
      b[i * 16 + j] = s;
    }
  }
  return b;
}

/** Median by Torben Mogensen's method, in float as the reference runs it (the same value on ties). */
function torbenMedian(m: Float32Array): number {
  const n = m.length;
  let min = m[0];
  let max = m[0];
  for (const x of m) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const half = (n + 1) >> 1;
  for (;;) {
    const guess = f(f(min + max) / 2);
    let less = 0;
    let greater = 0;
    let equal = 0;
    let maxLt = min;
    let minGt = max;
    for (const x of m) {
      if (x < guess) {
        less++;
        if (x > maxLt) maxLt = x;
      } else if (x > guess) {
        greater++;
        if (x < minGt) minGt = x;
      } else equal++;
    }
    if (less <= half && greater <= half) return less >= half ? maxLt : less + equal >= half ? guess : minGt;
    if (less > greater) max = maxLt;
    else min = minGt;
  }
}

/**
 * Bit i·16 + j = coefficient (i, j) above the median; hex as the reference prints it: 16-bit words from the last
 * (row 15) to the first, each as 4 hex digits with bit j of the row as the word's bit j.
 */
function bitsToHex(b: Float32Array): string {
  const median = torbenMedian(b);
  let hex = "";
  for (let i = 15; i >= 0; i--) {
    let word = 0;
    for (let j = 0; j < 16; j++) if (b[i * 16 + j] > median) word |= 1 << j;
    hex += word.toString(16).padStart(4, "0");
  }
  return hex;
}

/**
 * The 8 dihedral images, as the reference derives them from the original's DCT: coefficient (i, j) of the original
 * goes to (j, i) when transposed, negated where the sign rule says. flipY = mirrored left to right; flipX = upside down.
 */
export const DIHEDRAL = {
  original: { transpose: false, negate: () => false },
  rotate90: { transpose: true, negate: (_i: number, j: number) => (j & 1) === 0 },
  rotate180: { transpose: false, negate: (i: number, j: number) => ((i + j) & 1) === 1 },
  rotate270: { transpose: true, negate: (i: number) => (i & 1) === 0 },
  flipX: { transpose: false, negate: (i: number) => (i & 1) === 0 },
  flipY: { transpose: false, negate: (_i: number, j: number) => (j & 1) === 0 },
  flipPlus1: { transpose: true, negate: () => false },
  flipMinus1: { transpose: true, negate: (i: number, j: number) => ((i + j) & 1) === 1 },
} as const;
export type Dihedral = keyof typeof DIHEDRAL;

function dihedralOf(b: Float32Array, d: Dihedral): Float32Array {
  const { transpose, negate } = DIHEDRAL[d];
  const out = new Float32Array(256);
  for (let i = 0; i < 16; i++) for (let j = 0; j < 16; j++) out[transpose ? j * 16 + i : i * 16 + j] = negate(i, j) ? -b[i * 16 + j] : b[i * 16 + j];
  return out;
}

export interface Pdq {
  /** 64 hex digits, the reference's text form */
  hash: string;
  /** 0–100; the spec suggests not trusting hashes under 50 (flat, tiny or blurred images) */
  quality: number;
}

/**
 * PDQ of raw pixels (row-major, 1–4 channels, alpha ignored) at their own size, plus the hashes of the asked
 * dihedral variants (computed from the same DCT, as cheap as a few hundred negations).
 */
export function pdqOfPixels<D extends Dihedral = never>(px: Uint8Array, width: number, height: number, channels: number, variants: readonly D[] = []): Pdq & { variants: Record<D, string> } {
  const none = "0".repeat(64);
  if (width < MIN_DIM || height < MIN_DIM) return { hash: none, quality: 0, variants: Object.fromEntries(variants.map((d) => [d, none])) as Record<D, string> };
  const a = downsample64(pdqLuma(px, width, height, channels), width, height);
  const b = dct64To16(a);
  return { hash: bitsToHex(b), quality: quality(a), variants: Object.fromEntries(variants.map((d) => [d, bitsToHex(dihedralOf(b, d))])) as Record<D, string> };
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Hamming distance of two PDQ hashes (64 hex digits each), 0–256. */
export function pdqHamming(a: string, b: string): number {
  let d = 0;
  for (let k = 0; k < 64; k += 8) d += popcount32(parseInt(a.slice(k, k + 8), 16) ^ parseInt(b.slice(k, k + 8), 16));
  return d;
}
