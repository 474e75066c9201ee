// PDQ (server/detect/pdq.ts) against the C++ reference: the same raw pixels give the same 256 bits and quality.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { suite, test } from "node:test";
import { promisify } from "node:util";
import { pdqHamming, pdqOfPixels, type Dihedral } from "../../server/detect/pdq";

/**
 * Expected hash and quality: printed by facebook/ThreatExchange pdq/cpp at commit
 * baefb4ed67b6cdc1d4c82dbaef858d50866ac424 for these pixels written as PPM / PGM (`pdq-photo-hasher`, which decodes
 * them losslessly; the 1280×720 image through the same library's pdqDihedralHash256esFromFloatLuma, because
 * pdq-photo-hasher first squeezes anything over 512 px to 512×512). Tolerance: 0 bits. Every float step here is
 * rounded to float32 as the reference's `float` code is, so even the near-median coefficients of the flat image
 * (all rounding noise) land on the same side; a difference of any bit means the arithmetic drifted from the reference.
 */
interface Case {
  name: string;
  image: () => Promise<Raw>;
  hash: string;
  quality: number;
  /** reference hashes of dihedral variants computed from the same DCT */
  variants?: Partial<Record<Dihedral, string>>;
}
interface Raw {
  px: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3;
}

/** xorshift32 in [0, 1): the same sequence everywhere. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

function synth(width: number, height: number, channels: 1 | 3, fn: (x: number, y: number, k: number) => number): () => Promise<Raw> {
  return async () => {
    const px = new Uint8Array(width * height * channels);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) for (let k = 0; k < channels; k++) px[(y * width + x) * channels + k] = Math.max(0, Math.min(255, Math.round(fn(x, y, k))));
    return { px, width, height, channels };
  };
}

const waves = (x: number, y: number, k: number) => (k === 0 ? 128 + 127 * Math.sin(x / 9 + y / 23) : k === 1 ? (255 * x) / 300 : 128 + 100 * Math.cos(Math.hypot(x - 150, y - 80) / 11));

/** 8×8 blocks of random colour plus ±8 grain. */
function blocks(seed: number): (x: number, y: number, k: number) => number {
  const r = rng(seed);
  const cells = Array.from({ length: 4096 }, () => [r() * 255, r() * 255, r() * 255]);
  const grain = rng(seed + 1);
  return (x, y, k) => cells[((y >> 3) * 64 + (x >> 3)) % 4096][k] + (grain() - 0.5) * 16;
}

/**
 * One frame of an ffmpeg lavfi source as raw RGB. The expected hashes were made from ffmpeg 5.1's rendering; another
 * version may draw the pattern differently, so the rendered bytes' digest says whether the expectation still applies.
 */
function lavfi(source: string, width: number, height: number, sha256: string): () => Promise<Raw | string> {
  return async () => {
    const { stdout } = await promisify(execFile)("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", `${source}=size=${width}x${height}:rate=1`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], { encoding: "buffer", maxBuffer: 16 << 20 });
    const digest = createHash("sha256").update(stdout).digest("hex");
    return digest.startsWith(sha256) ? { px: new Uint8Array(stdout), width, height, channels: 3 } : `this ffmpeg renders ${source} differently (sha256 ${digest.slice(0, 16)})`;
  };
}

const noise = rng(42);
const CASES: Array<Omit<Case, "image"> & { image: () => Promise<Raw | string> }> = [
  {
    name: "waves 300×200", image: synth(300, 200, 3, waves), quality: 100,
    hash: "a95583d7a95503d7a95503d7a95503d7a95503d7a95d03dda955037d568a7c28",
    variants: {
      rotate90: "ffe8fffcffa9fffceaa9fffc555600035553c0030005e0030037e5035542e403",
      rotate180: "fc00297dfc00a97dfc00a97dfc00a97dfc00a97dfc08a977fc00a9d703dfd682",
      rotate270: "bffd5556fffc5556fffc55560003aaa90007aaa95550aaa95562aaa90017aaa9",
      flipX: "a9557c28a955fc28a955fc28a955fc28a955fc28a95dfc22a955fc82568a83d7",
      flipY: "fc55fed7fc15f682fc00f687fc00f686fc00d682fc085688fc00562803df29fd",
      flipPlus1: "eaa80003aaa90003aaa900035556fffc5552fffc0005fffc0037fffc5542fffc",
      flipMinus1: "bffdaaa9fffcaaa9fffcaaa90003555600075556555055565562555600175556",
    },
  },
  { name: "random blocks 257×129 (odd size)", image: synth(257, 129, 3, blocks(7)), quality: 100, hash: "2b3c2d2eacb253d9b4096d31b03bc6784d79d572abef9094ef065a890eae7828" },
  // flat: every coefficient is float rounding noise, so only identical arithmetic gives these bits
  { name: "flat grey 100×100", image: synth(100, 100, 3, () => 128), quality: 0, hash: "000000002c4b11342c4b2c4b0000554b00002c4b113411342c4b585e2c4b017e" },
  { name: "noise 37×23 (upsampled)", image: synth(37, 23, 3, () => noise() * 255), quality: 100, hash: "89e5dfea1c089ad63a320c5ff981debe88a7694e06c18f1752959cdb48b614b6" },
  { name: "blocks 64×64 (no filtering)", image: synth(64, 64, 3, blocks(11)), quality: 100, hash: "27918ca74ad2d4ea0b9fd0fa61bccce6839a33999ec32f0574e0ab95252d72d8" },
  { name: "grey (1 channel) 200×150", image: synth(200, 150, 1, (x, y) => waves(x, y, 0) * 0.5 + waves(x, y, 2) * 0.5), quality: 100, hash: "2bb10039abb10039aff10039afe10539eff10539eff30029f7f65537556eaac4" },
  { name: "waves 1280×720", image: synth(1280, 720, 3, (x, y, k) => waves(x / 4, y / 3.6, k)), quality: 100, hash: "f2aad787f2aad787d2aa5686d2aa568652a8468652a8069952a206ffaf55b979" },
  { name: "4×4 (under the minimum size)", image: synth(4, 4, 3, () => 200), quality: 0, hash: "0".repeat(64) },
  {
    name: "ffmpeg testsrc2 320×240", image: lavfi("testsrc2", 320, 240, "091e229ee0bdd400"), quality: 100,
    hash: "9a144d52cc2866a823d5b35331e329a36cc5e4cfc66ada38b3399934bc3efc5c",
    variants: { flipY: "cf411807997d33fd7680e60664967cf61990319a931f8f6de66ccc61e96ba909", rotate90: "a43f8f0e1f4b79e0e1978f1c9c38b0f31bc0b11e311e33e0307b77384762f037" },
  },
  { name: "ffmpeg mandelbrot 256×256", image: lavfi("mandelbrot", 256, 256, "1f021cbd40e4143e"), quality: 100, hash: "6d39dda19ca6923d635966c2ad9b2d195721bcf28a86e52b9a585ab47544b549" },
  { name: "ffmpeg smptehdbars 480×270", image: lavfi("smptehdbars", 480, 270, "2888dc6c68bba5c4"), quality: 100, hash: "e0f11d29c7c6b07100464f8e3839e2d61f0a7da9e2d61d2b5da1e2d61939e7c7" },
];

suite("PDQ vs the reference implementation", () => {
  for (const c of CASES) {
    test(c.name, async (t) => {
      const raw = await c.image();
      if (typeof raw === "string") return t.skip(raw);
      const variants = Object.keys(c.variants ?? {}) as Dihedral[];
      const got = pdqOfPixels(raw.px, raw.width, raw.height, raw.channels, variants);
      assert.equal(pdqHamming(got.hash, c.hash), 0, `${got.hash} vs reference ${c.hash}`);
      assert.equal(got.hash, c.hash);
      assert.equal(got.quality, c.quality);
      for (const d of variants) assert.equal(got.variants[d], c.variants![d], d);
    });
  }
});

suite("PDQ properties", () => {
  test("the mirror variant is close to the hash of the mirrored pixels; other images are far", async () => {
    const a = await synth(300, 200, 3, waves)();
    const mirrored = await synth(300, 200, 3, (x, y, k) => waves(299 - x, y, k))();
    const h = pdqOfPixels(a.px, a.width, a.height, a.channels, ["flipY"]);
    const m = pdqOfPixels(mirrored.px, mirrored.width, mirrored.height, mirrored.channels);
    assert.ok(pdqHamming(h.variants.flipY, m.hash) <= 8, String(pdqHamming(h.variants.flipY, m.hash)));
    assert.ok(pdqHamming(h.hash, m.hash) > 64);
    const other = await synth(300, 200, 3, blocks(3))();
    assert.ok(pdqHamming(h.hash, pdqOfPixels(other.px, 300, 200, 3).hash) > 64);
  });
  test("RGBA input ignores alpha", async () => {
    const a = await synth(120, 90, 3, blocks(5))();
    const rgba = new Uint8Array(120 * 90 * 4);
    for (let i = 0; i < 120 * 90; i++) rgba.set([...a.px.subarray(i * 3, i * 3 + 3), i & 255], i * 4);
    assert.equal(pdqOfPixels(rgba, 120, 90, 4).hash, pdqOfPixels(a.px, 120, 90, 3).hash);
  });
  test("Hamming distance over 256 bits", () => {
    assert.equal(pdqHamming("f".repeat(64), "0".repeat(64)), 256);
    assert.equal(pdqHamming(`8${"0".repeat(62)}1`, "0".repeat(64)), 2);
  });
});
