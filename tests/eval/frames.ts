// 1280×720 JPEG frames for the eval: backgrounds (plain, gradient, noise, testsrc2), rendered text, pasted QR codes.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import QRCode from "qrcode";
import sharp, { type OverlayOptions } from "sharp";
import { cachedBytes, prng } from "./media";

export const W = 1280;
export const H = 720;

export type Background = "light" | "dark" | "gradient" | "noise" | "testsrc2";
export const BACKGROUNDS: readonly Background[] = ["light", "dark", "gradient", "noise", "testsrc2"];

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const isCjk = (ch: string) => /[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch);
/** Rough rendered width in em: CJK glyphs ≈ 1 em, Latin ≈ 0.62 em (DejaVu is wide). */
const ems = (s: string) => [...s].reduce((sum, ch) => sum + (isCjk(ch) ? 1 : 0.62), 0);

async function testsrc2Png(): Promise<Buffer> {
  const file = await cachedBytes("bg-testsrc2", { W, H }, "png", async () => {
    const { stdout } = await promisify(execFile)(
      "ffmpeg",
      ["-v", "error", "-f", "lavfi", "-i", `testsrc2=size=${W}x${H}:rate=1`, "-frames:v", "1", "-c:v", "png", "-f", "image2pipe", "pipe:1"],
      { encoding: "buffer", maxBuffer: 32 << 20 },
    );
    return stdout;
  });
  return readFile(file);
}

/** The background as PNG bytes (noise is seeded, so the same seed gives the same picture). */
export async function background(kind: Background, seed = 1): Promise<Buffer> {
  if (kind === "testsrc2") return testsrc2Png();
  if (kind === "noise") {
    // gaussian RGB noise (mean 120, σ 55) from the seed, softened a little: busy like a photo, not a flat test card.
    // sharp's own noise is not seeded: the same spec gave another picture on every fresh render
    const rnd = prng(seed * 7919 + 17);
    const px = Buffer.alloc(W * H * 3);
    for (let i = 0; i < px.length; i += 2) {
      // Box-Muller: two normal deviates per pair of uniforms
      const r = Math.sqrt(-2 * Math.log(1 - rnd()));
      const a = 2 * Math.PI * rnd();
      px[i] = Math.max(0, Math.min(255, Math.round(120 + 55 * r * Math.cos(a))));
      if (i + 1 < px.length) px[i + 1] = Math.max(0, Math.min(255, Math.round(120 + 55 * r * Math.sin(a))));
    }
    return sharp(px, { raw: { width: W, height: H, channels: 3 } })
      .blur(1.2 + (seed % 3) * 0.4)
      .png()
      .toBuffer();
  }
  const fill = kind === "light" ? `<rect width="100%" height="100%" fill="#f3f1ea"/>`
    : kind === "dark" ? `<rect width="100%" height="100%" fill="#1d1f2b"/>`
      : `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#173a6e"/><stop offset="0.5" stop-color="#8a4f9e"/><stop offset="1" stop-color="#f0b44c"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`;
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${fill}</svg>`)).png().toBuffer();
}

/** solid = one contrasting colour (plain backgrounds); outline = white with a black outline; box = white on a dark translucent box */
export type TextStyle = "solid" | "outline" | "box";

export interface TextSpec {
  /** pieces that must stay on one line (a list entry is never split); the renderer wraps between them */
  chunks: readonly string[];
  font: string;
  sizePx: number;
  background: Background;
  style: TextStyle;
  seed: number;
}

/** Lines of chunks that fit 90 % of the width at `size`, and the size actually used (shrunk when one chunk is wider). */
export function layout(chunks: readonly string[], requested: number): { lines: string[]; size: number } {
  const max = W * 0.9;
  const widest = Math.max(...chunks.map(ems));
  const size = Math.min(requested, Math.floor(max / widest));
  const lines: string[] = [];
  for (const c of chunks) {
    const last = lines.length - 1;
    if (last >= 0 && ems(`${lines[last]} ${c}`) * size <= max) lines[last] = `${lines[last]} ${c}`;
    else lines.push(c);
  }
  return { lines, size };
}

/** Text frame as JPEG; returns the path of the cached file and the font size actually used. */
export async function textFrame(spec: TextSpec): Promise<{ file: string; sizePx: number }> {
  const { lines, size } = layout(spec.chunks, spec.sizePx);
  // noise: 2 = the seeded noise (renders before it were not reproducible)
  const file = await cachedBytes(`text-${spec.background}-${spec.style}-${size}`, { ...spec, size, ...(spec.background === "noise" ? { noise: 2 } : {}) }, "jpg", async () => {
    const rnd = prng(spec.seed);
    const lineH = Math.round(size * 1.35);
    const blockW = Math.max(...lines.map(ems)) * size;
    const x = Math.round(30 + size * 0.4 + rnd() * Math.max(0, W - 60 - size * 0.8 - blockW));
    const y0 = Math.round(20 + size + rnd() * Math.max(0, H - 40 - lineH * lines.length));
    const paint = spec.style === "outline"
      ? `fill="#ffffff" stroke="#000000" stroke-width="${Math.max(2, Math.round(size / 10))}" paint-order="stroke" stroke-linejoin="round"`
      : spec.style === "box" || spec.background === "dark" ? `fill="#f2f2f2"` : `fill="#15151a"`;
    const box = spec.style === "box"
      ? `<rect x="${x - size * 0.3}" y="${y0 - size * 1.05}" width="${blockW + size * 0.6}" height="${lineH * lines.length + size * 0.2}" fill="#000000" fill-opacity="0.65"/>`
      : "";
    const text = lines.map((l, i) => `<text x="${x}" y="${y0 + i * lineH}" font-family="${spec.font}" font-size="${size}" ${paint}>${escapeXml(l)}</text>`).join("");
    const overlay = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${box}${text}</svg>`);
    return sharp(await background(spec.background, spec.seed)).composite([{ input: overlay }]).jpeg({ quality: 85 }).toBuffer();
  });
  return { file, sizePx: size };
}

export interface QrSpec {
  payload: string;
  /** rendered QR width before rotation, quiet zone of 2 modules included */
  sizePx: number;
  rotation: number;
  background: Background;
  /** a caption next to the code, as on a poster */
  clutterText: boolean;
  seed: number;
}

/** QR code pasted (rotated) at a random spot; returns the cached JPEG path. */
export async function qrFrame(spec: QrSpec): Promise<string> {
  return cachedBytes(`qr-${spec.sizePx}-${spec.rotation}`, spec, "jpg", async () => {
    const rnd = prng(spec.seed);
    const png = await QRCode.toBuffer(spec.payload, { width: spec.sizePx, margin: 2, errorCorrectionLevel: "M" });
    // transparent corners: the tilted code sits on the background itself, as in a photo of a poster
    const rotated = spec.rotation % 360 === 0 ? png : await sharp(png).ensureAlpha().rotate(spec.rotation, { background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
    const meta = await sharp(rotated).metadata();
    const w = meta.width ?? spec.sizePx;
    const h = meta.height ?? spec.sizePx;
    const left = Math.round(rnd() * Math.max(0, W - w));
    const top = Math.round(rnd() * Math.max(0, H - h));
    const layers: OverlayOptions[] = [{ input: rotated, left, top }];
    if (spec.clutterText) {
      const tx = left > W / 2 ? 40 : Math.min(W - 500, left + w + 30);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><text x="${tx}" y="${Math.round(80 + rnd() * (H - 160))}" font-family="DejaVu Sans" font-size="40" fill="#ffffff" stroke="#000" stroke-width="3" paint-order="stroke">Scan me for the menu</text></svg>`;
      layers.unshift({ input: Buffer.from(svg) });
    }
    return sharp(await background(spec.background, spec.seed)).composite(layers).jpeg({ quality: 85 }).toBuffer();
  });
}

export type PatternKind = "bars" | "checkerboard" | "module-grid" | "fake-finders";

/** Frames with no QR code that still look like one to a careless reader (negatives for QR, NSFW). */
export async function patternFrame(kind: PatternKind, seed: number): Promise<string> {
  return cachedBytes(`pattern-${kind}`, { kind, seed }, "jpg", async () => {
    const rnd = prng(seed);
    let body = "";
    if (kind === "bars") {
      const colours = ["#c0c0c0", "#c0c000", "#00c0c0", "#00c000", "#c000c0", "#c00000", "#0000c0"];
      body = colours.map((c, i) => `<rect x="${(i * W) / 7}" y="0" width="${W / 7 + 1}" height="${H}" fill="${c}"/>`).join("");
    } else if (kind === "checkerboard") {
      const cell = 20 + Math.floor(rnd() * 40);
      for (let y = 0; y * cell < H; y++) for (let x = 0; x * cell < W; x++) if ((x + y) % 2) body += `<rect x="${x * cell}" y="${y * cell}" width="${cell}" height="${cell}"/>`;
    } else {
      // a 25×25 random module grid like a version-2 QR symbol; fake-finders adds the three corner squares
      const n = 25;
      const m = 14;
      const x0 = Math.round(100 + rnd() * (W - 200 - n * m));
      const y0 = Math.round((H - n * m) / 2);
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (rnd() < 0.5) body += `<rect x="${x0 + x * m}" y="${y0 + y * m}" width="${m}" height="${m}"/>`;
      if (kind === "fake-finders") {
        for (const [fx, fy] of [[0, 0], [n - 7, 0], [0, n - 7]]) {
          const X = x0 + fx * m;
          const Y = y0 + fy * m;
          body += `<rect x="${X}" y="${Y}" width="${7 * m}" height="${7 * m}"/><rect x="${X + m}" y="${Y + m}" width="${5 * m}" height="${5 * m}" fill="#fff"/><rect x="${X + 2 * m}" y="${Y + 2 * m}" width="${3 * m}" height="${3 * m}"/>`;
        }
      }
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#fff"/>${body}</svg>`;
    return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
  });
}

/** A background alone as a JPEG frame. */
export async function plainFrame(kind: Background, seed: number): Promise<string> {
  return cachedBytes(`plain-${kind}`, { kind, seed }, "jpg", async () => sharp(await background(kind, seed)).jpeg({ quality: 85 }).toBuffer());
}
