// Unchanged-frame reuse (issue #28 item 4): a frame re-rendered identically is unchanged; a small overlay appearing
// (a QR code at 2 px per module, a 12 px line of text, a low-contrast code) never is. Frames made by ffmpeg.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { FrameReuse, framePixels, pixelsUnchanged, REUSE_MAX_AGE_MS } from "../../server/task/frame-reuse";
import type { FrameVerdict } from "../../server/detect";

let tmp: string;
before(async () => void (tmp = await mkdtemp(path.join(os.tmpdir(), "frame-reuse-"))));
after(async () => rm(tmp, { recursive: true, force: true }));

const BACKGROUNDS = { testsrc2: "testsrc2=size=1280x720:rate=1", light: "color=c=0xf0f0f0:size=1280x720", dark: "color=c=0x202020:size=1280x720", gray: "color=c=0x787878:size=1280x720" } as const;
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
let n = 0;

/** One 720p JPEG as the live pull writes it (mjpeg -q:v 4), the background with an optional overlay filter chain. */
async function frame(bg: keyof typeof BACKGROUNDS, overlay?: { png?: string; x: number; y: number } | { text: string; color: string; x: number; y: number }): Promise<Uint8Array> {
  const out = path.join(tmp, `f${++n}.jpg`);
  const inputs = ["-f", "lavfi", "-i", BACKGROUNDS[bg]];
  let filter = "[0:v]null[v]";
  if (overlay && "png" in overlay && overlay.png) {
    inputs.push("-i", overlay.png);
    filter = `[0:v][1:v]overlay=${overlay.x}:${overlay.y}[v]`;
  } else if (overlay && "text" in overlay) {
    filter = `[0:v]drawtext=fontfile=${FONT}:text='${overlay.text}':fontsize=12:fontcolor=${overlay.color}:x=${overlay.x}:y=${overlay.y}[v]`;
  }
  await runFfmpeg([...inputs, "-filter_complex", filter, "-map", "[v]", "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "4", "-y", out], { timeoutMs: 30_000 });
  return new Uint8Array(await readFile(out));
}

/** A QR code at 2 px per module (21 modules: 50 px with its quiet zone), dark/light as given. */
async function qrPng(dark: string, light: string): Promise<string> {
  const file = path.join(tmp, `qr-${dark.slice(1)}-${light.slice(1)}.png`);
  await writeFile(file, await QRCode.toBuffer("https://t.cn/x", { scale: 2, margin: 2, color: { dark, light }, errorCorrectionLevel: "M" }));
  return file;
}

const verdict = { riskLevel: "PASS" } as FrameVerdict;

test("the same picture rendered twice is unchanged; the verdict is reused only for the same business types and within the age limit", async () => {
  const a = await framePixels(await frame("testsrc2"));
  const b = await framePixels(await frame("testsrc2"));
  assert.ok(pixelsUnchanged(a, b));
  let now = 0;
  const reuse = new FrameReuse(() => now);
  assert.equal(reuse.match(b, ""), null, "nothing detected yet");
  reuse.detected({ index: 1, pixels: a, verdict, businessKey: "", detectedAt: 0 });
  assert.equal(reuse.match(b, "")?.index, 1);
  assert.equal(reuse.match(b, "FACE"), null, "other business types: detected again");
  now = REUSE_MAX_AGE_MS + 1;
  assert.equal(reuse.match(b, ""), null, "too old: detected again");
});

test("a small overlay appearing is never unchanged: QR at 2 px per module, low-contrast QR, 12 px text, on four backgrounds", async () => {
  const qr = await qrPng("#000000ff", "#ffffffff");
  const faint = await qrPng("#606060ff", "#909090ff");
  const missed: string[] = [];
  for (const bg of Object.keys(BACKGROUNDS) as Array<keyof typeof BACKGROUNDS>) {
    const base = await framePixels(await frame(bg));
    const overlays = {
      "QR 2 px/module, top left": { png: qr, x: 16, y: 16 },
      "QR 2 px/module, bottom right": { png: qr, x: 1280 - 66, y: 720 - 66 },
      "low-contrast QR": { png: faint, x: 600, y: 300 },
      "12 px text": { text: "add wx maifen888", color: bg === "dark" ? "white" : "black", x: 900, y: 40 },
      "12 px grey text": { text: "t.cn/x", color: "gray", x: 40, y: 680 },
    };
    for (const [what, o] of Object.entries(overlays)) {
      if (pixelsUnchanged(base, await framePixels(await frame(bg, o)))) missed.push(`${what} on ${bg}`);
    }
  }
  assert.deepEqual(missed, [], "every overlay moves the check");
});

test("different sizes are never unchanged", async () => {
  const a = await framePixels(await frame("light"));
  assert.equal(pixelsUnchanged(a, { ...a, width: a.width - 2 }), false);
});
