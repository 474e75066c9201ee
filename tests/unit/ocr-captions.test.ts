// Image text on captions over pictures (#15.2): white text with a black outline on noise or a busy test pattern is
// read and matched by both OCR readers: PaddleOCR (the default: a scene-text detector and recogniser) and Tesseract
// (whose own binarisation loses such captions, so it reads them again from their bright strokes). Real models, real
// rendered frames (the eval's renderer: tests/eval/frames.ts).
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { OcrEngine } from "../../server/detect/engines/ocr";
import { prepareTessdata } from "../../server/detect/engines/tessdata";
import { DEFAULT_THRESHOLDS } from "../../server/detect/settings/thresholds";
import { textFrame, type TextSpec } from "../eval/frames";

let dir = "";
const engines = { paddle: new OcrEngine(undefined, "paddle"), tesseract: new OcrEngine(undefined, "tesseract") };
const TYPES = new Set(["ADVERT", "IMGTEXTRISK"]);

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "ocr-captions-"));
  await prepareTessdata(dir);
  for (const e of Object.values(engines)) await e.init({ dataDir: dir });
});
after(async () => {
  for (const e of Object.values(engines)) await e.close();
  await rm(dir, { recursive: true, force: true });
});

async function read(engine: OcrEngine, spec: Omit<TextSpec, "seed">) {
  const { file } = await textFrame({ ...spec, seed: 7 });
  const jpeg = await readFile(file);
  const out = await engine.run({ jpeg, width: 1280, height: 720, rgb: () => Promise.reject(new Error("unused")) }, TYPES, { imgTypes: TYPES, businessTypes: new Set(), thresholds: DEFAULT_THRESHOLDS });
  return { text: out.text ?? "", words: out.hits.flatMap((h) => (h.matchedLists ?? []).flatMap((l) => l.words.map((w) => w.entry))) };
}

// each of these was missed before the bright-stroke read (Tesseract read little or nothing of the line)
const CASES = [
  { entry: "buy followers", chunks: ["Buy followers"], background: "noise" },
  { entry: "buy followers", chunks: ["Buy followers"], background: "testsrc2" },
  { entry: "online casino", chunks: ["online casino"], background: "noise" },
] as const;

for (const [reader, engine] of Object.entries(engines)) {
  for (const c of CASES) {
    test(`${reader}: an outlined white caption on ${c.background} is read and matched: ${c.entry}`, { timeout: 120_000 }, async () => {
      const r = await read(engine, { chunks: c.chunks, font: "DejaVu Sans", sizePx: 48, background: c.background, style: "outline" });
      assert.ok(r.words.includes(c.entry), `read ${JSON.stringify(r.text)}, matched ${JSON.stringify(r.words)}`);
    });
  }

  test(`${reader}: an outlined harmless caption matches nothing`, { timeout: 120_000 }, async () => {
    const r = await read(engine, { chunks: ["Welcome back to the show"], font: "DejaVu Sans", sizePx: 48, background: "noise", style: "outline" });
    assert.deepEqual(r.words, [], JSON.stringify(r.text));
  });
}

test("paddle: small Chinese and English captions on a busy test pattern, which Tesseract's line scan skips, are read", { timeout: 120_000 }, async () => {
  const zh = await read(engines.paddle, { chunks: ["咨询电话 13812345678"], font: "Noto Sans CJK SC", sizePx: 48, background: "testsrc2", style: "outline" });
  assert.ok(zh.words.length > 0, `read ${JSON.stringify(zh.text)}`);
  const en = await read(engines.paddle, { chunks: ["Guns for sale", "no questions asked"], font: "DejaVu Sans", sizePx: 24, background: "testsrc2", style: "outline" });
  assert.ok(en.words.includes("guns for sale"), `read ${JSON.stringify(en.text)}, matched ${JSON.stringify(en.words)}`);
});
