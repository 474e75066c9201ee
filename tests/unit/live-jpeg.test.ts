import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { JpegSplitter } from "../../server/ingest/live-jpeg";

const require = createRequire(import.meta.url);
const jpeg = require("jpeg-js") as {
  encode(img: { data: Buffer; width: number; height: number }, quality: number): { data: Buffer };
  decode(buf: Buffer, opts?: object): { width: number; height: number };
};

/** A real baseline JPEG of a noisy gradient (noise makes 0xFF bytes, hence FF00 stuffing, in the scan). */
function makeJpeg(width: number, height: number, seed: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  let s = seed;
  for (let i = 0; i < data.length; i += 4) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    data[i] = (i / 4) % 256;
    data[i + 1] = s >>> 24;
    data[i + 2] = (s >>> 16) & 0xff;
    data[i + 3] = 255;
  }
  return jpeg.encode({ data, width, height }, 90).data;
}

/** Inserts an APP1 segment whose payload holds a complete JPEG (as an EXIF thumbnail does) right after SOI. */
function withThumbnail(image: Buffer, thumb: Buffer): Buffer {
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), thumb]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([image.subarray(0, 2), header, payload, image.subarray(2)]);
}

/** Feeds `stream` in pieces cut at the given sizes (cycled) and collects every completed image. */
function split(stream: Buffer, sizes: number[]): Buffer[] {
  const s = new JpegSplitter();
  const out: Buffer[] = [];
  let pos = 0;
  for (let i = 0; pos < stream.length; i++) {
    const n = sizes[i % sizes.length];
    out.push(...s.push(stream.subarray(pos, pos + n)));
    pos += n;
  }
  assert.equal(s.pending, 0, "nothing left half-parsed");
  return out;
}

const a = makeJpeg(64, 48, 1);
const b = makeJpeg(32, 32, 2);
const c = makeJpeg(40, 24, 3);

test("the generated images are real JPEGs with stuffed 0xFF bytes in their scans", () => {
  assert.deepEqual([jpeg.decode(a).width, jpeg.decode(b).width, jpeg.decode(c).width], [64, 32, 40]);
  assert.ok(a.indexOf(Buffer.from([0xff, 0x00])) > 0, "FF00 stuffing present");
});

test("images come back byte-exact whatever the chunk boundaries", () => {
  const stream = Buffer.concat([a, b, c]);
  for (const sizes of [[stream.length], [1], [2], [3, 7, 1], [64, 1, 1, 500], [a.length - 1, 2], [a.length, b.length - 1, 1]]) {
    const images = split(stream, sizes);
    assert.equal(images.length, 3, `sizes ${sizes.join(",")}`);
    assert.ok(images[0].equals(a) && images[1].equals(b) && images[2].equals(c), `sizes ${sizes.join(",")}`);
  }
});

test("an EOI inside an APPn payload does not end the image early", () => {
  const big = withThumbnail(a, b);
  const images = split(Buffer.concat([big, c]), [5, 11]);
  assert.equal(images.length, 2);
  assert.ok(images[0].equals(big));
  assert.equal(jpeg.decode(images[0]).width, 64);
  assert.ok(images[1].equals(c));
});

test("junk before and between images is skipped, including a lone 0xFF at a chunk end", () => {
  const junk = Buffer.from([0x00, 0x12, 0xff, 0x00, 0xff]);
  const images = split(Buffer.concat([junk, a, junk, b]), [4, 1, 9]);
  assert.equal(images.length, 2);
  assert.ok(images[0].equals(a) && images[1].equals(b));
});

test("a truncated image followed by a new SOI yields only the complete image", () => {
  const sos = a.indexOf(Buffer.from([0xff, 0xda]));
  const truncated = a.subarray(0, sos + Math.floor((a.length - sos) / 2)); // cut inside the scan
  const images = split(Buffer.concat([truncated, b]), [100]);
  assert.equal(images.length, 1);
  assert.ok(images[0].equals(b));
});

test("an image that never ends is dropped at the size cap instead of buffering forever", () => {
  const s = new JpegSplitter(1000);
  const start = a.subarray(0, 600);
  assert.deepEqual(s.push(start), []);
  assert.deepEqual(s.push(a.subarray(600, 1200)), []);
  assert.equal(s.pending, 0, "dropped at the cap");
  assert.deepEqual(s.push(b).length, 1, "recovers on the next image");
});
