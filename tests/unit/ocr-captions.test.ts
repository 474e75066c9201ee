// Image text on captions over pictures (#15.2): white text with a black outline on a gradient or a busy test
// pattern, which Tesseract's own binarisation loses, is read from its bright strokes (server/detect/engines/ocr.ts);
// a line set without spaces ("GUNSFORSALE") still matches its list phrase. Real Tesseract, real rendered frames
// (the eval's renderer: tests/eval/frames.ts).
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
const engine = new OcrEngine();
const TYPES = new Set(["ADVERT", "IMGTEXTRISK"]);

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "ocr-captions-"));
  await prepareTessdata(dir);
  await engine.init({ dataDir: dir });
});
after(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

async function read(spec: Omit<TextSpec, "seed">) {
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

for (const c of CASES) {
  test(`an outlined white caption on ${c.background} is read and matched: ${c.entry}`, { timeout: 120_000 }, async () => {
    const r = await read({ chunks: c.chunks, font: "DejaVu Sans", sizePx: 48, background: c.background, style: "outline" });
    assert.ok(r.words.includes(c.entry), `read ${JSON.stringify(r.text)}, matched ${JSON.stringify(r.words)}`);
  });
}

test("an outlined harmless caption matches nothing", { timeout: 120_000 }, async () => {
  const r = await read({ chunks: ["Welcome back to the show"], font: "DejaVu Sans", sizePx: 48, background: "noise", style: "outline" });
  assert.deepEqual(r.words, [], JSON.stringify(r.text));
});
