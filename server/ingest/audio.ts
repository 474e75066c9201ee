import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { PROBE_LIMITS, fileInputOptions, runFfmpeg, type FileDemuxer } from "./ffmpeg";
import { readWavPcm16 } from "./wav";

export { measureSpeechEnergy } from "./energy";

export interface AudioSegment {
  /** 1-based. */
  index: number;
  startSec: number;
  endSec: number;
  /** 16 kHz mono 16-bit WAV. */
  path: string;
}

export interface AudioSegmentOptions {
  segmentSec?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The allowlisted demuxer probing found (MediaInfo.demuxer), forced; unset = any allowlisted one (fileInputOptions). */
  demuxer?: FileDemuxer | null;
}

export const AUDIO_SAMPLE_RATE = 16_000;
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const MIN_TAIL_SEC = 0.05;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Cuts the first audio stream into `segmentSec` WAVs (16 kHz mono) in one ffmpeg pass. Start and end
 * come from the samples actually written, so they are exact; the last segment may be shorter.
 * A file without audio → FfmpegError "no-stream". `file` is a local (downloaded) file, opened only with an
 * allowlisted demuxer (`opts.demuxer`, see fileInputOptions).
 */
export async function extractAudioSegments(file: string, outDir: string, opts: AudioSegmentOptions = {}): Promise<AudioSegment[]> {
  const segmentSec = opts.segmentSec && opts.segmentSec > 0 ? opts.segmentSec : 10;
  await mkdir(outDir, { recursive: true });
  const isSegment = (n: string) => /^segment-\d{5}\.wav$/.test(n);
  // stale segments from an earlier run would otherwise be read back as ours
  for (const stale of (await readdir(outDir)).filter(isSegment)) await rm(path.join(outDir, stale), { force: true });
  // 0.1 s packets so the segment muxer can cut exactly on segment boundaries.
  const filter = `aresample=${AUDIO_SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono,asetnsamples=n=${AUDIO_SAMPLE_RATE / 10}:p=0`;
  await runFfmpeg(
    [...fileInputOptions(opts.demuxer), ...PROBE_LIMITS, "-i", file, "-map", "0:a:0", "-vn", "-af", filter, "-c:a", "pcm_s16le", "-f", "segment", "-segment_time", String(segmentSec), "-segment_format", "wav", "-reset_timestamps", "1", "-segment_start_number", "1", "-y", path.join(outDir, "segment-%05d.wav")],
    { timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: opts.signal },
  );
  const names = (await readdir(outDir)).filter(isSegment).sort();
  const segments: AudioSegment[] = [];
  let samplesBefore = 0;
  for (const name of names) {
    const p = path.join(outDir, name);
    const { samples, sampleRate, channels } = readWavPcm16(await readFile(p));
    const frames = samples.length / channels;
    // encoder padding can spill a few samples past the last boundary into a near-empty extra file
    if (frames === 0 || (segments.length > 0 && frames < sampleRate * MIN_TAIL_SEC)) {
      await rm(p, { force: true });
      continue;
    }
    const startSec = samplesBefore / sampleRate;
    samplesBefore += frames;
    segments.push({ index: segments.length + 1, startSec: round3(startSec), endSec: round3(samplesBefore / sampleRate), path: p });
  }
  return segments;
}
