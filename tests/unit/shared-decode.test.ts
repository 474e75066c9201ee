// One decode per frame (issue #28): QR (its first pass too) and OCR read the frame's shared decode only when it is
// exactly the plain decode they would make themselves; otherwise (rotated by EXIF, larger than the shared decode's
// bound, undecodable) they decode on their own.
import assert from "node:assert/strict";
import { test } from "node:test";
import sharp from "sharp";
import { fullSizeRgb, type Frame, type FullRgb } from "../../server/detect/engines/engine";
import { decodeRgb } from "../../server/detect/engines/human";
import { QrCodeEngine, readQrCodes } from "../../server/detect/engines/qrcode";
import { DEFAULT_THRESHOLDS } from "../../server/detect/settings/thresholds";
import { qrFrame } from "../bench/detectors";

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

test("QR's first pass reads the shared decode when there is one, the JPEG itself when there is none", async () => {
  const [a, b] = await Promise.all([qrFrame("https://spam.example/in-the-jpeg"), qrFrame("https://spam.example/in-the-shared-pixels")]);
  const pixelsOf = async (bytes: Buffer): Promise<FullRgb> => {
    const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  };
  // the shared pixels are another frame's: what is read shows which the first pass saw
  const fromShared = await readQrCodes(new Uint8Array(a), "full", () => pixelsOf(b));
  assert.deepEqual(fromShared.codes.map((c) => [c.text, c.pass]), [["https://spam.example/in-the-shared-pixels", "zxing"]]);
  const own = await readQrCodes(new Uint8Array(a), "full", async () => undefined);
  assert.deepEqual(own.codes.map((c) => [c.text, c.pass]), [["https://spam.example/in-the-jpeg", "zxing"]]);
  // through the engine, with the frame's real shared decode: the same code at the same place as from the JPEG alone
  const engine = new QrCodeEngine();
  const seen = await engine.run(await frameOf(a), new Set(["QRCODE"]), { imgTypes: new Set(["QRCODE"]), businessTypes: new Set(), thresholds: DEFAULT_THRESHOLDS });
  const alone = await readQrCodes(new Uint8Array(a), "full");
  assert.deepEqual(seen.objects?.map((o) => [o.qrContent, o.location]), alone.codes.map((c) => [c.text, c.location]));
});
