// No work twice (issue #28 item 4): a live frame whose pixels are unchanged from the last frame of the same stream
// that went through the detectors reuses that frame's verdict. "Unchanged" is a near-exact pixel check at full
// resolution, never a perceptual hash: a small overlay (a QR code, a line of text) moves it.
import sharp from "sharp";
import type { FrameVerdict } from "../detect";

/** No sample (one colour channel of one pixel) may differ by more than this many levels of 255. */
export const REUSE_MAX_SAMPLE_DIFF = 8;
/** …and no 8 × 8 block may differ by more than this many levels on average (per sample). */
export const REUSE_MAX_BLOCK_MEAN_DIFF = 1;
/** A verdict is reused for at most this long after its frame was detected; then the stream's frame is detected again. */
export const REUSE_MAX_AGE_MS = 60_000;
const BLOCK = 8;

export interface FramePixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/** The frame's decoded pixels (RGB, full resolution) for the comparison. */
export async function framePixels(jpeg: Uint8Array): Promise<FramePixels> {
  const { data, info } = await sharp(jpeg).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * True when b's pixels are a's within the limits above: every sample within REUSE_MAX_SAMPLE_DIFF and every 8 × 8
 * block's mean difference within REUSE_MAX_BLOCK_MEAN_DIFF. Different sizes are never unchanged.
 */
export function pixelsUnchanged(a: FramePixels, b: FramePixels): boolean {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) return false;
  if (a.data.equals(b.data)) return true;
  const { width: w, height: h, channels: c } = a;
  const rowBlocks = Math.ceil(w / BLOCK);
  const sums = new Float64Array(rowBlocks);
  const counts = new Uint32Array(rowBlocks);
  const limit = REUSE_MAX_BLOCK_MEAN_DIFF;
  for (let y = 0; y < h; y++) {
    const row = y * w * c;
    for (let x = 0; x < w; x++) {
      const bi = (x / BLOCK) | 0;
      for (let k = 0, i = row + x * c; k < c; k++, i++) {
        const d = Math.abs(a.data[i] - b.data[i]);
        if (d > REUSE_MAX_SAMPLE_DIFF) return false;
        sums[bi] += d;
      }
      counts[bi] += c;
    }
    // a band of blocks is complete at every 8th row and at the last one
    if ((y + 1) % BLOCK === 0 || y === h - 1) {
      for (let bi = 0; bi < rowBlocks; bi++) if (counts[bi] && sums[bi] / counts[bi] > limit) return false;
      sums.fill(0);
      counts.fill(0);
    }
  }
  return true;
}

/** The stream's last detected frame: its pixels, verdict and what it was checked for. */
export interface DetectedFrame {
  index: number;
  pixels: FramePixels;
  verdict: FrameVerdict;
  /** the imgBusinessTypes it was detected with (a verdict only stands for the same request) */
  businessKey: string;
  detectedAt: number;
}

/** Per stream: the last detected frame, and the check whether a new frame may reuse its verdict. */
export class FrameReuse {
  private last: DetectedFrame | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** A frame went through the detectors: the one later frames are compared with (the newest index wins). */
  detected(d: DetectedFrame): void {
    if (!this.last || d.index > this.last.index) this.last = d;
  }

  /** The detected frame whose verdict `pixels` may reuse, or null. */
  match(pixels: FramePixels, businessKey: string): DetectedFrame | null {
    const last = this.last;
    if (!last || last.businessKey !== businessKey || this.now() - last.detectedAt > REUSE_MAX_AGE_MS) return null;
    return pixelsUnchanged(last.pixels, pixels) ? last : null;
  }
}
