// ADVERT / IMGTEXTRISK: image text → normalised text → keyword lists. Read by PaddleOCR PP-OCRv4 (text/paddle.ts, the
// default: scene-text detector + recogniser) or by tesseract.js (eng + chi_sim, local traineddata; OCR_READER=tesseract).
// Tesseract only reads frames the text-region scan finds text-like structure in; PaddleOCR's own detector is cheap enough
// to look at every frame, and finds captions the scan misses on busy pictures.
import sharp from "sharp";
import Tesseract from "tesseract.js";
import { DEFAULT_LISTS } from "../lists/default-lists";
import { POLICY } from "../policy";
import { DEFAULT_THRESHOLDS, type Thresholds } from "../settings/thresholds";
import { compileLists, IMAGE_TEXT, matchLists, riskSegments, type CompiledList } from "../text/match";
import { normalizeText } from "../text/normalize";
import { PaddleReader } from "../text/paddle";
import { padBox, scanText, type RegionScan, type TextBox } from "../text/regions";
import type { OcrReaderName } from "../types";
import { fullSizeRgb, type Engine, type EngineContext, type EngineOutput, type Frame, type FrameRequest, type Hit } from "./engine";
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

/** Text lines are enlarged to about this height before reading (Tesseract reads best with glyphs ≈ 30–40 px tall). */
const LINE_HEIGHT_PX = 40;
/** a line read with fewer characters than this share of its width ÷ height (a CJK line holds ≈ 1 per height) is read again as bright text */
const BRIGHT_RETRY_SHARE = 0.6;
/** a busy frame read whole with fewer characters than this is read again as bright text */
const BUSY_ENOUGH_CHARS = 12;
/** grey level from which a pixel counts as a bright (white caption) stroke */
const BRIGHT_TEXT_MIN = 235;
/** Frames are scanned for text at this width (the scan's thresholds are tuned for it). */
const SCAN_WIDTH = 640;

/** The text-region scan of a frame, and frame pixels per scanned pixel. */
export async function scanFrame(image: Buffer): Promise<{ scan: RegionScan; scale: number }> {
  const meta = await sharp(image).metadata();
  const width = meta.width ?? SCAN_WIDTH;
  const { data, info } = await sharp(image).greyscale().resize({ width: Math.min(width, SCAN_WIDTH) }).raw().toBuffer({ resolveWithObject: true });
  return { scan: scanText(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), info.width, info.height), scale: width / info.width };
}

export class OcrEngine implements Engine {
  readonly name = "ocr";
  readonly imgTypes = ["ADVERT", "IMGTEXTRISK"] as const;
  private worker: Tesseract.Worker | undefined;
  private paddle: PaddleReader | undefined;
  /** the image-text lists in force (built-in + operator changes), re-read per frame */
  private readonly lists: () => readonly CompiledList[];

  constructor(
    lists?: () => readonly CompiledList[],
    private readonly reader: OcrReaderName = "paddle",
  ) {
    const builtIn = compileLists(DEFAULT_LISTS, IMAGE_TEXT);
    this.lists = lists ?? (() => builtIn);
  }

  async init(ctx: EngineContext): Promise<void> {
    if (this.reader === "paddle") {
      this.paddle = await PaddleReader.load();
      return;
    }
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
    if (!this.worker && !this.paddle) throw new Error("OCR engine not initialised");
    const image = Buffer.from(frame.jpeg.buffer, frame.jpeg.byteOffset, frame.jpeg.byteLength);
    if (this.paddle) {
      // the scene-text detector finds the lines itself, on busy pictures too
      const read = await this.paddle.read(image, await fullSizeRgb(frame));
      const lines: OcrLine[] = read.filter((l) => l.confidence >= POLICY.ocr.minLineConfidence).flatMap((l) => {
        const text = normalizeText(l.text);
        return text === "" ? [] : [{ text, confidence: l.confidence * 100 }];
      });
      const out = textHits(lines, this.lists(), requested, req.thresholds);
      return { ...out, scores: { readMode: 3, linesRead: read.length } };
    }
    const { scan, scale } = await scanFrame(image);
    let lines: OcrLine[];
    if (scan.kind === "none") lines = [];
    else if (scan.kind === "busy") lines = await this.readWhole(image);
    else lines = await this.readLines(image, scan.boxes, scale, frame);
    const out = textHits(lines, this.lists(), requested, req.thresholds);
    // how the frame was read (internal: the eval and the bench report it): 0 = no text-like structure, 1 = lines, 2 = whole
    // frame (Tesseract), 3 = PaddleOCR's detector and recogniser
    const mode = scan.kind === "none" ? 0 : scan.kind === "lines" ? 1 : 2;
    return { ...out, scores: { readMode: mode, linesRead: scan.kind === "lines" ? scan.boxes.length : 0 } };
  }

  /** A picture too busy to find lines in: Tesseract lays out the page itself; little text found → the bright strokes read too. */
  private async readWhole(image: Buffer): Promise<OcrLine[]> {
    await this.mode(Tesseract.PSM.AUTO);
    const read = await this.readCrop(image);
    if (read.reduce((n, l) => n + l.text.replace(/\s/g, "").length, 0) >= BUSY_ENOUGH_CHARS) return read;
    const bright = await sharp(image).greyscale().threshold(BRIGHT_TEXT_MIN).negate().png({ compressionLevel: 1 }).toBuffer();
    return [...read, ...(await this.readCrop(bright))];
  }

  /** Reads each candidate line on its own: cropped from the full-size frame, small text enlarged, in reading order. */
  private async readLines(image: Buffer, boxes: readonly TextBox[], scale: number, frame: Frame): Promise<OcrLine[]> {
    await this.mode(Tesseract.PSM.SINGLE_BLOCK);
    const ordered = [...boxes].sort((a, b) => a.y - b.y || a.x - b.x);
    const out: OcrLine[] = [];
    for (const b of ordered) {
      const full = { x: Math.floor(b.x * scale), y: Math.floor(b.y * scale), w: Math.ceil(b.w * scale), h: Math.ceil(b.h * scale) };
      const p = padBox(full, frame.width, frame.height);
      if (p.w < 4 || p.h < 4) continue;
      const enlarge = Math.min(3, Math.max(1, LINE_HEIGHT_PX / full.h));
      const crop = await sharp(image)
        .extract({ left: p.x, top: p.y, width: p.w, height: p.h })
        .resize({ width: Math.round(p.w * enlarge), height: Math.round(p.h * enlarge), kernel: "lanczos3" })
        .png({ compressionLevel: 1 })
        .toBuffer();
      const read = await this.readCrop(crop);
      out.push(...read);
      // far fewer characters than the line's size holds: captions over pictures are white with a dark outline, which
      // Tesseract's own binarisation loses on a busy background; read the bright strokes alone, as dark on white
      const chars = read.reduce((n, l) => n + l.text.replace(/\s/g, "").length, 0);
      if (chars < BRIGHT_RETRY_SHARE * (full.w / full.h)) {
        const bright = await sharp(crop).greyscale().threshold(BRIGHT_TEXT_MIN).negate().png({ compressionLevel: 1 }).toBuffer();
        out.push(...(await this.readCrop(bright)));
      }
    }
    return out;
  }

  private async readCrop(png: Buffer): Promise<OcrLine[]> {
    const { data } = await this.worker!.recognize(png, {}, { text: false, blocks: true });
    return linesFromTesseract((data.blocks ?? []).flatMap((bl) => bl.paragraphs.flatMap((pa) => pa.lines)), POLICY.ocr.minWordConfidence);
  }

  private psm: Tesseract.PSM | undefined;
  private async mode(psm: Tesseract.PSM): Promise<void> {
    if (this.psm === psm) return;
    await this.worker!.setParameters({ tessedit_pageseg_mode: psm });
    this.psm = psm;
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
    await this.paddle?.close();
    this.paddle = undefined;
  }
}
