/** One cut of a mono 16-bit PCM stream; samples are counted from the start of the stream. */
export interface PcmCut {
  /** Little-endian s16 mono samples. */
  pcm: Buffer;
  startSample: number;
  endSample: number;
}

/**
 * Cuts a raw s16le mono byte stream into chunks of exactly `segmentSamples` samples. Chunk boundaries of
 * the input are arbitrary (even mid-sample); the sample count, not arrival time, decides every cut.
 */
export class PcmSegmenter {
  private parts: Buffer[] = [];
  private held = 0;
  private consumedSamples = 0;
  private readonly segmentBytes: number;

  constructor(readonly segmentSamples: number) {
    if (!Number.isInteger(segmentSamples) || segmentSamples <= 0) throw new Error(`segmentSamples must be a positive integer (got ${segmentSamples})`);
    this.segmentBytes = segmentSamples * 2;
  }

  /** Samples received so far (whole samples only). */
  get receivedSamples(): number {
    return this.consumedSamples + Math.floor(this.held / 2);
  }

  push(chunk: Buffer): PcmCut[] {
    if (chunk.length === 0) return [];
    this.parts.push(chunk);
    this.held += chunk.length;
    const out: PcmCut[] = [];
    while (this.held >= this.segmentBytes) out.push(this.take(this.segmentBytes));
    return out;
  }

  /** At end of stream: the remainder as a last, shorter cut when it has at least `minSamples`, else null. */
  flush(minSamples: number): PcmCut | null {
    const whole = this.held - (this.held % 2);
    const cut = whole >= Math.max(2, minSamples * 2) ? this.take(whole) : null;
    this.parts = [];
    this.held = 0;
    return cut;
  }

  private take(bytes: number): PcmCut {
    const all = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.held);
    const pcm = Buffer.from(all.subarray(0, bytes));
    const rest = all.subarray(bytes);
    this.parts = rest.length ? [rest] : [];
    this.held = rest.length;
    const startSample = this.consumedSamples;
    this.consumedSamples += bytes / 2;
    return { pcm, startSample, endSample: this.consumedSamples };
  }
}

/** A canonical 44-byte-header PCM WAV around little-endian s16 samples. */
export function encodeWavPcm16(pcm: Buffer, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = channels * 2;
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/** The samples of a little-endian s16 buffer (copied, so alignment of the source does not matter). */
export function pcmToInt16(pcm: Buffer): Int16Array {
  const out = new Int16Array(Math.floor(pcm.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = pcm.readInt16LE(i * 2);
  return out;
}
