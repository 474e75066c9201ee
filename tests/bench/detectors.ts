// Detector benchmark (each engine on its own, after warm-up) plus the 1280×720 frame generators the detect tests share.
import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import QRCode from "qrcode";
import sharp from "sharp";
import { createDetectPool, type DetectPool } from "../../server/detect/index";

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

export const AD_TEXT_EN = ["Add WeChat: maifen888", "for cheap followers"];
export const AD_TEXT_ZH = ["加微信 maifen888 低价刷粉"];

interface Case {
  imgTypes: string[];
  frames: Buffer[];
}

const WARMUP = 2;
const FRAMES = 6;

async function measure(pool: DetectPool, c: Case): Promise<{ framesPerSec: number; msPerFrame: number }> {
  const run = async (i: number) => {
    // a fresh copy each time: detectFrame transfers (detaches) the bytes it is given
    await pool.detectFrame({ jpeg: new Uint8Array(c.frames[i % c.frames.length]), imgTypes: c.imgTypes, imgBusinessTypes: [] });
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
 */
export async function benchDetectors(): Promise<Record<string, { framesPerSec: number; msPerFrame: number }>> {
  const [qr, en, zh, pattern] = await Promise.all([qrFrame("https://spam.example/buy"), textFrame(AD_TEXT_EN), textFrame(AD_TEXT_ZH), patternFrame()]);
  const mixed = [qr, en, zh, pattern];
  const pool = createDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-detect-bench"), workers: 1 });
  try {
    await pool.ready();
    return {
      qrcode: await measure(pool, { imgTypes: ["QRCODE"], frames: mixed }),
      nsfw: await measure(pool, { imgTypes: ["EROTIC"], frames: mixed }),
      // OCR cost depends on how much text there is: measured on the two text frames, the expensive case
      ocr: await measure(pool, { imgTypes: ["ADVERT", "IMGTEXTRISK"], frames: [en, zh] }),
      all: await measure(pool, { imgTypes: ["QRCODE", "EROTIC", "ADVERT", "IMGTEXTRISK"], frames: mixed }),
    };
  } finally {
    await pool.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  console.log(JSON.stringify(await benchDetectors(), null, 2));
}
