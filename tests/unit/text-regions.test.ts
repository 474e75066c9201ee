// The text-region scan that lets OCR read only the lines that look like text (server/detect/text/regions.ts):
// real rendered text on real backgrounds (sharp + fonts), scanned as the OCR engine scans a frame.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { describe as suite, test } from "node:test";
import { promisify } from "node:util";
import sharp from "sharp";
import { scanFrame } from "../../server/detect/engines/ocr";
import { padBox } from "../../server/detect/text/regions";

const W = 1280, H = 720;

async function frame(body: string, background = "#f3f1ea"): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="${background}"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
const text = (s: string, x: number, y: number, size: number, fill = "#111") => `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" fill="${fill}">${s}</text>`;

suite("text-region scan", () => {
  test("a plain picture has no text to read", async () => {
    const { scan } = await scanFrame(await frame(`<circle cx="640" cy="360" r="200" fill="#3a6"/>`));
    assert.equal(scan.kind, "none");
  });

  test("each caption line is found, and the boxes (scaled to the frame) cover it", async () => {
    const img = await frame(text("Add WeChat: maifen888", 100, 200, 48) + text("cheap followers", 700, 600, 28));
    const { scan, scale } = await scanFrame(img);
    assert.equal(scan.kind, "lines", JSON.stringify(scan));
    if (scan.kind !== "lines") return;
    assert.equal(scale, 2);
    const boxes = scan.boxes.map((b) => padBox({ x: b.x * scale, y: b.y * scale, w: b.w * scale, h: b.h * scale }, W, H));
    // the first line's glyphs sit between x 100 and ≈ 700, baseline 200 (cap height ≈ 35 px above it)
    const covers = (x0: number, y0: number, x1: number, y1: number) => boxes.some((b) => b.x <= x0 && b.y <= y0 && b.x + b.w >= x1 && b.y + b.h >= y1);
    assert.ok(covers(100, 170, 650, 205), JSON.stringify(boxes));
    assert.ok(covers(700, 582, 900, 605), JSON.stringify(boxes));
    assert.ok(boxes.length <= 4, `${boxes.length} boxes`);
  });

  test("light text on a dark background is found too", async () => {
    const { scan } = await scanFrame(await frame(text("Online casino bet now", 200, 400, 36, "#f0f0f0"), "#1d1f2b"));
    assert.equal(scan.kind, "lines");
  });

  test("bars and borders are structure, not text: no full-height box", async () => {
    const bars = ["#f00", "#0f0", "#ff0", "#00f", "#f0f", "#0ff"].map((c, i) => `<rect x="${i * 214}" y="0" width="214" height="720" fill="${c}"/>`).join("");
    const { scan } = await scanFrame(await frame(bars));
    assert.equal(scan.kind, "none", JSON.stringify(scan));
  });

  test("a picture too busy to tell is read whole (never skipped)", async () => {
    const noisy = await sharp({ create: { width: W, height: H, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 120, sigma: 70 } } }).jpeg().toBuffer();
    const { scan } = await scanFrame(noisy);
    assert.equal(scan.kind, "busy");
  });

  test("ffmpeg's testsrc2 card: the moving pattern is not taken for a caption", async () => {
    const { stdout } = await promisify(execFile)("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", `testsrc2=size=${W}x${H}:rate=1`, "-frames:v", "1", "-c:v", "mjpeg", "-f", "image2pipe", "pipe:1"], { encoding: "buffer", maxBuffer: 16 << 20 });
    const { scan } = await scanFrame(stdout);
    assert.notEqual(scan.kind, "busy");
    if (scan.kind === "lines") for (const b of scan.boxes) assert.ok(b.h < 360 / 2 + 1, JSON.stringify(b));
  });
});
