// Where is text in a frame? A cheap scan (a few ms on a 720p frame) that lets OCR read only the lines that look like
// text instead of laying out the whole picture, and skip frames with no text-like structure at all.
//
// Classic run-length smearing over an edge map: strong horizontal/vertical contrast, minus long straight edges
// (borders, bars, boxes), smeared along rows so the strokes of a word join, then connected components kept when their
// size and stroke density look like a line of text. When the picture is too busy to tell (noise, foliage, a crowd) the
// answer is "busy" and the caller reads the whole frame, as before: the scan may only save work, never lose text.

/** One candidate line of text, in the scanned image's pixels. */
export interface TextBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type RegionScan =
  | { kind: "none"; edgeShare: number }
  | { kind: "busy"; edgeShare: number; reason: string }
  | { kind: "lines"; edgeShare: number; boxes: TextBox[] };

export interface ScanOptions {
  /** grey-level step that counts as an edge */
  edgeStep: number;
  /** edge runs longer than this many px (vertical) are structure, not strokes */
  maxStrokeRun: number;
  /** edge runs longer than this many px (horizontal) are structure, not strokes */
  maxHorizontalRun: number;
  /** gaps up to this many px along a row are bridged (letters → words → lines) */
  smearGap: number;
  /** a line is this many px tall at least; a block of lines at most max(maxHeight, half the image) */
  minHeight: number;
  maxHeight: number;
  /** share of the frame's pixels that are edges above which the frame is too busy to scan */
  maxEdgeShare: number;
  /** share of the frame the kept lines may cover before the frame is read whole */
  maxCoverShare: number;
  /** at most this many lines are read one by one; more → the frame is read whole */
  maxLines: number;
}

/** Tuned at 640 px wide (a 720p frame is scanned at half size). */
export const SCAN_DEFAULTS: ScanOptions = {
  edgeStep: 36,
  maxStrokeRun: 60,
  maxHorizontalRun: 140,
  smearGap: 9,
  minHeight: 6,
  maxHeight: 72,
  maxEdgeShare: 0.22,
  maxCoverShare: 0.35,
  maxLines: 12,
};

/** Edge map: 1 where the grey level changes by ≥ step across a pixel, horizontally or vertically. */
function edgeMap(grey: Uint8Array, w: number, h: number, step: number): Uint8Array {
  const e = new Uint8Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    const row = y * w;
    for (let x = 1; x < w - 1; x++) {
      const i = row + x;
      const gx = Math.abs(grey[i + 1] - grey[i - 1]);
      const gy = Math.abs(grey[i + w] - grey[i - w]);
      if (gx >= step || gy >= step) e[i] = 1;
    }
  }
  return e;
}

/** Clears vertical runs longer than `maxV` and horizontal runs longer than `maxH` (bars, borders, box edges). */
function dropLongRuns(e: Uint8Array, w: number, h: number, maxV: number, maxH: number): Uint8Array {
  const out = e.slice();
  for (let x = 0; x < w; x++) {
    let start = -1;
    for (let y = 0; y <= h; y++) {
      const on = y < h && e[y * w + x] === 1;
      if (on && start < 0) start = y;
      if (!on && start >= 0) {
        if (y - start > maxV) for (let k = start; k < y; k++) out[k * w + x] = 0;
        start = -1;
      }
    }
  }
  for (let y = 0; y < h; y++) {
    let start = -1;
    const row = y * w;
    for (let x = 0; x <= w; x++) {
      const on = x < w && e[row + x] === 1;
      if (on && start < 0) start = x;
      if (!on && start >= 0) {
        if (x - start > maxH) for (let k = start; k < x; k++) out[row + k] = 0;
        start = -1;
      }
    }
  }
  return out;
}

/** Bridges gaps of ≤ `gap` px between edge pixels along each row. */
function smearRows(e: Uint8Array, w: number, h: number, gap: number): Uint8Array {
  const out = e.slice();
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let last = -1;
    for (let x = 0; x < w; x++) {
      if (e[row + x] !== 1) continue;
      if (last >= 0 && x - last > 1 && x - last <= gap + 1) out.fill(1, row + last + 1, row + x);
      last = x;
    }
  }
  return out;
}

interface Component extends TextBox {
  pixels: number;
  edges: number;
}

/** 4-connected components of `mask`, with how many pixels of `edges` fall inside each. */
function components(mask: Uint8Array, edges: Uint8Array, w: number, h: number): Component[] {
  const label = new Int32Array(w * h);
  const out: Component[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] !== 1 || label[start] !== 0) continue;
    const id = out.length + 1;
    let minX = w, minY = h, maxX = 0, maxY = 0, pixels = 0, edgeCount = 0;
    label[start] = id;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      pixels++;
      edgeCount += edges[i];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (x > 0 && mask[i - 1] === 1 && label[i - 1] === 0) { label[i - 1] = id; stack.push(i - 1); }
      if (x < w - 1 && mask[i + 1] === 1 && label[i + 1] === 0) { label[i + 1] = id; stack.push(i + 1); }
      if (y > 0 && mask[i - w] === 1 && label[i - w] === 0) { label[i - w] = id; stack.push(i - w); }
      if (y < h - 1 && mask[i + w] === 1 && label[i + w] === 0) { label[i + w] = id; stack.push(i + w); }
    }
    out.push({ x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1, pixels, edges: edgeCount });
  }
  return out;
}

/** Joins boxes on the same line (vertical overlap ≥ half the smaller, horizontal gap ≤ the taller height). */
function mergeLines(boxes: TextBox[]): TextBox[] {
  const out = boxes.map((b) => ({ ...b }));
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length && !merged; j++) {
        const a = out[i], b = out[j];
        const overlap = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
        const gap = Math.max(a.x, b.x) - Math.min(a.x + a.w, b.x + b.w);
        if (overlap >= Math.min(a.h, b.h) / 2 && gap <= Math.max(a.h, b.h)) {
          const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
          out[i] = { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
          out.splice(j, 1);
          merged = true;
        }
      }
    }
  }
  return out;
}

/** Scans a greyscale image for lines of text. */
export function scanText(grey: Uint8Array, w: number, h: number, opts: ScanOptions = SCAN_DEFAULTS): RegionScan {
  const raw = edgeMap(grey, w, h, opts.edgeStep);
  let count = 0;
  for (let i = 0; i < raw.length; i++) count += raw[i];
  const edgeShare = count / raw.length;
  if (edgeShare > opts.maxEdgeShare) return { kind: "busy", edgeShare, reason: "edges everywhere" };
  const strokes = dropLongRuns(raw, w, h, opts.maxStrokeRun, opts.maxHorizontalRun);
  const smeared = smearRows(strokes, w, h, opts.smearGap);
  const kept: TextBox[] = [];
  for (const c of components(smeared, strokes, w, h)) {
    // a lone dot or dash is no word (a single glyph of the smallest text covers more)
    if (c.h < opts.minHeight || c.w < opts.minHeight || c.w * c.h < opts.minHeight * opts.minHeight * 2) continue;
    const density = c.edges / (c.w * c.h);
    const fill = c.pixels / (c.w * c.h);
    // text: strokes neither sparse nor solid, filling its box fairly well; taller than a caption line = a block of
    // lines the smear touched together (read as a block), up to half the frame
    if (c.h > Math.max(opts.maxHeight, h / 2)) continue;
    if (density < 0.08 || density > 0.8 || fill < 0.3) continue;
    if (c.edges < 12) continue;
    kept.push(c);
  }
  if (kept.length === 0) return { kind: "none", edgeShare };
  const lines = mergeLines(kept);
  if (lines.length > opts.maxLines) return { kind: "busy", edgeShare, reason: `${lines.length} lines` };
  const cover = lines.reduce((s, b) => s + b.w * b.h, 0) / (w * h);
  if (cover > opts.maxCoverShare) return { kind: "busy", edgeShare, reason: "lines cover the frame" };
  return { kind: "lines", edgeShare, boxes: lines };
}

/** A box grown by `padX`/`padY` of its height on each side, clipped to the image. */
export function padBox(b: TextBox, w: number, h: number, padX = 0.6, padY = 0.35): TextBox {
  const px = Math.round(b.h * padX), py = Math.round(b.h * padY);
  const x = Math.max(0, b.x - px), y = Math.max(0, b.y - py);
  return { x, y, w: Math.min(w, b.x + b.w + px) - x, h: Math.min(h, b.y + b.h + py) - y };
}
