// Detector benchmark (each engine on its own, after warm-up) plus the 1280×720 frame generators the detect tests share.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import QRCode from "qrcode";
import sharp from "sharp";
import { createDetectPool, fileHashBank, OBJECT_GROUPS, type DetectPool } from "../../server/detect/index";

export const FRAME_W = 1280;
export const FRAME_H = 720;
const FONT_FAMILY = "Noto Sans CJK SC, DejaVu Sans";

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JPEG of `content` as a QR code (300 px) pasted at (left, top) on a flat blue 1280×720 background. */
export async function qrFrame(content: string, left = 900, top = 300): Promise<Buffer> {
  const qr = await QRCode.toBuffer(content, { width: 300, margin: 2 });
  return sharp({ create: { width: FRAME_W, height: FRAME_H, channels: 3, background: "#3a6ea5" } })
    .composite([{ input: qr, left, top }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** JPEG of dark text lines (64 px, Noto Sans CJK / DejaVu) on a light 1280×720 background. */
export async function textFrame(lines: readonly string[]): Promise<Buffer> {
  const text = lines
    .map((l, i) => `<text x="80" y="${250 + i * 110}" font-family="${FONT_FAMILY}" font-size="64" fill="#111">${escapeXml(l)}</text>`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${FRAME_W}" height="${FRAME_H}"><rect width="100%" height="100%" fill="#f4f4f4"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** JPEG of a text-free test pattern: colour bars over a grey gradient with a few shapes. */
export async function patternFrame(): Promise<Buffer> {
  const colours = ["#c0c0c0", "#c0c000", "#00c0c0", "#00c000", "#c000c0", "#c00000", "#0000c0"];
  const bars = colours.map((c, i) => `<rect x="${(i * FRAME_W) / 7}" y="0" width="${FRAME_W / 7 + 1}" height="420" fill="${c}"/>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${FRAME_W}" height="${FRAME_H}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#fff"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${bars}
    <circle cx="320" cy="560" r="110" fill="#ff8800"/><rect x="760" y="470" width="260" height="180" fill="#2255aa"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** One frame of ffmpeg's testsrc2 (the pattern the stream tests push) as JPEG; ffmpeg from PATH. */
export async function testsrc2Frame(): Promise<Buffer> {
  const { stdout } = await promisify(execFile)(
    "ffmpeg",
    ["-v", "error", "-f", "lavfi", "-i", `testsrc2=size=${FRAME_W}x${FRAME_H}:rate=1`, "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3", "-f", "image2pipe", "pipe:1"],
    { encoding: "buffer", maxBuffer: 16 << 20 },
  );
  return stdout;
}

/** Real photos shipped inside @vladmandic/human (faces of its author and others, a dinner scene). */
export const HUMAN_ASSETS = path.join(path.dirname(fileURLToPath(import.meta.resolve("@vladmandic/human"))), "..", "assets");

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** An asset photo (or a region of it) fitted into a 1280×720 JPEG on a dark grey background, as a stream frame. */
export async function assetFrame(file: string, region?: Region, quality = 85): Promise<Buffer> {
  let img = sharp(path.join(HUMAN_ASSETS, file));
  if (region) img = img.extract(region);
  return img.resize(FRAME_W, FRAME_H, { fit: "contain", background: "#202020" }).flatten({ background: "#202020" }).jpeg({ quality }).toBuffer();
}

/** A region of an asset photo scaled to `height` px and centred on a dark 1280×720 frame. */
export async function placedFrame(file: string, region: Region, height: number, quality = 85): Promise<Buffer> {
  const part = await sharp(path.join(HUMAN_ASSETS, file)).extract(region).resize({ height }).png().toBuffer();
  const { width = 0 } = await sharp(part).metadata();
  return sharp({ create: { width: FRAME_W, height: FRAME_H, channels: 3, background: "#202020" } })
    .composite([{ input: part, left: Math.round((FRAME_W - width) / 2), top: Math.round((FRAME_H - height) / 2) }])
    .jpeg({ quality })
    .toBuffer();
}

/** The author's webcam portrait: one frontal face. */
export const faceFrame = (): Promise<Buffer> => assetFrame("screenshot-faceid.jpg");
/** Five face close-ups in a row (one of them the same man, another photo) over a strip of group photos. */
export const groupFrame = (): Promise<Buffer> => assetFrame("screenshot-facedetect.jpg");
/** A dinner scene: a man at a table with a cup (COCO person, cup). */
export const dinnerFrame = (): Promise<Buffer> => assetFrame("samples.jpg", { left: 325, top: 0, width: 215, height: 160 });

export const AD_TEXT_EN = ["Add WeChat: maifen888", "for cheap followers"];
export const AD_TEXT_ZH = ["加微信 maifen888 低价刷粉"];

interface Case {
  imgTypes: string[];
  imgBusinessTypes?: string[];
  frames: Buffer[];
}

const WARMUP = 2;
const FRAMES = 6;

async function measure(pool: DetectPool, c: Case): Promise<{ framesPerSec: number; msPerFrame: number }> {
  const run = async (i: number) => {
    // a fresh copy each time: detectFrame transfers (detaches) the bytes it is given
    await pool.detectFrame({ jpeg: new Uint8Array(c.frames[i % c.frames.length]), imgTypes: c.imgTypes, imgBusinessTypes: c.imgBusinessTypes ?? [] });
  };
  for (let i = 0; i < WARMUP; i++) await run(i);
  const t = performance.now();
  for (let i = 0; i < FRAMES; i++) await run(i);
  const msPerFrame = (performance.now() - t) / FRAMES;
  return { msPerFrame: Math.round(msPerFrame * 10) / 10, framesPerSec: Math.round((1000 / msPerFrame) * 100) / 100 };
}

/**
 * Round-trip time per 1280×720 frame through a one-worker pool with only one detector requested
 * (so it includes JPEG validation and the thread hop), plus all detectors together on a mix of
 * QR, text and pattern frames. Frames are processed one after another (latency, not saturation).
 * faces: FACEDETECTION + AGE + GENDER on a 1-face and a 5-face frame; objects: every COCO-mapped type;
 * hash: VIOLENT against a 3-entry bank (frames do not match, so every entry is compared).
 */
export async function benchDetectors(): Promise<Record<string, { framesPerSec: number; msPerFrame: number }>> {
  const [qr, en, zh, pattern] = await Promise.all([qrFrame("https://spam.example/buy"), textFrame(AD_TEXT_EN), textFrame(AD_TEXT_ZH), patternFrame()]);
  const [face, group, dinner] = await Promise.all([faceFrame(), groupFrame(), dinnerFrame()]);
  const mixed = [qr, en, zh, pattern];
  const work = await mkdtemp(path.join(os.tmpdir(), "moderation-detect-bench-"));
  const bank = fileHashBank(path.join(work, "bank"));
  for (const f of ["screenshot-vrm.jpg", "screenshot-faceid.jpg", "samples.jpg"]) await bank.add("bench", f, path.join(HUMAN_ASSETS, f));
  const pool = createDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-detect-bench"), workers: 1, hashBankDir: path.join(work, "bank") });
  const tesseract = createDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-detect-bench"), workers: 1, engines: ["ocr"], ocrReader: "tesseract" });
  try {
    await Promise.all([pool.ready(), tesseract.ready()]);
    return {
      faces: await measure(pool, { imgTypes: [], imgBusinessTypes: ["FACEDETECTION", "AGE", "GENDER"], frames: [face, group] }),
      objects: await measure(pool, { imgTypes: [], imgBusinessTypes: OBJECT_GROUPS.map((g) => g.type), frames: [dinner, group, pattern] }),
      hash: await measure(pool, { imgTypes: ["VIOLENT"], frames: [...mixed, dinner] }),
      qrcode: await measure(pool, { imgTypes: ["QRCODE"], frames: mixed }),
      nsfw: await measure(pool, { imgTypes: ["EROTIC"], frames: mixed }),
      // OCR cost depends on how much text there is: measured on the two text frames, the expensive case, and on the
      // text-free pattern (PaddleOCR's detector looks at every frame; Tesseract only where its line scan finds text)
      ocr: await measure(pool, { imgTypes: ["ADVERT", "IMGTEXTRISK"], frames: [en, zh] }),
      ocrNoText: await measure(pool, { imgTypes: ["ADVERT", "IMGTEXTRISK"], frames: [pattern] }),
      // the other reader (OCR_READER=tesseract), same frames: the eval compares their recall
      ocrTesseract: await measure(tesseract, { imgTypes: ["ADVERT", "IMGTEXTRISK"], frames: [en, zh] }),
      ocrTesseractNoText: await measure(tesseract, { imgTypes: ["ADVERT", "IMGTEXTRISK"], frames: [pattern] }),
      all: await measure(pool, { imgTypes: ["QRCODE", "EROTIC", "ADVERT", "IMGTEXTRISK"], frames: mixed }),
    };
  } finally {
    await pool.close();
    await tesseract.close();
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  console.log(JSON.stringify(await benchDetectors(), null, 2));
}
