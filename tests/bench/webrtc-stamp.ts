// A source-side clock in the picture, for glass → callback latency: each frame carries the wall-clock ms at which
// it was drawn (mod 2^32) as 4 rows × 16 black/white blocks over the top 40 % (rows 3–4 are rows 1–2 inverted: a
// frame whose blocks do not check out is skipped). Drawn by Node into raw frames (RTMP publisher) and by a page's
// canvas (WebRTC publisher); read back from the JPEG the service called back.
import sharp from "sharp";

export const STAMP_W = 640;
export const STAMP_H = 360;
const COLS = 16;
const ROWS = 4;
const ROW_H = Math.floor((STAMP_H * 0.4) / ROWS);

/** Bit i of the stamp: row 0 holds bits 0–15, row 1 bits 16–31; rows 2 and 3 their complements. */
function blockOn(stamp: number, row: number, col: number): boolean {
  const bit = ((stamp >>> ((row % 2) * 16 + col)) & 1) === 1;
  return row < 2 ? bit : !bit;
}

/** One rgb24 frame: the stamp blocks, and below them a bar moving with `frame` (so no two frames are equal). */
export function stampedFrame(stampMs: number, frame: number): Buffer {
  const buf = Buffer.alloc(STAMP_W * STAMP_H * 3, 96);
  const stamp = stampMs % 2 ** 32 >>> 0;
  const bw = STAMP_W / COLS;
  for (let y = 0; y < ROWS * ROW_H; y++) {
    const row = Math.floor(y / ROW_H);
    for (let x = 0; x < STAMP_W; x++) buf.fill(blockOn(stamp, row, Math.floor(x / bw)) ? 255 : 0, (y * STAMP_W + x) * 3, (y * STAMP_W + x) * 3 + 3);
  }
  const barX = (frame * 8) % STAMP_W;
  for (let y = ROWS * ROW_H + 20; y < STAMP_H; y++) buf.fill(200, (y * STAMP_W + barX) * 3, (y * STAMP_W + Math.min(STAMP_W, barX + 40)) * 3);
  return buf;
}

/** The same drawing as browser code (a function body taking `ctx`, `stampMs`, `frame`): kept beside the Node one. */
export const DRAW_STAMP_JS = `
  const W = ${STAMP_W}, H = ${STAMP_H}, COLS = ${COLS}, ROWS = ${ROWS}, ROW_H = ${ROW_H};
  const stamp = (stampMs % 4294967296) >>> 0;
  ctx.fillStyle = "rgb(96,96,96)"; ctx.fillRect(0, 0, W, H);
  for (let row = 0; row < ROWS; row++) for (let col = 0; col < COLS; col++) {
    const bit = ((stamp >>> ((row % 2) * 16 + col)) & 1) === 1;
    ctx.fillStyle = (row < 2 ? bit : !bit) ? "#fff" : "#000";
    ctx.fillRect(col * W / COLS, row * ROW_H, W / COLS, ROW_H);
  }
  ctx.fillStyle = "rgb(200,200,200)"; ctx.fillRect((frame * 8) % W, ROWS * ROW_H + 20, 40, H - ROWS * ROW_H - 20);
`;

/** Reads the stamp back from an image (any size: positions are relative); null when the blocks do not check out. */
export async function readStamp(image: Buffer): Promise<number | null> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  return readStampGray(data, info);
}

/** The same from an 8-bit grey picture already decoded. */
export function readStampGray(data: Uint8Array, info: { width: number; height: number }): number | null {
  const rowH = (info.height * 0.4) / ROWS;
  const bits: boolean[][] = [];
  for (let row = 0; row < ROWS; row++) {
    bits.push([]);
    for (let col = 0; col < COLS; col++) {
      const cx = Math.floor(((col + 0.5) * info.width) / COLS);
      const cy = Math.floor((row + 0.5) * rowH);
      let sum = 0;
      let n = 0;
      for (let dy = -3; dy <= 3; dy++) {
        for (let dx = -3; dx <= 3; dx++) {
          sum += data[(cy + dy) * info.width + cx + dx];
          n++;
        }
      }
      bits[row].push(sum / n > 128);
    }
  }
  for (let col = 0; col < COLS; col++) if (bits[0][col] === bits[2][col] || bits[1][col] === bits[3][col]) return null;
  let stamp = 0;
  for (let col = 0; col < COLS; col++) stamp += (bits[0][col] ? 2 ** col : 0) + (bits[1][col] ? 2 ** (16 + col) : 0);
  return stamp;
}

/** The full epoch ms of a stamp (ms mod 2^32) seen at `atMs`, shortly after it was drawn. */
export function unwrapStamp(stamp: number, atMs: number): number {
  const m = 2 ** 32;
  return atMs - ((((atMs % m) - stamp) % m) + m) % m;
}
