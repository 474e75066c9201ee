export interface Pcm16 {
  /** Interleaved 16-bit samples. */
  samples: Int16Array;
  sampleRate: number;
  channels: number;
}

/** Parses a PCM 16-bit WAV (RIFF/WAVE, format 1 or extensible) into its samples. */
export function readWavPcm16(buf: Buffer): Pcm16 {
  if (buf.length < 12 || buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("not a RIFF/WAVE file");
  }
  let offset = 12;
  let fmt: { format: number; channels: number; sampleRate: number; bits: number } | null = null;
  while (offset + 8 <= buf.length) {
    const id = buf.toString("ascii", offset, offset + 4);
    let size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      fmt = { format: buf.readUInt16LE(body), channels: buf.readUInt16LE(body + 2), sampleRate: buf.readUInt32LE(body + 4), bits: buf.readUInt16LE(body + 14) };
    } else if (id === "data") {
      if (!fmt) throw new Error("WAV data chunk before fmt chunk");
      // a writer that could not seek back leaves the size 0 or 0xFFFFFFFF: the data runs to the end
      if (size === 0 || size === 0xffffffff || body + size > buf.length) size = buf.length - body;
      if ((fmt.format !== 1 && fmt.format !== 0xfffe) || fmt.bits !== 16) throw new Error(`unsupported WAV encoding (format ${fmt.format}, ${fmt.bits} bit)`);
      const usable = size - (size % (2 * fmt.channels));
      const samples = new Int16Array(usable / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = buf.readInt16LE(body + i * 2);
      return { samples, sampleRate: fmt.sampleRate, channels: fmt.channels };
    }
    offset = body + size + (size % 2);
  }
  throw new Error("WAV file has no data chunk");
}
