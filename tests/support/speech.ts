// Test audio for the audio detectors: synthetic speech (flite / espeak-ng), tones, noise, silence, tunes, a sung melody.
// Everything is generated on demand into tests/.media/audio (gitignored) and cached by a hash of its spec.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { readMonoWav } from "../../server/detect/audio/pcm";
import { mediaDir } from "./media";
import { prng } from "./prng";

const run = promisify(execFile);
/** Bump when generation changes, so cached files are rebuilt. */
const GENERATOR_VERSION = 2;
const RATE = 16000;

export type Voice = "slt" | "kal16" | "awb" | "rms" | "espeak" | "espeak-f";

function audioDir(): string {
  const dir = path.join(mediaDir(), "audio");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Runs `make(tmp)` unless the cached file exists; the result is renamed into place only when complete. */
async function cached(name: string, spec: unknown, ext: string, make: (tmp: string) => Promise<void>): Promise<string> {
  const key = createHash("sha256").update(JSON.stringify({ GENERATOR_VERSION, name, spec })).digest("hex").slice(0, 10);
  const file = path.join(audioDir(), `${name.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 40)}-${key}.${ext}`);
  if (existsSync(file)) return file;
  const tmp = `${file}.${randomBytes(4).toString("hex")}.part.${ext}`;
  try {
    await make(tmp);
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
  return file;
}

const ffmpeg = async (args: string[]): Promise<void> => {
  await run("ffmpeg", ["-nostdin", "-v", "error", "-y", ...args], { maxBuffer: 16 << 20 });
};

/** ffmpeg filter that delays by `leadSec` and pads to at least `totalSec` (16 kHz mono s16). */
const padFilter = (leadSec: number, totalSec: number) =>
  `aresample=${RATE},aformat=sample_fmts=s16:channel_layouts=mono,adelay=${Math.round(leadSec * 1000)},apad=whole_dur=${totalSec}`;

/**
 * `text` spoken by flite (slt = female, natural-ish; kal16/awb/rms male) or espeak-ng (robotic; espeak-f = female
 * variant), as a 16 kHz mono WAV starting after `leadSec` of silence and padded with silence to `totalSec`.
 */
export async function speechWav(text: string, o: { voice?: Voice; leadSec?: number; totalSec?: number } = {}): Promise<string> {
  const spec = { text, voice: o.voice ?? "slt", leadSec: o.leadSec ?? 0.5, totalSec: o.totalSec ?? 10 };
  return cached(`speech-${spec.voice}-${text}`, spec, "wav", async (tmp) => {
    const raw = `${tmp}.raw.wav`;
    try {
      if (spec.voice.startsWith("espeak")) await run("espeak-ng", [...(spec.voice === "espeak-f" ? ["-v", "en+f3"] : []), "-w", raw, text]);
      else await run("flite", ["-voice", spec.voice, "-t", text, "-o", raw]);
      await ffmpeg(["-i", raw, "-af", padFilter(spec.leadSec, spec.totalSec), "-c:a", "pcm_s16le", tmp]);
    } finally {
      await rm(raw, { force: true });
    }
  });
}

/** A 16 kHz mono WAV from an ffmpeg lavfi source. */
const lavfi = (name: string, source: string) => cached(name, source, "wav", (tmp) => ffmpeg(["-f", "lavfi", "-i", source, "-ac", "1", "-c:a", "pcm_s16le", tmp]));

export const toneWav = (freq = 440, durationSec = 10) => lavfi(`tone-${freq}`, `sine=frequency=${freq}:sample_rate=${RATE}:duration=${durationSec}`);
export const noiseWav = (color: "pink" | "white" = "pink", durationSec = 10) =>
  lavfi(`noise-${color}`, `anoisesrc=color=${color}:amplitude=0.3:sample_rate=${RATE}:duration=${durationSec}:seed=42`);
export const silenceWav = (durationSec = 10) => lavfi("silence", `anullsrc=r=${RATE}:cl=mono:d=${durationSec}`);

/** 16-bit PCM WAV bytes of interleaved float samples. */
function wavBytes(samples: Float32Array, sampleRate: number, channels: number): Buffer {
  const buf = Buffer.alloc(44 + samples.length * 2);
  buf.write("RIFF", 0, "ascii");
  buf.writeUInt32LE(36 + samples.length * 2, 4);
  buf.write("WAVEfmt ", 8, "ascii");
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * channels * 2, 28);
  buf.writeUInt16LE(channels * 2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36, "ascii");
  buf.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) buf.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), 44 + i * 2);
  return buf;
}

export interface TuneSpec {
  seed: number;
  durationSec?: number;
  bpm?: number;
  /** semitone offsets of the scale the melody walks on */
  scale?: number[];
  /** MIDI note of the scale's root */
  root?: number;
  /** relative amplitudes of harmonics 1..n (the timbre) */
  harmonics?: number[];
}

const midiHz = (m: number) => 440 * 2 ** ((m - 69) / 12);

/**
 * A synthetic song as a 44.1 kHz stereo WAV (what a reference track file looks like): a random-walk melody on
 * `scale` with an envelope per note, plus a bass note per bar and a noise hi-hat on every beat.
 */
export async function tuneWav(name: string, spec: TuneSpec): Promise<string> {
  const o = { durationSec: 40, bpm: 110, scale: [0, 2, 4, 7, 9], root: 67, harmonics: [1, 0.5, 0.3, 0.15], ...spec };
  return cached(`tune-${name}`, o, "wav", async (tmp) => {
    const rate = 44100;
    const rnd = prng(o.seed);
    const n = Math.round(o.durationSec * rate);
    const mono = new Float32Array(n);
    const beat = 60 / o.bpm;
    const note = (t0: number, dur: number, hz: number, amp: number, harmonics: number[]) => {
      const a = Math.floor(t0 * rate);
      const len = Math.min(n - a, Math.floor(dur * rate));
      for (let i = 0; i < len; i++) {
        const t = i / rate;
        const env = Math.min(1, t / 0.01) * Math.exp(-2.5 * t) * Math.min(1, (len - i) / (0.03 * rate));
        let v = 0;
        for (let h = 0; h < harmonics.length; h++) v += harmonics[h] * Math.sin(2 * Math.PI * hz * (h + 1) * t);
        mono[a + i] += amp * env * v;
      }
    };
    let degree = 5;
    for (let t = 0; t < o.durationSec; ) {
      const dur = beat * [0.5, 1, 1, 1.5, 2][Math.floor(rnd() * 5)];
      degree = Math.max(0, Math.min(9, degree + Math.floor(rnd() * 5) - 2));
      const midi = o.root + 12 * Math.floor(degree / o.scale.length) + o.scale[degree % o.scale.length] - 12;
      note(t, dur, midiHz(midi), 0.25, o.harmonics);
      t += dur;
    }
    for (let bar = 0; bar * 4 * beat < o.durationSec; bar++) {
      note(bar * 4 * beat, 4 * beat, midiHz(o.root - 24 + o.scale[Math.floor(rnd() * o.scale.length)]), 0.2, [1, 0.3]);
      for (let b = 0; b < 4; b++) {
        const a = Math.floor((bar * 4 + b) * beat * rate);
        for (let i = 0; i < 0.04 * rate && a + i < n; i++) mono[a + i] += 0.05 * (rnd() * 2 - 1) * (1 - i / (0.04 * rate));
      }
    }
    const stereo = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) stereo[2 * i] = stereo[2 * i + 1] = mono[i];
    await writeFile(tmp, wavBytes(stereo, rate, 2));
  });
}

/**
 * A 16 kHz mono segment cut from `source` at `startSec`: optional pink noise mixed in at `noise` amplitude and a
 * lossy round trip (AAC or MP3) before the final WAV, like audio pulled from a live stream.
 */
export async function excerptWav(source: string, o: { startSec: number; durationSec?: number; noise?: number; codec?: "aac" | "mp3" }): Promise<string> {
  const spec = { source: path.basename(source), durationSec: 10, noise: 0, codec: "aac", ...o };
  return cached(`excerpt-${path.basename(source, ".wav")}`, spec, "wav", async (tmp) => {
    const lossy = `${tmp}.${spec.codec === "aac" ? "m4a" : "mp3"}`;
    try {
      const noise = spec.noise > 0
        ? ["-f", "lavfi", "-i", `anoisesrc=color=pink:amplitude=${spec.noise}:sample_rate=44100:duration=${spec.durationSec}:seed=7`, "-filter_complex", "[0:a][1:a]amix=inputs=2:duration=first:normalize=0"]
        : [];
      await ffmpeg(["-ss", String(spec.startSec), "-t", String(spec.durationSec), "-i", source, ...noise, "-c:a", spec.codec === "aac" ? "aac" : "libmp3lame", "-b:a", "96k", lossy]);
      await ffmpeg(["-i", lossy, "-ar", String(RATE), "-ac", "1", "-c:a", "pcm_s16le", tmp]);
    } finally {
      await rm(lossy, { force: true });
    }
  });
}

/**
 * A sung vowel melody ("aah", source–filter synthesis): harmonics of a note with 5.5 Hz vibrato shaped by the
 * formants of /a/, one held note after another, as a 16 kHz mono WAV.
 */
export async function singingWav(seed: number, o: { durationSec?: number; root?: number } = {}): Promise<string> {
  const spec = { seed, durationSec: 10, root: 60, ...o };
  return cached(`singing-${seed}`, spec, "wav", async (tmp) => {
    const rnd = prng(seed);
    const n = spec.durationSec * RATE;
    const out = new Float32Array(n);
    const formants = [[800, 80], [1150, 90], [2900, 120]];
    const gain = (hz: number) => formants.reduce((s, [f, bw]) => s + 1 / (1 + ((hz - f) / bw) ** 2), 0.02);
    let phase = 0;
    let t0 = 0.3;
    while (t0 < spec.durationSec - 0.3) {
      const dur = 0.45 + rnd() * 0.6;
      const midi = spec.root + [0, 2, 4, 5, 7, 9, 12][Math.floor(rnd() * 7)];
      const a = Math.floor(t0 * RATE);
      const len = Math.min(n - a, Math.floor(dur * RATE));
      for (let i = 0; i < len; i++) {
        const t = i / RATE;
        const f0 = midiHz(midi) * 2 ** ((0.3 * Math.sin(2 * Math.PI * 5.5 * t)) / 12);
        phase += (2 * Math.PI * f0) / RATE;
        const env = Math.min(1, t / 0.05) * Math.min(1, (len - i) / (0.05 * RATE));
        let v = 0;
        for (let h = 1; h * f0 < 4000; h++) v += (gain(h * f0) / h) * Math.sin(h * phase);
        out[a + i] = 0.25 * env * v;
      }
      t0 += dur + 0.05;
    }
    await writeFile(tmp, wavBytes(out, RATE, 1));
  });
}

/**
 * The samples of a 16-bit mono WAV read from byte 44 on. Known flaw, kept so the eval's media stay the ones measured:
 * ffmpeg's WAVs carry a LIST chunk there, read as 17 samples of audio (a 1 ms click at the start); readMonoWav reads
 * the chunks. To be fixed with a re-run of the whole speech eval.
 */
async function pcmOf(file: string): Promise<Float32Array> {
  const buf = await readFile(file);
  const out = new Float32Array((buf.length - 44) >> 1);
  for (let i = 0; i < out.length; i++) out[i] = buf.readInt16LE(44 + i * 2) / 32768;
  return out;
}

/**
 * A `durationSec` excerpt of `source` with pink noise mixed in at `snrDb` (the noise's RMS set against the excerpt's
 * own, so the ratio holds whatever the music's level), speed-changed by `speed` (pitch moves with it, as resampling
 * does), then through `codec` at `bitrateK` kbps and back to 16 kHz mono: how a re-upload of a song reaches us.
 */
export async function noisyExcerptWav(source: string, o: { startSec: number; snrDb: number; codec: "aac" | "mp3"; bitrateK: number; seed: number; speed?: number; durationSec?: number }): Promise<string> {
  const spec = { source: path.basename(source), durationSec: 10, speed: 1, ...o };
  return cached(`snr-${path.basename(source, ".wav")}`, spec, "wav", async (tmp) => {
    const clean = `${tmp}.clean.wav`;
    const mixed = `${tmp}.mixed.wav`;
    const lossy = `${tmp}.${spec.codec === "aac" ? "m4a" : "mp3"}`;
    try {
      const speed = spec.speed === 1 ? [] : ["-af", `aresample=${RATE},asetrate=${Math.round(RATE * spec.speed)},aresample=${RATE}`];
      await ffmpeg(["-ss", String(spec.startSec), "-t", String(spec.durationSec * spec.speed), "-i", source, "-ar", String(RATE), "-ac", "1", ...speed, "-c:a", "pcm_s16le", clean]);
      const x = await pcmOf(clean);
      const rnd = prng(spec.seed);
      // pink noise: Paul Kellet's filter over white noise
      const noise = new Float32Array(x.length);
      let [b0, b1, b2, b3, b4, b5, b6] = [0, 0, 0, 0, 0, 0, 0];
      for (let i = 0; i < x.length; i++) {
        const w = rnd() * 2 - 1;
        b0 = 0.99886 * b0 + w * 0.0555179;
        b1 = 0.99332 * b1 + w * 0.0750759;
        b2 = 0.969 * b2 + w * 0.153852;
        b3 = 0.8665 * b3 + w * 0.3104856;
        b4 = 0.55 * b4 + w * 0.5329522;
        b5 = -0.7616 * b5 - w * 0.016898;
        noise[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
        b6 = w * 0.115926;
      }
      const rms = (a: Float32Array) => Math.sqrt(a.reduce((t, v) => t + v * v, 0) / Math.max(1, a.length));
      const gain = rms(x) / (rms(noise) * 10 ** (spec.snrDb / 20));
      const out = new Float32Array(x.length);
      for (let i = 0; i < x.length; i++) out[i] = x[i] + noise[i] * gain;
      await writeFile(mixed, wavBytes(out, RATE, 1));
      await ffmpeg(["-i", mixed, "-c:a", spec.codec === "aac" ? "aac" : "libmp3lame", "-b:a", `${spec.bitrateK}k`, lossy]);
      await ffmpeg(["-i", lossy, "-ar", String(RATE), "-ac", "1", "-c:a", "pcm_s16le", tmp]);
    } finally {
      for (const f of [clean, mixed, lossy]) await rm(f, { force: true });
    }
  });
}

/**
 * `speech` with `bed` (noise or music, looped if shorter) under it at `snrDb`: the bed's RMS set against the speech's
 * own RMS over its voiced 20 ms frames (those above -50 dBFS), so the ratio is the one a listener hears while words
 * are spoken, whatever the silence around them. 16 kHz mono.
 */
export async function speechOverBedWav(speech: string, bed: string, snrDb: number): Promise<string> {
  const spec = { speech: path.basename(speech), bed: path.basename(bed), snrDb };
  return cached("over-bed", spec, "wav", async (tmp) => {
    const [x, b] = await Promise.all([pcmOf(speech), pcmOf(bed)]);
    const frame = RATE / 50;
    let sum = 0;
    let n = 0;
    for (let i = 0; i + frame <= x.length; i += frame) {
      let e = 0;
      for (let k = i; k < i + frame; k++) e += x[k] * x[k];
      if (Math.sqrt(e / frame) < 10 ** (-50 / 20)) continue;
      sum += e;
      n += frame;
    }
    const speechRms = Math.sqrt(sum / Math.max(1, n));
    const bedRms = Math.sqrt(b.reduce((t, v) => t + v * v, 0) / Math.max(1, b.length));
    const gain = speechRms / (Math.max(bedRms, 1e-9) * 10 ** (snrDb / 20));
    const out = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) out[i] = Math.max(-1, Math.min(1, x[i] + b[i % b.length] * gain));
    await writeFile(tmp, wavBytes(out, RATE, 1));
  });
}

/** The first and last sample of `x` louder than the silence floor (|x| > 0.003), or null when none is. */
export function audibleSpan(x: Float32Array): { first: number; last: number } | null {
  let first = -1;
  let last = -1;
  for (let i = 0; i < x.length; i++) {
    if (Math.abs(x[i]) > 0.003) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return first < 0 ? null : { first, last };
}

/**
 * Continuous speech: `texts` spoken one after another by `voice` (each trimmed to its audible part, 0.25 s apart),
 * cut into consecutive `segmentSec` WAVs as a live stream's audio is; a last part shorter than a segment is dropped.
 */
export async function continuousSpeechWavs(texts: readonly string[], voice: Voice, segmentSec = 10): Promise<string[]> {
  const parts: Float32Array[] = [];
  for (const text of texts) {
    const { samples: x } = await readMonoWav(await speechWav(text, { voice, leadSec: 0, totalSec: 1 }));
    const span = audibleSpan(x);
    parts.push(span ? x.subarray(span.first, span.last + 1) : new Float32Array(0), new Float32Array(Math.round(0.25 * RATE)));
  }
  const all = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const n = segmentSec * RATE;
  const out: string[] = [];
  for (let k = 0; (k + 1) * n <= all.length; k++) {
    out.push(await cached(`continuous-${voice}-${k}`, { texts, voice, segmentSec, k }, "wav", (tmp) => writeFile(tmp, wavBytes(all.subarray(k * n, (k + 1) * n), RATE, 1))));
  }
  return out;
}

/** `speech` with `music` mixed under it at `musicGain`, 16 kHz mono. */
export async function mixWav(speech: string, music: string, musicGain = 0.3): Promise<string> {
  const spec = { speech: path.basename(speech), music: path.basename(music), musicGain };
  return cached("mix", spec, "wav", (tmp) =>
    ffmpeg(["-i", speech, "-i", music, "-filter_complex", `[1:a]volume=${musicGain}[m];[0:a][m]amix=inputs=2:duration=first:normalize=0`, "-ar", String(RATE), "-ac", "1", "-c:a", "pcm_s16le", tmp]));
}

/** Test sentences: what a keyword list should find in each (list name and entry), or nothing for neutral speech. */
export const POSITIVE_SENTENCES: ReadonlyArray<{ text: string; list: string; entry: string }> = [
  { text: "please visit our website to buy cheap followers", list: "ad_words", entry: "buy cheap followers" },
  { text: "add me on wechat for a special discount", list: "ad_contact", entry: "add me on wechat" },
  { text: "you are a stupid idiot and a loser", list: "abuse", entry: "stupid idiot" },
  { text: "we sell cocaine and heroin every night", list: "prohibited_drugs", entry: "cocaine" },
  { text: "join our online casino and bet now", list: "prohibited_gambling", entry: "online casino" },
  { text: "watch free porn videos on my channel", list: "porn", entry: "porn" },
  { text: "call me at five five five one two three four five six", list: "ad_contact", entry: "phone-words" },
  { text: "they want to overthrow the government", list: "politics", entry: "overthrow the government" },
];

export const NEUTRAL_SENTENCES: readonly string[] = [
  "the weather is nice today and we are going to the park",
  "i like to read books in the evening",
  "my favorite color is blue and i have a small dog",
  "we visited the museum with our friends last week",
  "she bought a warm coat at the store",
  "the train leaves the station at noon",
  "he plays the piano every sunday morning",
  "our team finished the project before the deadline",
];

/** The two reference songs the tests and the bench share (different melodies, scales, tempos and timbres). */
export const TUNE_A: TuneSpec = { seed: 1 };
export const TUNE_B: TuneSpec = { seed: 2, scale: [0, 3, 5, 7, 10], root: 62, bpm: 96, harmonics: [1, 0.2, 0.6, 0.1, 0.3] };
