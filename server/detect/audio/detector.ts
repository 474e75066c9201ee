// The audio-segment detector: silence check → Silero VAD → (speech → transcript + lists) ∥ fingerprints ∥ song measure.
import { existsSync } from "node:fs";
import { findOnPath } from "../../ingest/resolve";
import type { Capability } from "../types";
import { listsFor, matchKnownAudio } from "./known";
import { peakFrameDb, readMonoWav, type MonoAudio } from "./pcm";
import { AUDIO_POLICY } from "./policy";
import { Limiter } from "./queue";
import { thresholdsReader, type Thresholds } from "../settings/thresholds";
import { audioCapabilityTable, engineForAudioType, type EngineStatus } from "./registry";
import { isSong, pitchTrack, songFeatures, songProbability } from "./song";
import { SpeechText } from "./speech-text";
import type { AudioDetector, AudioDetectorOptions, SegmentInput, SegmentVerdict } from "./types";
import { SileroVad } from "./vad";
import { buildAudioVerdict, type AudioHit, type AudioVerdictParts } from "./verdict";

const P = AUDIO_POLICY;

/** The segment is not a 16 kHz 16-bit PCM WAV. */
export class InvalidAudioError extends Error {
  override name = "InvalidAudioError";
}

export class AudioSegmentDetector implements AudioDetector {
  private readonly limiter: Limiter;
  private readonly speech: SpeechText;
  private readonly fpcalc: string | null;
  private readonly thresholds: () => Thresholds;
  private vad?: SileroVad;
  private started?: Promise<void>;

  constructor(private readonly o: AudioDetectorOptions) {
    this.limiter = new Limiter(o.concurrency ?? P.queue.concurrency, o.queueLimit ?? P.queue.limit);
    const ps = o.bins?.pocketsphinx ?? findOnPath("pocketsphinx_continuous") ?? "/usr/bin/pocketsphinx_continuous";
    this.speech = new SpeechText({ transcriber: o.transcriber ?? { kind: "moonshine" }, pocketsphinx: ps, dataDir: o.dataDir, keywordsDir: o.keywordsDir, policyDir: o.policyDir });
    this.thresholds = thresholdsReader(o.policyDir);
    this.fpcalc = o.bins?.fpcalc ?? findOnPath("fpcalc");
  }

  ready(): Promise<void> {
    this.started ??= (async () => {
      this.vad = await SileroVad.load();
      await this.speech.init();
    })();
    return this.started;
  }

  private status(): EngineStatus {
    const fp = !this.fpcalc || !existsSync(this.fpcalc) ? "fpcalc not found (Debian: apt-get install libchromaprint-tools)" : undefined;
    const textWhy = this.speech.unavailable();
    return {
      text: { available: !textWhy, engine: this.speech.engineName, why: textWhy },
      known: {
        available: !fp && !!this.o.references,
        engine: "chromaprint fpcalc 1.5 (-raw) + sliding bit-error match against reference tracks",
        why: fp ?? (this.o.references ? undefined : "no reference tracks configured (AudioDetectorOptions.references)"),
      },
      song: { available: true, engine: "YIN pitch track (8 kHz, 20 ms frames) + held-note ratio" },
    };
  }

  capabilities(): Capability[] {
    return audioCapabilityTable(this.status());
  }

  detectSegment(input: SegmentInput): Promise<SegmentVerdict> {
    return this.limiter.run(async () => {
      await this.ready();
      return this.detect(input);
    });
  }

  async close(): Promise<void> {
    await this.limiter.close();
    if (this.started) await this.started.catch(() => undefined);
    await this.vad?.close();
    this.vad = undefined;
    await this.speech.close();
  }

  private async detect(input: SegmentInput): Promise<SegmentVerdict> {
    const t0 = performance.now();
    const timingsMs: Record<string, number> = {};
    const status = this.status();
    const requested = [...new Set([...input.types, ...input.businessTypes])];
    const applied: string[] = [];
    const notApplied: string[] = [];
    for (const t of requested) {
      const engine = engineForAudioType(t);
      if (t === "NONE" || (engine && status[engine].available)) applied.push(t);
      else notApplied.push(t);
    }
    const on = new Set(applied);
    const wantText = applied.some((t) => engineForAudioType(t) === "text");
    const wantKnown = applied.some((t) => engineForAudioType(t) === "known");
    const wantSong = on.has("SING");

    let audio: MonoAudio;
    try {
      audio = await readMonoWav(input.wavPath);
    } catch (err) {
      throw new InvalidAudioError(`${input.wavPath}: ${(err as Error).message}`);
    }
    if (audio.sampleRate !== 16000) throw new InvalidAudioError(`${input.wavPath}: ${audio.sampleRate} Hz, expected 16000 Hz`);
    timingsMs.decode = Math.round(performance.now() - t0);

    const parts: AudioVerdictParts = {
      hits: [], lang: input.lang ?? "zh", vadCode: 0, silent: false, confidenceLevels: P.businessConfidence, applied, notApplied, timingsMs,
    };
    const songOut = (value: 0 | 1, probability: number) => ({
      value, probability, tag: wantSong, business: input.businessTypes.includes("SING") ? P.song.businessLabels : undefined,
    });
    if (peakFrameDb(audio.samples, audio.sampleRate) < P.silenceDb) {
      // silence: nothing can be in it, whatever was asked
      parts.silent = true;
      if (wantSong) parts.song = songOut(0, 0);
      timingsMs.total = Math.round(performance.now() - t0);
      return buildAudioVerdict(parts);
    }

    const tv = performance.now();
    const vad = await this.vad!.detect(audio.samples, audio.sampleRate, P.vad);
    timingsMs.vad = Math.round(performance.now() - tv);
    parts.vadCode = vad.speechSec >= P.vad.minSpeechSec ? 1 : 0;

    const timed = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
      const s = performance.now();
      const r = await fn();
      timingsMs[key] = Math.round(performance.now() - s);
      return r;
    };
    const [text, known, song] = await Promise.all([
      wantText && parts.vadCode === 1 ? this.speech.run(audio, input.wavPath, on, input.previousText, vad.spans) : undefined,
      wantKnown ? timed("fingerprint", () => matchKnownAudio(input.wavPath, this.o.references!, listsFor(on), { fpcalc: this.fpcalc!, timeoutMs: P.stt.timeoutMs, thresholds: this.thresholds() })) : undefined,
      wantSong ? timed("song", async () => songFeatures(await pitchTrack(audio.samples, audio.sampleRate, P.song), P.song)) : undefined,
    ]);
    const hits: AudioHit[] = [];
    if (text) {
      hits.push(...text.hits);
      Object.assign(timingsMs, text.timingsMs);
      parts.text = text.text;
      parts.segmentText = text.segmentText;
    }
    if (known) hits.push(...known.hits);
    if (song) parts.song = songOut(isSong(song, P.song) ? 1 : 0, songProbability(song, P.song));
    parts.hits = hits;
    timingsMs.total = Math.round(performance.now() - t0);
    return buildAudioVerdict(parts);
  }
}
