// Greyscale helpers of the QR reader's fallback passes (server/detect/engines/qrcode.ts), in plain JS on raw pixels.

/**
 * 0 where a pixel is darker than the mean of its (2r+1)² box (clipped at the edges) by more than `bias` grey levels,
 * else 255. Box sums run down the columns and along the row (each pixel read twice, no summed-area table).
 */
export function localMeanThreshold(grey: Uint8Array, width: number, height: number, r: number, bias = 2): Uint8Array {
  const out = new Uint8Array(width * height);
  // col[x]: sum of column x over the rows of the current window
  const col = new Int32Array(width);
  for (let y = 0; y < r && y < height; y++) {
    const o = y * width;
    for (let x = 0; x < width; x++) col[x] += grey[o + x];
  }
  const d = 2 * r + 1;
  for (let y = 0; y < height; y++) {
    const add = y + r;
    const sub = y - r - 1;
    if (add < height && sub >= 0) {
      const oa = add * width;
      const os = sub * width;
      for (let x = 0; x < width; x++) col[x] += grey[oa + x] - grey[os + x];
    } else {
      if (add < height) {
        const o = add * width;
        for (let x = 0; x < width; x++) col[x] += grey[o + x];
      }
      if (sub >= 0) {
        const o = sub * width;
        for (let x = 0; x < width; x++) col[x] -= grey[o + x];
      }
    }
    const rows = Math.min(add + 1, height) - Math.max(sub + 1, 0);
    const o = y * width;
    let s = 0;
    for (let x = 0; x < r && x < width; x++) s += col[x];
    let x = 0;
    // left edge (window clipped), interior (full window), right edge
    for (const xl = Math.min(r + 1, width); x < xl; x++) {
      if (x + r < width) s += col[x + r];
      out[o + x] = (grey[o + x] + bias) * Math.min(x + r + 1, width) * rows < s ? 0 : 255;
    }
    const area = d * rows;
    for (const xr = width - r; x < xr; x++) {
      s += col[x + r] - col[x - r - 1];
      out[o + x] = (grey[o + x] + bias) * area < s ? 0 : 255;
    }
    for (; x < width; x++) {
      if (x - r - 1 >= 0) s -= col[x - r - 1];
      out[o + x] = (grey[o + x] + bias) * (width - Math.max(0, x - r)) * rows < s ? 0 : 255;
    }
  }
  return out;
}

/** Luminance (BT.601, integer weights) of box [x1, y1, x2, y2) of interleaved 8-bit pixels (1–4 channels). */
export function lumaCrop(px: Uint8Array, width: number, channels: number, [x1, y1, x2, y2]: readonly number[]): Uint8Array {
  const w = x2 - x1;
  const out = new Uint8Array(w * (y2 - y1));
  for (let y = y1; y < y2; y++) {
    const o = (y - y1) * w;
    let i = (y * width + x1) * channels;
    if (channels < 3) {
      for (let x = 0; x < w; x++, i += channels) out[o + x] = px[i];
    } else {
      for (let x = 0; x < w; x++, i += channels) out[o + x] = (77 * px[i] + 150 * px[i + 1] + 29 * px[i + 2] + 128) >> 8;
    }
  }
  return out;
}

/** `s`× enlargement with bilinear interpolation (pixel centres aligned, edges clamped). */
export function upscaleBilinear(src: Uint8Array, w: number, h: number, s: number): Uint8Array {
  if (s === 1) return src;
  const W = w * s;
  const H = h * s;
  const out = new Uint8Array(W * H);
  // per output column: left source column and weight of the right one, in 1/256
  const x0 = new Int32Array(W);
  const fx = new Int32Array(W);
  for (let X = 0; X < W; X++) {
    const sx = Math.min(Math.max((X + 0.5) / s - 0.5, 0), w - 1);
    x0[X] = Math.min(Math.floor(sx), w - 2 < 0 ? 0 : w - 2);
    fx[X] = Math.round((sx - x0[X]) * 256);
  }
  const x1Off = w > 1 ? 1 : 0;
  for (let Y = 0; Y < H; Y++) {
    const sy = Math.min(Math.max((Y + 0.5) / s - 0.5, 0), h - 1);
    const y0 = Math.min(Math.floor(sy), h - 2 < 0 ? 0 : h - 2);
    const fy = Math.round((sy - y0) * 256);
    const a = y0 * w;
    const b = (h > 1 ? y0 + 1 : y0) * w;
    const o = Y * W;
    for (let X = 0; X < W; X++) {
      const xa = x0[X];
      const f = fx[X];
      const top = src[a + xa] * (256 - f) + src[a + xa + x1Off] * f;
      const bot = src[b + xa] * (256 - f) + src[b + xa + x1Off] * f;
      out[o + X] = (top * (256 - fy) + bot * fy + 32768) >> 16;
    }
  }
  return out;
}

/** One channel of interleaved pixels. */
export function channel(data: Uint8Array, channels: number, c: number): Uint8Array {
  const out = new Uint8Array(data.length / channels);
  for (let i = 0, j = c; i < out.length; i++, j += channels) out[i] = data[j];
  return out;
}

/** Greyscale pixels as a binary PGM: zxing's stb_image reads it without any decoding cost. */
export function pgm(data: Uint8Array, width: number, height: number): Uint8Array {
  const head = Buffer.from(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(head.length + data.length);
  out.set(head, 0);
  out.set(data, head.length);
  return out;
}
