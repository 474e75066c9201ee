// QR finder-pattern locator for the reader's last pass (server/detect/engines/qrcode.ts).
//
// zxing locates a symbol from its three finder patterns, but in a cluttered 1280×720 frame it keeps only a few of the
// finder triples it forms, and a small (2 px per module), tilted or low-contrast code loses out to the clutter: nothing
// is decoded, often nothing is even reported as located. Cut out and enlarged, the same code decodes. This module finds
// the places to cut: it scans a binarised frame (0 = dark) for the 1:1:3:1:1 dark/light runs of a finder pattern
// across rows, confirms each down its column and along one of its diagonals, merges the hits of one pattern, and
// groups three patterns of a like module size that sit like a symbol's corners (two about equal legs at about a right
// angle) into a region.

export interface Finder {
  /** centre, frame px */
  x: number;
  y: number;
  /** module size, px (a seventh of the pattern's width) */
  module: number;
  /** rows that confirmed it */
  hits: number;
}

/** A place a symbol may be: [x1, y1, x2, y2] in frame px (quiet zone included) and its module size. */
export interface SymbolRegion {
  box: [number, number, number, number];
  module: number;
}

/** Narrowest finder pattern looked for (px): 1.4 px per module; below that the decoder fails on the cut-out anyway. */
const MIN_WIDTH = 10;

/**
 * 1:1:3:1:1, each run within half a module plus 0.75 px of its share (a 2 px module's runs are 1–3 px after
 * anti-aliasing and JPEG). Loose on purpose: a 3 px module's centre comes out of the 3 px-box binarisation hollow
 * (dark-light-dark) and is still found this way; the column and diagonal checks and the grouping weed out texture.
 */
function isFinderRuns(c0: number, c1: number, c2: number, c3: number, c4: number): boolean {
  const total = c0 + c1 + c2 + c3 + c4;
  if (total < MIN_WIDTH) return false;
  const m = total / 7;
  const v = 0.5 * m + 0.75;
  return Math.abs(c0 - m) < v && Math.abs(c1 - m) < v && Math.abs(c3 - m) < v && Math.abs(c4 - m) < v && Math.abs(c2 - 3 * m) < 3 * v;
}

/** Whether (x, y) is inside and dark. */
const darkAt = (bin: Uint8Array, width: number, height: number, x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && bin[y * width + x] === 0;

/**
 * The five runs through (x, y) along (dx, dy), the centre run walked both ways; undefined unless they are finder
 * runs. Returns their total (in steps) and the offset (in steps, from x, y) of the centre run's middle.
 */
function crossRuns(bin: Uint8Array, width: number, height: number, x: number, y: number, dx: number, dy: number, maxRun: number): { total: number; centre: number } | undefined {
  if (!darkAt(bin, width, height, x, y)) return undefined;
  // back: the centre's dark pixels before (x, y), then the light ring, then the dark ring
  let i = 0;
  let cBack = 0;
  while (darkAt(bin, width, height, x + (i - 1) * dx, y + (i - 1) * dy) && cBack <= maxRun) { cBack++; i--; }
  let l1 = 0;
  while (!darkAt(bin, width, height, x + (i - 1) * dx, y + (i - 1) * dy) && inside(width, height, x + (i - 1) * dx, y + (i - 1) * dy) && l1 <= maxRun) { l1++; i--; }
  let d0 = 0;
  while (darkAt(bin, width, height, x + (i - 1) * dx, y + (i - 1) * dy) && d0 <= maxRun) { d0++; i--; }
  if (l1 === 0 || d0 === 0 || cBack > maxRun || l1 > maxRun || d0 > maxRun) return undefined;
  // forward: the rest of the centre, the light ring, the dark ring
  i = 0;
  let cFwd = 1;
  while (darkAt(bin, width, height, x + (i + 1) * dx, y + (i + 1) * dy) && cFwd <= maxRun) { cFwd++; i++; }
  let l3 = 0;
  while (!darkAt(bin, width, height, x + (i + 1) * dx, y + (i + 1) * dy) && inside(width, height, x + (i + 1) * dx, y + (i + 1) * dy) && l3 <= maxRun) { l3++; i++; }
  let d4 = 0;
  while (darkAt(bin, width, height, x + (i + 1) * dx, y + (i + 1) * dy) && d4 <= maxRun) { d4++; i++; }
  if (l3 === 0 || d4 === 0 || l3 > maxRun || d4 > maxRun) return undefined;
  const c2 = cBack + cFwd;
  if (!isFinderRuns(d0, l1, c2, l3, d4)) return undefined;
  return { total: d0 + l1 + c2 + l3 + d4, centre: -cBack + (c2 - 1) / 2 };
}

const inside = (width: number, height: number, x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height;

/** Finder patterns in a binary frame (0 = dark), each confirmed across, down and diagonally; the most-hit first. */
export function findFinders(bin: Uint8Array, width: number, height: number, maxModule = 12): Finder[] {
  const found: Finder[] = [];
  const maxRun = Math.ceil(4 * maxModule);
  const words = bin.byteOffset % 4 === 0 ? new Uint32Array(bin.buffer, bin.byteOffset, bin.length >> 2) : undefined;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    // the last five runs (r4 the newest), counted as they end; n: runs ended so far in this row
    let r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0;
    let n = 0;
    let start = 0;
    let dark = bin[row] === 0;
    for (let x = 1; x <= width; x++) {
      if (x < width) {
        // four pixels at a time through a run (most of a frame is long runs)
        if (words && ((row + x) & 3) === 0) {
          const same = dark ? 0 : 0xffffffff;
          while (x + 4 <= width && words[(row + x) >> 2] === same) x += 4;
        }
        if (x < width && (bin[row + x] === 0) === dark) continue;
      }
      const d = x < width && bin[row + x] === 0;
      // a run [start, x) of colour `dark` ended
      r0 = r1;
      r1 = r2;
      r2 = r3;
      r3 = r4;
      r4 = x - start;
      n++;
      start = x;
      const ended = dark;
      dark = d;
      if (!ended || n < 5) continue;
      if (!isFinderRuns(r0, r1, r2, r3, r4)) continue;
      const total = r0 + r1 + r2 + r3 + r4;
      const cx = Math.round(x - r4 - r3 - r2 / 2 - 0.5);
      const v = crossRuns(bin, width, height, cx, y, 0, 1, maxRun);
      if (!v) continue;
      const vTotal = v.total;
      if (vTotal / total <= 0.5 || vTotal / total >= 2) continue;
      const cy = Math.round(y + v.centre);
      const h = crossRuns(bin, width, height, cx, cy, 1, 0, maxRun);
      if (!h) continue;
      const hTotal = h.total;
      // and along the diagonal (zxing's harder check; texture rarely passes all three). The pattern measured across a
      // turned symbol is up to √2 its side; the shorter of the straight and diagonal widths is within 8% of it.
      const fx = Math.round(cx + h.centre);
      const dg = crossRuns(bin, width, height, fx, cy, 1, 1, maxRun) ?? crossRuns(bin, width, height, fx, cy, 1, -1, maxRun);
      if (!dg) continue;
      const dTotal = Math.SQRT2 * dg.total;
      const straight = (hTotal + vTotal) / 2;
      if (dTotal / straight < 0.5 || dTotal / straight > 2) continue;
      const module = Math.min(straight, dTotal) / 7;
      if (module <= maxModule) addFinder(found, cx + h.centre, cy, module);
    }
  }
  return found.sort((a, b) => b.hits - a.hits);
}

function addFinder(found: Finder[], x: number, y: number, module: number): void {
  for (const f of found) {
    const tol = 1.5 * Math.max(f.module, module);
    if (Math.abs(f.x - x) <= tol && Math.abs(f.y - y) <= tol && module / f.module < 1.6 && f.module / module < 1.6) {
      const n = f.hits;
      f.x = (f.x * n + x) / (n + 1);
      f.y = (f.y * n + y) / (n + 1);
      f.module = (f.module * n + module) / (n + 1);
      f.hits = n + 1;
      return;
    }
  }
  found.push({ x, y, module, hits: 1 });
}

/**
 * Regions where three finders sit like a symbol's corners (the 30 best-confirmed looked at): modules within 1.5× of each other, the two legs from the
 * corner pattern within 1.6× of each other and 10–`maxLeg` modules long (14 for version 1, 30 for 5, 38 for 7),
 * 60–120° between them. The box spans the three centres and the fourth corner they imply, grown by 8 modules and a
 * quarter leg (quiet zone, perspective). At most `max` regions, the best-confirmed first; a region whose centre lies
 * in one already taken is dropped (the other triples of the same symbol).
 */
export function finderRegions(finders: readonly Finder[], width: number, height: number, max = 4, minHits = 3, maxLeg = 40): SymbolRegion[] {
  const fs = finders.filter((f) => f.hits >= minHits).slice(0, 30);
  const n = fs.length;
  // pairwise distances; a pair whose modules differ by more than 1.5× or sit too close / far apart is NaN
  const dist = new Float64Array(n * n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = fs[i];
      const b = fs[j];
      if (a.module > 1.5 * b.module || b.module > 1.5 * a.module) continue;
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const m = Math.max(a.module, b.module);
      // legs 10–maxLeg modules, the diagonal up to 1.6 × √2 × maxLeg
      if (d < 10 * Math.min(a.module, b.module) || d > 2.3 * maxLeg * m) continue;
      dist[i * n + j] = dist[j * n + i] = d;
    }
  }
  const scored: Array<{ region: SymbolRegion; score: number }> = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dij = dist[i * n + j];
      if (Number.isNaN(dij)) continue;
      for (let k = j + 1; k < n; k++) {
        const dik = dist[i * n + k];
        const djk = dist[j * n + k];
        if (Number.isNaN(dik) || Number.isNaN(djk)) continue;
        // the corner B is opposite the longest side; A and C end the legs
        let B = fs[i], A = fs[j], C = fs[k], l1 = dij, l2 = dik;
        if (dij >= dik && dij >= djk) [B, A, C, l1, l2] = [fs[k], fs[i], fs[j], dik, djk];
        else if (dik >= dij && dik >= djk) [B, A, C, l1, l2] = [fs[j], fs[i], fs[k], dij, djk];
        const m = (A.module + B.module + C.module) / 3;
        if (l1 / l2 > 1.6 || l2 / l1 > 1.6) continue;
        if (Math.min(l1, l2) < 10 * m || Math.max(l1, l2) > maxLeg * m) continue;
        const cos = ((A.x - B.x) * (C.x - B.x) + (A.y - B.y) * (C.y - B.y)) / (l1 * l2);
        if (Math.abs(cos) > 0.5) continue;
        // the fourth corner, and the box of all four grown by 8 modules and a quarter leg (quiet zone, perspective)
        const Dx = A.x + C.x - B.x;
        const Dy = A.y + C.y - B.y;
        const grow = 8 * m + 0.25 * Math.max(l1, l2);
        const box: [number, number, number, number] = [
          Math.max(0, Math.floor(Math.min(A.x, B.x, C.x, Dx) - grow)),
          Math.max(0, Math.floor(Math.min(A.y, B.y, C.y, Dy) - grow)),
          Math.min(width, Math.ceil(Math.max(A.x, B.x, C.x, Dx) + grow)),
          Math.min(height, Math.ceil(Math.max(A.y, B.y, C.y, Dy) + grow)),
        ];
        scored.push({ region: { box, module: m }, score: A.hits + B.hits + C.hits - 20 * Math.abs(cos) });
      }
    }
  }
  scored.sort((a, b) => b.score - a.score);
  const out: SymbolRegion[] = [];
  for (const { region } of scored) {
    const cx = (region.box[0] + region.box[2]) / 2;
    const cy = (region.box[1] + region.box[3]) / 2;
    if (out.some(({ box: [a, b, c, e] }) => cx >= a && cy >= b && cx <= c && cy <= e)) continue;
    out.push(region);
    if (out.length >= max) break;
  }
  return out;
}
