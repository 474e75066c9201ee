import { SILENCE_DB } from "./energy";

/** What a live pull is receiving right now (times are ms since epoch). */
export interface LiveMeterReading {
  /** last input packet ffmpeg read (frames and audio samples when it prints none); null before any */
  lastMediaAt: number | null;
  /** input video frames per second of media, over the packets read in the last WINDOW_MS; null without video */
  inputFps: number | null;
  /** input bitrate of every track (kbit/s of media), over the same packets */
  inputKbps: number | null;
  /** level of the last second of audio (dBFS); null before a second of audio */
  audioDb: number | null;
  /** since when every second of audio has been below the silence level; null when not silent */
  silentSince: number | null;
  /** seconds of audio this pull has received (0 before any) */
  audioSec: number;
}

/** Packets read in this much wall time make one reading: an HLS segment arrives whole, so rates use media time. */
const WINDOW_MS = 5000;
const LEVEL_SAMPLES_PER_SEC = 16_000;

interface Packet {
  at: number;
  video: boolean;
  dts: number | null;
  size: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Input fps and bitrate from the packets ffmpeg reads (`-dump` lines), and the audio level from the PCM
 * the pull already receives (16 kHz mono s16le). Rates are measured over media time (dts), so a burst of
 * buffered packets does not read as a high frame rate.
 */
export class LiveMeter {
  private packets: Packet[] = [];
  private lastPacket: number | null = null;
  /** output (frames, samples) also flows when ffmpeg flushes at its exit: media only for inputs without packet lines */
  private lastOutput: number | null = null;
  private level: number | null = null;
  private silentFrom: number | null = null;
  private sumSquares = 0;
  private samples = 0;
  private totalSamples = 0;
  private carry: number | null = null;

  constructor(
    private readonly silentBelowDb: number,
    private readonly videoIndex: () => number | null,
  ) {}

  media(now = Date.now()): void {
    this.lastOutput = now;
  }

  private get lastMedia(): number | null {
    return this.lastPacket ?? this.lastOutput;
  }

  packet(stream: number, dts: number | null, size: number, now = Date.now()): void {
    this.lastPacket = now;
    this.packets.push({ at: now, video: stream === this.videoIndex(), dts, size });
    if (this.packets.length > 4096 || this.packets[0].at < now - 2 * WINDOW_MS) this.prune(now);
  }

  /** Raw s16le mono samples, in any chunking (a sample split across chunks is carried). */
  pcm(chunk: Buffer, now = Date.now()): void {
    this.lastOutput = now;
    let i = 0;
    if (this.carry !== null && chunk.length > 0) {
      this.addSample(Buffer.from([this.carry, chunk[0]]).readInt16LE(0), now);
      this.carry = null;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) this.addSample(chunk.readInt16LE(i), now);
    if (i < chunk.length) this.carry = chunk[i];
  }

  reading(now = Date.now()): LiveMeterReading {
    this.prune(now);
    const video = this.packets.filter((p) => p.video);
    return {
      lastMediaAt: this.lastMedia,
      // nothing read yet (connecting): unknown; nothing read in the window: 0
      inputFps: this.videoIndex() === null || this.lastPacket === null ? null : video.length ? rate(video, (p) => (p === video[0] ? 0 : 1)) : 0,
      inputKbps: this.lastPacket === null ? null : this.packets.length ? rate(this.packets, (p) => (p.size * 8) / 1000) : 0,
      audioDb: this.level,
      silentSince: this.silentFrom,
      audioSec: round1(this.totalSamples / LEVEL_SAMPLES_PER_SEC),
    };
  }

  private prune(now: number): void {
    const from = now - WINDOW_MS;
    let drop = 0;
    while (drop < this.packets.length && this.packets[drop].at < from) drop++;
    if (drop) this.packets = this.packets.slice(drop);
    if (this.packets.length > 4096) this.packets = this.packets.slice(-4096);
  }

  private addSample(v: number, now: number): void {
    const x = v / 32768;
    this.sumSquares += x * x;
    this.totalSamples++;
    if (++this.samples < LEVEL_SAMPLES_PER_SEC) return;
    const meanSquare = this.sumSquares / this.samples;
    this.level = meanSquare > 0 ? round1(Math.max(SILENCE_DB, 10 * Math.log10(meanSquare))) : SILENCE_DB;
    this.sumSquares = 0;
    this.samples = 0;
    if (this.level >= this.silentBelowDb) this.silentFrom = null;
    else this.silentFrom ??= now - 1000;
  }
}

/**
 * Amount per second of media over the packets' dts span (their wall-time span when the input gives no dts).
 * `amount(p)` is what each packet adds: frames count the intervals between them, so the first adds 0.
 */
function rate(packets: Packet[], amount: (p: Packet) => number): number {
  const total = packets.reduce((sum, p) => sum + amount(p), 0);
  const dts = packets.map((p) => p.dts).filter((d): d is number => d !== null);
  let spanSec = dts.length >= 2 ? Math.max(...dts) - Math.min(...dts) : 0;
  if (spanSec <= 0 || spanSec > 60) spanSec = (packets[packets.length - 1].at - packets[0].at) / 1000;
  return spanSec > 0 ? round1(total / spanSec) : 0;
}
