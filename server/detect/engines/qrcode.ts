// QRCODE: zxing-cpp (zxing-wasm reader build), wasm bytes read from node_modules: no network.
//
// readQrCodes() runs up to three kinds of pass (measured in tests/eval/qr.ts, see the README's Capabilities):
//  1. zxing on the JPEG itself (tryHarder, tryRotate, tryInvert, returnErrors): every code it decodes is kept, and
//     every symbol it found but could not decode (a checksum error: too small, blurred, tilted) is a candidate;
//  2. each candidate region cut out, upscaled ×3 and sharpened with sharp, decoded again (only when there are candidates);
//  3. when nothing at all was decoded: the frame binarised in JS with a small local-mean window (three sizes) and decoded
//     with zxing's fixed threshold. zxing's own binariser averages over ~40 px: a code whose quiet zone is darker than
//     what surrounds it (a low-contrast code on a bright page) turns into one dark block for it.
// A second decoder (jsQR 1.4) was measured and left out: lower recall on every condition, slower, and it returned
// empty "codes" for two multi-code frames.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import sharp from "sharp";
import { prepareZXingModule, readBarcodes, type ReaderOptions, type ReadResult } from "zxing-wasm/reader";
import { POLICY } from "../policy";
import type { DetectedObject } from "../types";
import type { Engine, EngineOutput, Frame, FrameRequest } from "./engine";

const require = createRequire(import.meta.url);

/** "single": the one zxing pass shipped before issue #15 (kept for the eval's before/after); "full": every pass above. */
export type QrStrategy = "single" | "full";

export interface QrCode {
  text: string;
  /** [x1, y1, x2, y2] in frame pixels */
  location: [number, number, number, number];
  /** which pass decoded it: "zxing", "zxing-crop-x3", "zxing-local-threshold-r<radius>" */
  pass: string;
}

export interface QrRead {
  codes: QrCode[];
  /** passes run, in order */
  passes: string[];
}

const BASE: ReaderOptions = {
  formats: [...POLICY.qrcode.formats],
  tryHarder: true,
  tryRotate: true,
  tryInvert: true,
  maxNumberOfSymbols: POLICY.qrcode.maxSymbols,
};
/** at most this many undecoded candidates get a crop pass */
const MAX_CANDIDATES = 4;
const CROP_SCALE = 3;
/** local-mean box radii (px) of the binarised fallback: about 1.5 × the module size, for 2, 3 and 4 px modules */
const LOCAL_RADII = [3, 4, 6] as const;

let ready: Promise<unknown> | undefined;
/** Instantiates the zxing wasm once per thread (from node_modules: no network). */
export function initQr(): Promise<unknown> {
  return (ready ??= (async () => {
    const wasm = await readFile(require.resolve("zxing-wasm/reader/zxing_reader.wasm"));
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer;
    // fireImmediately instantiates now, so the first frame does not pay for it
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })());
}

function box(r: ReadResult, scale = 1, dx = 0, dy = 0): [number, number, number, number] {
  const p = r.position;
  const xs = [p.topLeft.x, p.topRight.x, p.bottomLeft.x, p.bottomRight.x].map((x) => x / scale + dx);
  const ys = [p.topLeft.y, p.topRight.y, p.bottomLeft.y, p.bottomRight.y].map((y) => y / scale + dy);
  return [Math.round(Math.min(...xs)), Math.round(Math.min(...ys)), Math.round(Math.max(...xs)), Math.round(Math.max(...ys))];
}

/** Greyscale pixels as a binary PGM: zxing's stb_image reads it without any decoding cost. */
function pgm(data: Uint8Array, width: number, height: number): Uint8Array {
  const head = Buffer.from(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(head.length + data.length);
  out.set(head, 0);
  out.set(data, head.length);
  return out;
}

/** Summed-area table of a greyscale image: (width + 1) × (height + 1), row-major. */
export function integralImage(grey: Uint8Array, width: number, height: number): Uint32Array {
  const W1 = width + 1;
  const I = new Uint32Array(W1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    const o = (y + 1) * W1 + 1;
    const g = y * width;
    for (let x = 0; x < width; x++) {
      row += grey[g + x];
      I[o + x] = I[o - W1 + x] + row;
    }
  }
  return I;
}

/**
 * 0 where a pixel is darker than the mean of its (2r+1)² box (clipped at the edges) by more than `bias` grey levels,
 * else 255. `integral` (integralImage of the same pixels) is shared between radii.
 */
export function localMeanThreshold(grey: Uint8Array, width: number, height: number, r: number, bias = 2, integral = integralImage(grey, width, height)): Uint8Array {
  const W1 = width + 1;
  const I = integral;
  const x0 = new Int32Array(width);
  const x1 = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    x0[x] = Math.max(0, x - r);
    x1[x] = Math.min(width, x + r + 1);
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = Math.max(0, y - r);
    const bottom = Math.min(height, y + r + 1);
    const a = top * W1;
    const b = bottom * W1;
    const rows = bottom - top;
    const o = y * width;
    for (let x = 0; x < width; x++) {
      const l = x0[x];
      const rr = x1[x];
      const sum = I[b + rr] - I[a + rr] - I[b + l] + I[a + l];
      out[o + x] = (grey[o + x] + bias) * (rr - l) * rows < sum ? 0 : 255;
    }
  }
  return out;
}

/** Every QR / Micro QR code in a frame (JPEG or any image sharp reads); a symbol read by two passes is reported once. */
export async function readQrCodes(image: Uint8Array, strategy: QrStrategy = "full"): Promise<QrRead> {
  await initQr();
  const codes: QrCode[] = [];
  const passes: string[] = ["zxing"];
  const add = (r: ReadResult, pass: string, scale = 1, dx = 0, dy = 0) => {
    if (!r.isValid) return;
    const location = box(r, scale, dx, dy);
    // the same symbol found again (another pass, or QR and Micro QR readings of it); two equal codes side by side stay two
    const cx = (location[0] + location[2]) / 2;
    const cy = (location[1] + location[3]) / 2;
    if (codes.some((c) => c.text === r.text && cx >= c.location[0] - 4 && cx <= c.location[2] + 4 && cy >= c.location[1] - 4 && cy <= c.location[3] + 4)) return;
    codes.push({ text: r.text, location, pass });
  };
  // zxing decodes the JPEG itself (stb_image inside the wasm)
  const first = await readBarcodes(image, { ...BASE, returnErrors: strategy === "full" });
  for (const r of first) add(r, "zxing");
  if (strategy === "single") return { codes, passes };

  const meta = await sharp(image).metadata();
  const W = meta.width ?? 0;
  const H = meta.height ?? 0;
  // 2. symbols zxing located but could not decode: their region, upscaled and sharpened
  const candidates = first.filter((r) => !r.isValid).map((r) => box(r));
  const regions: Array<[number, number, number, number]> = [];
  for (const [x1, y1, x2, y2] of candidates) {
    const s = Math.max(x2 - x1, y2 - y1, 16);
    const left = Math.max(0, Math.floor(x1 - 0.6 * s));
    const top = Math.max(0, Math.floor(y1 - 0.6 * s));
    const right = Math.min(W, Math.ceil(x2 + 0.6 * s));
    const bottom = Math.min(H, Math.ceil(y2 + 0.6 * s));
    // the same symbol is often reported twice (QR and Micro QR, or two finder triples): one crop covers both
    const inside = regions.some(([l, t, r, b]) => left >= l - 4 && top >= t - 4 && right <= r + 4 && bottom <= b + 4);
    const covered = codes.some((c) => c.location[0] >= left && c.location[1] >= top && c.location[2] <= right && c.location[3] <= bottom);
    if (inside || covered || right - left < 8 || bottom - top < 8) continue;
    regions.push([left, top, right, bottom]);
    if (regions.length >= MAX_CANDIDATES) break;
  }
  for (const [left, top, right, bottom] of regions) {
    passes.push(`zxing-crop-x${CROP_SCALE}`);
    const { data, info } = await sharp(image)
      .extract({ left, top, width: right - left, height: bottom - top })
      .greyscale()
      .resize({ width: (right - left) * CROP_SCALE, kernel: "cubic" })
      .sharpen({ sigma: 0.7 * CROP_SCALE })
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (const r of await readBarcodes(pgm(data, info.width, info.height), { ...BASE, tryDownscale: false })) add(r, `zxing-crop-x${CROP_SCALE}`, CROP_SCALE, left, top);
  }
  if (codes.length > 0) return { codes, passes };

  // 3. nothing decoded: small-window binarisations of the whole frame
  // the green channel stands in for luminance (its largest term): a third of the CPU of libvips' greyscale conversion
  const { data: grey, info } = await sharp(image).extractChannel((meta.channels ?? 3) >= 3 ? 1 : 0).raw().toBuffer({ resolveWithObject: true });
  const integral = integralImage(grey, info.width, info.height);
  for (const r of LOCAL_RADII) {
    const pass = `zxing-local-threshold-r${r}`;
    passes.push(pass);
    const bin = localMeanThreshold(grey, info.width, info.height, r, 2, integral);
    // already binary: zxing's fixed threshold, no rotation (nothing for QR), downscaling or inversion (inverted
    // codes are read by the first pass; this one is for dark-on-light codes its binariser lost)
    for (const res of await readBarcodes(pgm(bin, info.width, info.height), { ...BASE, binarizer: "FixedThreshold", tryRotate: false, tryDownscale: false, tryInvert: false })) add(res, pass);
    if (codes.length > 0) break;
  }
  return { codes, passes };
}

export class QrCodeEngine implements Engine {
  readonly name = "qrcode";
  readonly imgTypes = ["QRCODE"] as const;

  constructor(private readonly strategy: QrStrategy = "full") {}

  async init(): Promise<void> {
    await initQr();
  }

  async run(frame: Frame, _requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    const { codes } = await readQrCodes(frame.jpeg, this.strategy);
    const objects: DetectedObject[] = codes.map((c, i) => ({
      id: String(i),
      name: "qrcode",
      location: c.location,
      // a valid decode passed the code's error correction: certain
      probability: 1,
      qrContent: c.text,
    }));
    // a decoded code scores 1; the run-time thresholds decide its level (or switch the label off)
    const level = objects.length > 0 ? req.thresholds.level("qrcode", 1, POLICY.qrcode.riskLevel) : null;
    if (!level) return { hits: [], objects };
    return {
      objects,
      hits: [{
        imgType: "QRCODE",
        riskLevel: level,
        labels: POLICY.qrcode.labels,
        probability: 1,
        riskSource: POLICY.qrcode.riskSource,
        objects,
      }],
    };
  }

  async close(): Promise<void> {}
}
