// Known audio (ANTHEN / BANEDAUDIO / COPYRIGHTSONGS): chromaprint matches of song excerpts against reference tracks.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  AUDIO_POLICY, compareWithTrack, createAudioDetector, fileReferenceTracks, fingerprintFile, type ReferenceListName,
} from "../../server/detect/audio/index";
import { excerptWav, mixWav, noiseWav, noisyExcerptWav, speechWav, toneWav, TUNE_A, TUNE_B, tuneWav, type TuneSpec, type Voice } from "../support/speech";
import { prng } from "./media";
import { cachedBytes } from "./media";
import { breakdown, chooseThreshold, distribution, grid, summarize, sweep, type Outcome, type ScoredCase } from "./metrics";

const REFS: ReadonlyArray<{ entry: string; list: ReferenceListName; spec: TuneSpec }> = [
  { entry: "tune-a", list: "copyright_songs", spec: TUNE_A },
  { entry: "tune-b", list: "banned_songs", spec: TUNE_B },
  { entry: "tune-c", list: "copyright_songs", spec: { seed: 3, scale: [0, 2, 3, 5, 7, 8, 10], root: 64, bpm: 124, harmonics: [1, 0.4, 0.4, 0.2] } },
  { entry: "tune-d", list: "anthem", spec: { seed: 4, scale: [0, 2, 4, 5, 7, 9, 11], root: 57, bpm: 84, harmonics: [1, 0.1, 0.5] } },
];
/** Songs not in the reference lists; e and f share tune-a's / tune-b's scale, tempo and timbre (hard negatives). */
const UNKNOWN: ReadonlyArray<{ entry: string; spec: TuneSpec }> = [
  { entry: "tune-e", spec: { seed: 5, scale: [0, 3, 5, 6, 7, 10], root: 60, bpm: 140, harmonics: [1, 0.6, 0.2] } },
  { entry: "tune-f", spec: { ...TUNE_A, seed: 11 } },
  { entry: "tune-g", spec: { ...TUNE_B, seed: 12 } },
];
const OFFSETS = [2.0, 9.4, 17.8, 26.5];
/** The issue's hard conditions (#15.3): pink noise at 10 dB SNR, 64 kbps AAC / MP3, ±5 % speed. */
const SNR_DB = 10;
const LOW_BITRATE_K = 64;
/** Unrelated clips that must match nothing: synthetic songs of random scale, key, tempo and timbre, speech, noise, tones. */
const UNRELATED_TUNES = 180;
const SCALES: readonly number[][] = [[0, 2, 4, 5, 7, 9, 11], [0, 2, 3, 5, 7, 8, 10], [0, 2, 4, 7, 9], [0, 3, 5, 7, 10], [0, 3, 5, 6, 7, 10], [0, 2, 3, 5, 7, 9, 10], [0, 1, 4, 5, 7, 8, 10], [0, 2, 4, 6, 7, 9, 11]];
const UNRELATED_SPEECH = [
  "good evening and welcome to the show", "the match starts at eight tonight", "thank you all for watching see you tomorrow",
  "let me show you how to cook pasta", "this game is really hard but fun", "the train to the city leaves at noon",
];
const VOICES: readonly Voice[] = ["slt", "kal16", "awb", "rms"];
const NOISE = [0, 0.05, 0.1, 0.2];
const TYPES = ["ANTHEN", "BANEDAUDIO", "COPYRIGHTSONGS"];

interface Query {
  wav: string;
  condition: string;
  /** reference entry the query comes from; undefined for negatives */
  entry?: string;
  startSec?: number;
}

interface Result extends Query {
  /** detector verdict (policy threshold applied inside) */
  matchEntry?: string;
  offsetErrorSec?: number;
  /** raw best score over every reference and the entry it belongs to */
  best: { entry: string; score: number };
  rightScore: number | null;
}

/** `src` through an ffmpeg audio filter, 16 kHz mono WAV, cached in tests/.media/eval. */
async function altered(src: string, filter: string, name: string): Promise<string> {
  return cachedBytes(`fp-${name}`, { src: path.basename(src), filter }, "wav", async () => {
    const tmp = path.join(os.tmpdir(), `eval-${process.pid}-${randomBytes(4).toString("hex")}.wav`);
    try {
      await promisify(execFile)("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", src, "-af", filter, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", tmp]);
      return await readFile(tmp);
    } finally {
      await rm(tmp, { force: true });
    }
  });
}

async function queries(scale: number): Promise<Query[]> {
  const perTune = Math.max(2, Math.round(4 * scale));
  const out: Query[] = [];
  for (const [t, ref] of REFS.entries()) {
    const file = await tuneWav(ref.entry, ref.spec);
    for (let k = 0; k < perTune; k++) {
      const startSec = OFFSETS[(t + k) % OFFSETS.length] + 0.37 * Math.floor(k / OFFSETS.length);
      const noise = NOISE[(t + 2 * k) % NOISE.length];
      const codec = (t + k) % 2 ? "mp3" : "aac";
      out.push({ wav: await excerptWav(file, { startSec, noise, codec }), condition: `excerpt noise ${noise} ${codec}`, entry: ref.entry, startSec });
    }
    // the song under a short spoken sentence and under continuous speech (a streamer talking over music)
    const music = await excerptWav(file, { startSec: OFFSETS[t], codec: "aac" });
    const short = await speechWav("hello everyone welcome back", { voice: "slt", leadSec: 1 });
    const long = await speechWav("today we are going to talk about the weather the news and the football results from the weekend", { voice: "rms", leadSec: 0.2 });
    out.push({ wav: await mixWav(short, music, 0.6), condition: "music under a short sentence", entry: ref.entry, startSec: OFFSETS[t] });
    out.push({ wav: await mixWav(long, music, 0.6), condition: "music under continuous speech", entry: ref.entry, startSec: OFFSETS[t] });
    out.push({ wav: await mixWav(long, music, 0.3), condition: "quiet music (0.3) under continuous speech", entry: ref.entry, startSec: OFFSETS[t] });
    // re-uploads are often sped up a little to dodge matching
    out.push({ wav: await altered(music, "atempo=1.04", "tempo"), condition: "tempo +4% (same pitch)", entry: ref.entry, startSec: OFFSETS[t] });
    out.push({ wav: await altered(music, "asetrate=16960,aresample=16000", "speed"), condition: "speed +6% (pitch up a semitone)", entry: ref.entry, startSec: OFFSETS[t] });
    // speeds between and below the reference's stored speeds (server/detect/audio/references.ts REFERENCE_SPEEDS)
    out.push({ wav: await altered(music, "asetrate=15200,aresample=16000", "speed-5"), condition: "speed -5% (pitch down)", entry: ref.entry, startSec: OFFSETS[t] });
    out.push({ wav: await altered(music, "asetrate=16240,aresample=16000", "speed+1.5"), condition: "speed +1.5% (pitch up)", entry: ref.entry, startSec: OFFSETS[t] });
    // the issue's conditions together: pink noise at 10 dB SNR, a 64 kbps re-encode, and ±5 % speed
    for (const [k, c] of ([["aac", 1], ["mp3", 1], ["mp3", 0.95], ["aac", 1.05]] as const).entries()) {
      const startSec = OFFSETS[(t + k + 1) % OFFSETS.length] + 0.61 * k;
      const wav = await noisyExcerptWav(file, { startSec, snrDb: SNR_DB, codec: c[0], bitrateK: LOW_BITRATE_K, seed: 100 * t + k, speed: c[1] });
      out.push({ wav, condition: `noise ${SNR_DB} dB SNR, ${c[0]} ${LOW_BITRATE_K}k${c[1] === 1 ? "" : `, speed ${c[1] > 1 ? "+" : "-"}5%`}`, entry: ref.entry, startSec });
    }
  }
  for (const [u, tune] of UNKNOWN.entries()) {
    const file = await tuneWav(tune.entry, tune.spec);
    for (let k = 0; k < Math.max(2, Math.round(3 * scale)); k++) {
      out.push({ wav: await excerptWav(file, { startSec: OFFSETS[(u + k) % OFFSETS.length], noise: NOISE[k % 3], codec: k % 2 ? "mp3" : "aac" }), condition: `unknown song (${tune.entry})` });
    }
  }
  out.push({ wav: await speechWav("the weather is nice today and we are going to the park", { voice: "kal16" }), condition: "speech" });
  out.push({ wav: await noiseWav("pink"), condition: "noise" });
  out.push({ wav: await toneWav(440), condition: "tone" });
  out.push(...(await unrelated()));
  return out;
}

/** 200 clips unrelated to every reference (fixed seeds), each through the same noise and codec conditions as the positives. */
async function unrelated(): Promise<Query[]> {
  const rnd = prng(91_000);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const out: Query[] = [];
  for (let i = 0; i < UNRELATED_TUNES; i++) {
    const spec: TuneSpec = {
      seed: 1000 + i,
      durationSec: 14,
      scale: pick(SCALES),
      root: 52 + Math.floor(rnd() * 20),
      bpm: 70 + Math.floor(rnd() * 90),
      harmonics: Array.from({ length: 2 + Math.floor(rnd() * 4) }, (_, h) => (h === 0 ? 1 : Math.round(rnd() * 70) / 100)),
    };
    const file = await tuneWav(`unrelated-${i}`, spec);
    const codec = rnd() < 0.5 ? "aac" : "mp3";
    const wav = i % 3 === 0
      ? await noisyExcerptWav(file, { startSec: rnd() * 3, snrDb: SNR_DB, codec, bitrateK: LOW_BITRATE_K, seed: 5000 + i })
      : await excerptWav(file, { startSec: rnd() * 3, noise: pick(NOISE), codec });
    out.push({ wav, condition: "unrelated song" });
  }
  for (const [i, text] of UNRELATED_SPEECH.entries()) for (const voice of VOICES.slice(0, 2)) out.push({ wav: await speechWav(text, { voice: VOICES[(i + VOICES.indexOf(voice)) % VOICES.length] }), condition: "unrelated speech" });
  for (const c of ["pink", "white"] as const) out.push({ wav: await noiseWav(c), condition: "unrelated noise" });
  for (const hz of [220, 330, 523, 880, 1000, 1500]) out.push({ wav: await toneWav(hz), condition: "unrelated tone" });
  return out;
}

export async function evalFingerprint(scale: number): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "eval-fp-"));
  const references = fileReferenceTracks(path.join(dir, "refs"));
  const detector = createAudioDetector({ dataDir: dir, references });
  try {
    for (const r of REFS) await references.add(r.list, r.entry, await tuneWav(r.entry, r.spec));
    await detector.ready();
    const tracks = await references.list();
    const results: Result[] = [];
    for (const q of await queries(scale)) {
      const v = await detector.detectSegment({ wavPath: q.wav, types: TYPES, businessTypes: [] });
      // raw scores below the policy threshold are not in the verdict: recompute them the way known.ts does
      const seg = (await fingerprintFile(q.wav)).fingerprint;
      const scores = tracks.map((t) => ({ entry: t.entry, ...compareWithTrack(seg, t, AUDIO_POLICY.known.minOverlapItems) }));
      const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
      results.push({
        ...q,
        matchEntry: v.match?.entry,
        offsetErrorSec: v.match && q.startSec !== undefined ? Math.round(Math.abs(v.match.offsetSec - q.startSec) * 100) / 100 : undefined,
        best: { entry: best.entry, score: best.score },
        rightScore: q.entry ? scores.find((s) => s.entry === q.entry)?.score ?? null : null,
      });
    }
    const cases: ScoredCase[] = results.map((r) =>
      r.entry
        ? { positive: true, score: r.best.entry === r.entry ? r.best.score : null, wrongScore: r.best.entry === r.entry ? null : r.best.score }
        : { positive: false, score: r.best.score });
    const rows = sweep(cases, grid(0.5, 1, 0.02));
    const outcome = (r: Result): Outcome => ({ positive: !!r.entry, flagged: !!r.matchEntry, correct: !!r.entry && r.matchEntry === r.entry });
    const kind = (r: Result) => r.condition.replace(/ \(tune-.\)$/, "");
    return {
      detector: "chromaprint fpcalc -raw + sliding bit-error comparison (server/detect/audio/known.ts), types ANTHEN BANEDAUDIO COPYRIGHTSONGS",
      label: "positive = 10 s excerpt of a reference track at any offset (16 kHz mono after an AAC/MP3 round trip, pink noise mixed in; harder: pink noise at 10 dB SNR with a 64 kbps re-encode, alone and with \u00b15 % speed; speech over it; tempo and speed changes); correct = match.entry is that track. Negatives: songs not in the lists (three sharing a reference's scale, tempo and timbre), and 200 unrelated clips (180 synthetic songs of random scale, key, tempo and timbre, a third of them at 10 dB SNR and 64 kbps; 12 spoken sentences; noise; tones), fixed seeds.",
      references: REFS.map((r) => `${r.list}/${r.entry}`),
      queries: results.length,
      atPolicy: { threshold: AUDIO_POLICY.known.minScore, ...summarize(results.map(outcome)) },
      scoreDistribution: {
        positivesRightEntry: distribution(results.filter((r) => r.entry && r.rightScore !== null).map((r) => r.rightScore!)),
        negativesBest: distribution(results.filter((r) => !r.entry).map((r) => r.best.score)),
      },
      sweep: rows,
      chosen: chooseThreshold(rows),
      offsetErrorSec: distribution(results.filter((r) => r.offsetErrorSec !== undefined && r.matchEntry === r.entry).map((r) => r.offsetErrorSec!)),
      byCondition: breakdown(results, (r) => (r.entry ? r.condition.replace(/ (aac|mp3)$/, "") : kind(r)), outcome),
      byCodec: breakdown(results.filter((r) => r.condition.startsWith("excerpt")), (r) => r.condition.split(" ").pop()!, outcome),
      hardest: {
        lowestPositives: results.filter((r) => r.entry).sort((a, b) => (a.rightScore ?? 0) - (b.rightScore ?? 0)).slice(0, 4).map((r) => ({ entry: r.entry, condition: r.condition, score: r.rightScore })),
        highestNegatives: results.filter((r) => !r.entry).sort((a, b) => b.best.score - a.best.score).slice(0, 4).map((r) => ({ condition: r.condition, nearest: r.best.entry, score: r.best.score })),
      },
    };
  } finally {
    await detector.close();
    await rm(dir, { recursive: true, force: true });
  }
}
