/**
 * Splits a concatenated JPEG byte stream (ffmpeg mjpeg → image2pipe) into whole images. It walks the
 * marker structure instead of searching for FF D9, so an EOI inside an APPn payload (EXIF thumbnail)
 * cannot end an image early; bytes outside an image (before an SOI) are skipped.
 */
export class JpegSplitter {
  private buf: Buffer = Buffer.alloc(0);
  /** Offset of the current image's SOI in `buf`, or -1 while searching for one. */
  private start = -1;
  /** Where parsing resumes inside the current image. */
  private pos = 0;
  /** True after SOS: scanning entropy-coded data for the next marker. */
  private inScan = false;
  /** Cap on one image; a stream that never closes an image is dropped rather than buffered forever. */
  constructor(private readonly maxImageBytes = 32 * 1024 * 1024) {}

  /** Feeds bytes; returns the images completed by them, in order. */
  push(chunk: Buffer): Buffer[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Buffer[] = [];
    for (;;) {
      if (this.start < 0 && !this.findSoi()) break;
      const end = this.scanImage();
      if (end === null) break;
      out.push(Buffer.from(this.buf.subarray(this.start, end)));
      this.buf = this.buf.subarray(end);
      this.start = -1;
    }
    this.compact();
    return out;
  }

  /** Bytes held for an unfinished image (for diagnostics and tests). */
  get pending(): number {
    return this.start < 0 ? 0 : this.buf.length - this.start;
  }

  private findSoi(): boolean {
    for (let i = 0; i + 1 < this.buf.length; i++) {
      if (this.buf[i] === 0xff && this.buf[i + 1] === 0xd8) {
        this.start = i;
        this.pos = i + 2;
        this.inScan = false;
        return true;
      }
    }
    // keep a trailing 0xFF: it may be the first half of an SOI split across chunks
    this.buf = this.buf.length && this.buf[this.buf.length - 1] === 0xff ? this.buf.subarray(this.buf.length - 1) : Buffer.alloc(0);
    return false;
  }

  /** Advances through the current image; returns the offset just past its EOI, or null when more bytes are needed. */
  private scanImage(): number | null {
    const b = this.buf;
    while (this.pos < b.length) {
      if (this.inScan) {
        const ff = b.indexOf(0xff, this.pos);
        if (ff < 0 || ff + 1 >= b.length) {
          this.pos = ff < 0 ? b.length : ff;
          return null;
        }
        const m = b[ff + 1];
        // FF00 is a stuffed data byte, FFD0–FFD7 restart markers, FFFF fill: all stay inside the scan
        if (m === 0x00 || (m >= 0xd0 && m <= 0xd7) || m === 0xff) {
          this.pos = m === 0xff ? ff + 1 : ff + 2;
          continue;
        }
        this.inScan = false;
        this.pos = ff;
        continue;
      }
      if (this.pos + 1 >= b.length) return null;
      if (b[this.pos] !== 0xff) {
        this.pos++; // tolerate junk between segments
        continue;
      }
      const m = b[this.pos + 1];
      if (m === 0xff) {
        this.pos++; // fill byte before a marker
        continue;
      }
      if (m === 0xd9) return this.pos + 2; // EOI
      if (m === 0xd8) {
        // a new SOI before this image ended: the previous one was truncated, start over here
        this.start = this.pos;
        this.pos += 2;
        continue;
      }
      if ((m >= 0xd0 && m <= 0xd7) || m === 0x01) {
        this.pos += 2; // markers without a length
        continue;
      }
      if (this.pos + 3 >= b.length) return null;
      const len = b.readUInt16BE(this.pos + 2);
      if (this.pos + 2 + len > b.length) return null;
      this.pos += 2 + len;
      if (m === 0xda) this.inScan = true; // SOS: entropy-coded data follows its header
    }
    return null;
  }

  /** Drops consumed bytes and gives up on an image that grew past the cap. */
  private compact(): void {
    if (this.start > 0) {
      this.buf = this.buf.subarray(this.start);
      this.pos -= this.start;
      this.start = 0;
    }
    if (this.start === 0 && this.buf.length > this.maxImageBytes) {
      this.buf = Buffer.alloc(0);
      this.start = -1;
    }
  }
}
