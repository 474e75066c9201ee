// ADVERT / IMGTEXTRISK: tesseract.js OCR (eng + chi_sim, local traineddata) → normalised text → keyword lists.
import Tesseract from "tesseract.js";
import { DEFAULT_LISTS } from "../lists/default-lists";
import { POLICY } from "../policy";
import { DEFAULT_THRESHOLDS, type Thresholds } from "../settings/thresholds";
import { compileLists, matchLists, riskSegments, type CompiledList } from "../text/match";
import { normalizeText } from "../text/normalize";
import type { Engine, EngineContext, EngineOutput, Frame, FrameRequest, Hit } from "./engine";
import { OCR_LANGS, tessdataPaths } from "./tessdata";

type Line = Tesseract.Line;

interface OcrLine {
  text: string;
  confidence: number;
}

/** Lines of confident words only, normalised; empty lines dropped. */
export function linesFromTesseract(lines: readonly Line[], minWordConfidence: number): OcrLine[] {
  const out: OcrLine[] = [];
  for (const line of lines) {
    const words = line.words.filter((w) => w.confidence >= minWordConfidence && w.text.trim() !== "");
    const text = normalizeText(words.map((w) => w.text).join(" "));
    if (text === "") continue;
    out.push({ text, confidence: words.reduce((s, w) => s + w.confidence, 0) / words.length });
  }
  return out;
}

/**
 * Match the lists switched on by `requested`; each hit's probability is the OCR confidence of its best line, and the
 * list's run-time thresholds (`ocr:<list>`) decide whether it counts and at which level.
 */
export function textHits(lines: readonly OcrLine[], lists: readonly CompiledList[], requested: ReadonlySet<string>, th: Thresholds = DEFAULT_THRESHOLDS): { text: string; hits: Hit[] } {
  const text = lines.map((l) => l.text).join("\n");
  const lineStarts: number[] = [];
  let at = 0;
  for (const l of lines) {
    lineStarts.push(at);
    at += l.text.length + 1;
  }
  const lineOf = (pos: number): number => {
    let i = 0;
    while (i + 1 < lineStarts.length && lineStarts[i + 1] <= pos) i++;
    return i;
  };
  const hits: Hit[] = matchLists(text, lists, requested).flatMap((h) => {
    const confidence = Math.max(...h.words.map((w) => lines[lineOf(w.position[0])]?.confidence ?? 0));
    const level = th.level(`ocr:${h.list.name}`, confidence / 100, h.riskLevel);
    if (!level) return [];
    return {
      imgType: h.list.type,
      riskLevel: level,
      labels: [h.label1, h.label2, h.label3],
      probability: Math.round(confidence * 10) / 1000,
      riskSource: POLICY.ocr.riskSource,
      matchedLists: [{ name: h.list.name, words: h.words }],
      riskSegments: riskSegments(text, h.words),
    };
  });
  return { text, hits };
}

export class OcrEngine implements Engine {
  readonly name = "ocr";
  readonly imgTypes = ["ADVERT", "IMGTEXTRISK"] as const;
  private worker: Tesseract.Worker | undefined;
  /** the image-text lists in force (built-in + operator changes), re-read per frame */
  private readonly lists: () => readonly CompiledList[];

  constructor(lists?: () => readonly CompiledList[]) {
    const builtIn = compileLists(DEFAULT_LISTS);
    this.lists = lists ?? (() => builtIn);
  }

  async init(ctx: EngineContext): Promise<void> {
    // prepareTessdata() already ran in the pool: read the cache, never write it from here
    const { langPath, cachePath } = tessdataPaths(ctx.dataDir);
    this.worker = await Tesseract.createWorker([...OCR_LANGS], Tesseract.OEM.LSTM_ONLY, {
      langPath,
      cachePath,
      cacheMethod: "readOnly",
      gzip: true,
      logger: () => {},
      errorHandler: () => {},
    });
  }

  async run(frame: Frame, requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    if (!this.worker) throw new Error("OCR engine not initialised");
    const image = Buffer.from(frame.jpeg.buffer, frame.jpeg.byteOffset, frame.jpeg.byteLength);
    const { data } = await this.worker.recognize(image, {}, { text: false, blocks: true });
    const lines = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
    return textHits(linesFromTesseract(lines, POLICY.ocr.minWordConfidence), this.lists(), requested, req.thresholds);
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
