// QRCODE: zxing-cpp (zxing-wasm reader build), wasm bytes read from node_modules: no network.
//
// readQrCodes() runs up to four kinds of pass (measured in tests/eval/qr.ts, see docs/detection.md):
//  1. zxing on the JPEG itself (tryHarder, tryRotate, tryInvert, returnErrors): every code it decodes is kept, and
//     every symbol it found but could not decode (a checksum error: too small, blurred, tilted) is a candidate;
//  2. each candidate region cut out, upscaled ×3 and sharpened with sharp, decoded again (only when there are candidates);
//  3. when nothing at all was decoded, and only behind a gate (issue #28: pass 1 located a symbol it could not decode, or
//     the finder scan below sees a finder-like pattern in the frame; else, as on most frames without a code, passes 3–4
//     are skipped): the frame binarised in JS with a small local-mean window (three sizes) and decoded
//     with zxing's fixed threshold. zxing's own binariser averages over ~40 px: a code whose quiet zone is darker than
//     what surrounds it (a low-contrast code on a bright page) turns into one dark block for it. Symbols these passes
//     locate without decoding are candidates too;
//  4. regions still undecoded: when nothing was decoded, the finder triples that server/detect/qr/finders.ts locates in
//     pass 3's smallest-window binarisation (zxing keeps few finder triples per frame and, in clutter, loses a small,
//     turned or faint code's to the clutter's), then every candidate zxing located; each region's luminance cut out,
//     enlarged bilinearly to ~6 px per module, binarised with a local mean over 1.5 modules and decoded (read again
//     as it is only when zxing located a symbol in it). At most 4 regions; a frame without finder triples or
//     candidates (most frames without a code) pays only for the scan (~1 ms; ~15 in fine texture such as noise).
// A second decoder (jsQR 1.4) was measured and left out: lower recall on every condition, slower, and it returned
// empty "codes" for two multi-code frames.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import sharp from "sharp";
import { prepareZXingModule, readBarcodes, type ReaderOptions, type ReadResult } from "zxing-wasm/reader";
import { POLICY } from "../policy";
import type { DetectedObject } from "../types";
import { findFinders, finderRegions, type Finder, type SymbolRegion } from "../qr/finders";
import { channel, localMeanThreshold, lumaCrop, pgm, upscaleBilinear } from "../qr/threshold";
import { fullSizeRgb, type Engine, type EngineOutput, type Frame, type FrameRequest, type FullRgb } from "./engine";

export { localMeanThreshold };

const require = createRequire(import.meta.url);

/**
 * "single": the one zxing pass shipped before issue #15 (kept for the eval's before/after); "full": every pass above,
 * passes 3–4 only behind the gate (see GATE_MIN_HITS); "ungated": every pass above on every code-less frame (the
 * behaviour before issue #28's gate, kept for the eval's before/after).
 */
export type QrStrategy = "single" | "full" | "ungated";

export interface QrCode {
  text: string;
  /** [x1, y1, x2, y2] in frame pixels */
  location: [number, number, number, number];
  /** which pass decoded it: "zxing", "zxing-crop-x3", "zxing-local-threshold-r<radius>", "zxing-region-x<scale>[-threshold]" */
  pass: string;
}

export interface QrRead {
  codes: QrCode[];
  /** passes run, in order */
  passes: string[];
  /** true when nothing was decoded and the fallback passes 3–4 were skipped: no finder-like pattern, no located symbol */
  gated?: boolean;
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
/** pass 4: at most this many regions, each scaled to about this many px per module, and no side over REGION_MAX_PX */
const MAX_REGIONS = 4;
const REGION_MODULE_PX = 6;
const REGION_MAX_PX = 1000;
/**
 * Gate of passes 3–4 (issue #28): they run only when pass 1 located a symbol it could not decode, or the finder scan
 * (~1 ms) of the 3 px binarisation (pass 4 uses it anyway), else of the 4 px one, holds a pattern confirmed on at
 * least this many rows. A code-less frame without either costs pass 1, one luminance decode, two binarisations and
 * two scans instead of three more zxing passes.
 */
const GATE_MIN_HITS = 2;

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


type Box = [number, number, number, number];

/** The region cut out around a located symbol: its box grown by 0.6 × its side each way, clipped to the frame. */
function regionAround([x1, y1, x2, y2]: Box, W: number, H: number): Box {
  const s = Math.max(x2 - x1, y2 - y1, 16);
  return [Math.max(0, Math.floor(x1 - 0.6 * s)), Math.max(0, Math.floor(y1 - 0.6 * s)), Math.min(W, Math.ceil(x2 + 0.6 * s)), Math.min(H, Math.ceil(y2 + 0.6 * s))];
}
const within = (a: Box, b: Box, slack = 4) => a[0] >= b[0] - slack && a[1] >= b[1] - slack && a[2] <= b[2] + slack && a[3] <= b[3] + slack;

/**
 * Every QR / Micro QR code in a frame (JPEG or any image sharp reads); a symbol read by two passes is reported once.
 * The fallback passes take the frame's pixels from `shared` when given (the same decode as sharp's here), else decode.
 */
export async function readQrCodes(image: Uint8Array, strategy: QrStrategy = "full", shared?: () => Promise<FullRgb | undefined>): Promise<QrRead> {
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
  const first = await readBarcodes(image, { ...BASE, returnErrors: strategy !== "single" });
  for (const r of first) add(r, "zxing");
  if (strategy === "single") return { codes, passes };

  const meta = await sharp(image).metadata();
  const W = meta.width ?? 0;
  const H = meta.height ?? 0;
  // the shared decode, fetched only when a fallback pass first needs pixels (fullSizeRgb: undefined unless it is exact)
  const pixels = async () => (shared ? await shared() : undefined);
  const covered = (reg: Box) => codes.some((c) => within(c.location, reg, 0));
  /** symbols located but not decoded by the passes so far, with the region cut around each for pass 2 */
  const candidates: Array<{ result: ReadResult; region: Box }> = [];
  const addCandidates = (rs: ReadResult[]) => {
    for (const r of rs) {
      if (r.isValid) continue;
      const symbol = box(r);
      const region = regionAround(symbol, W, H);
      // the same symbol is often reported twice (QR and Micro QR, or two finder triples): one region covers both
      if (candidates.some((c) => within(region, c.region)) || region[2] - region[0] < 8 || region[3] - region[1] < 8) continue;
      candidates.push({ result: r, region });
    }
  };
  addCandidates(first);
  // 2. symbols zxing located but could not decode: their region, upscaled and sharpened
  let cropped = 0;
  for (const { region } of candidates) {
    const [left, top, right, bottom] = region;
    if (covered(region)) continue;
    if (++cropped > MAX_CANDIDATES) break;
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

  let finders: Finder[] = [];
  if (codes.length === 0) {
    // 3. nothing decoded: small-window binarisations of the whole frame
    // the green channel stands in for luminance (its largest term): a third of the CPU of libvips' greyscale conversion
    const px = await pixels();
    const { data: grey, info } = px ? { data: channel(px.data, 3, 1), info: { width: px.width, height: px.height } } : await sharp(image).extractChannel((meta.channels ?? 3) >= 3 ? 1 : 0).raw().toBuffer({ resolveWithObject: true });
    const bins = new Map<number, Uint8Array>();
    const binarised = (r: number) => bins.get(r) ?? bins.set(r, localMeanThreshold(grey, info.width, info.height, r, 2)).get(r)!;
    finders = findFinders(binarised(LOCAL_RADII[0]), W, H);
    // the gate: a located symbol, or a finder-like pattern in the 3 px binarisation or else the 4 px one (a faint
    // 3 px/module code's finders come out hollow in the first) → passes 3–4; neither → nothing for them to find
    const finderLike = (fs: readonly Finder[]) => fs.some((f) => f.hits >= GATE_MIN_HITS);
    if (strategy === "full" && candidates.length === 0 && !finderLike(finders) && !finderLike(findFinders(binarised(LOCAL_RADII[1]), W, H))) return { codes, passes, gated: true };
    for (const r of LOCAL_RADII) {
      const pass = `zxing-local-threshold-r${r}`;
      passes.push(pass);
      const bin = binarised(r);
      // already binary: zxing's fixed threshold, no rotation (nothing for QR), downscaling or inversion (inverted
      // codes are read by the first pass; this one is for dark-on-light codes its binariser lost); the symbols it
      // locates but cannot decode are candidates for pass 4
      const found = await readBarcodes(pgm(bin, info.width, info.height), { ...BASE, returnErrors: true, binarizer: "FixedThreshold", tryRotate: false, tryDownscale: false, tryInvert: false });
      for (const res of found) add(res, pass);
      if (codes.length > 0) break;
      addCandidates(found);
    }
  }

  // 4. regions still undecoded: finder triples in pass 3's r3 binarisation (only when nothing was decoded), then the
  //    symbols zxing located in any pass; luminance (decoded once, only when there is a region) cut out and enlarged
  const regions: SymbolRegion[] = [];
  if (codes.length === 0) regions.push(...finderRegions(finders, W, H, MAX_REGIONS));
  for (const c of candidates) {
    const reg = candidateRegion(c.result, W, H);
    if (reg && !regions.some((r) => within(reg.box, r.box))) regions.push(reg);
  }
  // decoded once, only when there is a region to cut out
  let rgbOnce: Promise<{ data: Uint8Array; width: number; channels: number }> | undefined;
  const decodeRgb = async () => {
    const px = await pixels();
    return px ? { data: px.data, width: px.width, channels: 3 } : await sharp(image).raw().toBuffer({ resolveWithObject: true }).then(({ data, info }) => ({ data, width: info.width, channels: info.channels }));
  };
  let tried = 0;
  for (const { box: region, module } of regions) {
    if (tried >= MAX_REGIONS) break;
    if (covered(region)) continue;
    tried++;
    const rgb = await (rgbOnce ??= decodeRgb());
    const [left, top, right, bottom] = region;
    const w = right - left;
    const h = bottom - top;
    const scale = Math.max(1, Math.min(4, Math.round(REGION_MODULE_PX / module), Math.floor(REGION_MAX_PX / Math.max(w, h))));
    const cw = w * scale;
    const ch = h * scale;
    const crop = upscaleBilinear(lumaCrop(rgb.data, rgb.width, rgb.channels, region), w, h, scale);
    const n0 = codes.length;
    const pass = `zxing-region-x${scale}`;
    passes.push(`${pass}-threshold`);
    const bin = localMeanThreshold(crop, cw, ch, Math.max(2, Math.round(1.5 * module * scale)), 1);
    // dark-on-light after the threshold (the locator finds dark finders only): no inversion
    const seen = await readBarcodes(pgm(bin, cw, ch), { ...BASE, returnErrors: true, binarizer: "FixedThreshold", tryRotate: false, tryDownscale: false, tryInvert: false });
    for (const r of seen) add(r, `${pass}-threshold`, scale, left, top);
    // read as it is only when zxing located a symbol in the binarised cut-out (most locator regions in texture: none)
    if (codes.length > n0 || seen.length === 0) continue;
    passes.push(pass);
    for (const r of await readBarcodes(pgm(crop, cw, ch), { ...BASE, tryRotate: false, tryDownscale: false })) add(r, pass, scale, left, top);
  }
  return { codes, passes };
}

/**
 * The region to cut around a symbol zxing located but could not decode, and its module size (shortest side over the
 * symbol's modules). A Micro QR or rMQR reading is often one finder of a larger QR code: grown by 30 modules. A QR
 * reading whose sides disagree (a finder triple with a stray third pattern) is left to the finder locator.
 */
function candidateRegion(r: ReadResult, W: number, H: number): SymbolRegion | undefined {
  const p = r.position;
  const pts = [p.topLeft, p.topRight, p.bottomRight, p.bottomLeft];
  const sides = pts.map((a, i) => Math.hypot(a.x - pts[(i + 1) % 4].x, a.y - pts[(i + 1) % 4].y));
  const shortest = Math.min(...sides);
  const n = Math.max(r.symbol?.width ?? 0, r.symbol?.height ?? 0);
  const module = Math.max(1, n > 0 ? shortest / Math.min(r.symbol.width, r.symbol.height) : shortest / 25);
  const [x1, y1, x2, y2] = box(r);
  const s = Math.max(x2 - x1, y2 - y1, 16);
  const single = r.format === "MicroQRCode" || r.format === "RMQRCode";
  if (!single && Math.max(...sides) > 1.6 * shortest) return undefined;
  const grow = single ? Math.max(0.6 * s, 30 * module) : Math.max(0.6 * s, 8 * module);
  return {
    box: [Math.max(0, Math.floor(x1 - grow)), Math.max(0, Math.floor(y1 - grow)), Math.min(W, Math.ceil(x2 + grow)), Math.min(H, Math.ceil(y2 + grow))],
    module,
  };
}

export class QrCodeEngine implements Engine {
  readonly name = "qrcode";
  readonly imgTypes = ["QRCODE"] as const;

  constructor(private readonly strategy: QrStrategy = "full") {}

  async init(): Promise<void> {
    await initQr();
  }

  async run(frame: Frame, _requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    const { codes } = await readQrCodes(frame.jpeg, this.strategy, () => fullSizeRgb(frame));
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
