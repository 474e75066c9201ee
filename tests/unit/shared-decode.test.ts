// One decode per frame (issue #28): QR's fallback passes and OCR read the frame's shared decode only when it is
// exactly the plain decode they would make themselves; otherwise (rotated by EXIF, larger than the shared decode's
// bound, undecodable) they decode on their own.
import assert from "node:assert/strict";
import { test } from "node:test";
import sharp from "sharp";
import { fullSizeRgb, type Frame } from "../../server/detect/engines/engine";
import { decodeRgb } from "../../server/detect/engines/human";

const jpeg = (width: number, height: number, orientation?: number) =>
  sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .jpeg({ quality: 80 })
    .withMetadata(orientation ? { orientation } : {})
    .toBuffer();

async function frameOf(bytes: Buffer): Promise<Frame> {
  const meta = await sharp(bytes).metadata();
  let pixels: ReturnType<typeof decodeRgb> | undefined;
  return { jpeg: bytes, width: meta.autoOrient?.width ?? meta.width!, height: meta.autoOrient?.height ?? meta.height!, rgb: () => (pixels ??= decodeRgb(bytes)), upright: (meta.orientation ?? 1) === 1 };
}

test("a plain 720p JPEG: the shared decode is byte for byte the engines' own", async () => {
  const bytes = await jpeg(1280, 720);
  const shared = await fullSizeRgb(await frameOf(bytes));
  assert.ok(shared);
  assert.deepEqual([shared.width, shared.height, shared.data.length], [1280, 720, 1280 * 720 * 3]);
  assert.equal(Buffer.compare(Buffer.from(shared.data), await sharp(bytes).removeAlpha().raw().toBuffer()), 0);
});

test("rotated by EXIF, larger than the shared decode's bound, or undecodable: the engine decodes itself", async () => {
  assert.equal(await fullSizeRgb(await frameOf(await jpeg(640, 360, 6))), undefined, "EXIF orientation 6");
  // decoded down to 2048 on the long side, its width rounds back to 1000: still refused
  assert.equal(await fullSizeRgb(await frameOf(await jpeg(1000, 2049))), undefined, "1000 × 2049");
  const whole = await jpeg(320, 240);
  const damaged = await frameOf(Buffer.concat([whole.subarray(0, whole.length >> 1)]));
  assert.equal(await fullSizeRgb(damaged), undefined, "a truncated JPEG");
});
