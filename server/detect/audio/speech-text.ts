// Speech → transcript → keyword lists: Moonshine (default, on the voiced stretches), pocketsphinx (free transcription +
// keyword spotting) or a remote transcriber.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { encodeWavPcm16 } from "../../ingest/live-pcm";
import type { KeywordList } from "../lists/model";
import { KeywordListsReader } from "../lists/store";
import { thresholdsReader, type Thresholds } from "../settings/thresholds";
import { EXTRA_PRONUNCIATIONS } from "./lists";
import type { MonoAudio } from "./pcm";
import { AUDIO_POLICY } from "./policy";
import { POCKETSPHINX_MODEL_DIR, prepareKws, readCmuDict, spotKeywords, transcribeFree, type KwsHit, type KwsSetup } from "./stt/pocketsphinx";
import { chooseReading, hearAtSpeeds } from "./alternate-readings";
import { countsOutsideLoops, loopedStretch, spotsOutsideLoops, type LoopedStretch } from "./looping-readings";
import { nearPhraseHits } from "./near-phrases";
import { MoonshineStt, moonshineModelDir } from "./stt/moonshine";
import { transcribeRemote } from "./stt/openai";
import { verifyPhrases } from "./verify-phrases";
import { capLevel } from "../policy";
import { agreeingHits, freeTranscript, prependText, protectedMatches, spliceSpotted, spokenTranscript, textTranscript, type Transcript } from "./stt/transcript";
import { compileAudioLists, matchTranscript, type CompiledAudioLists, type TextHit } from "./text-lists";
import type { TranscriberOption } from "./types";
import type { AudioHit } from "./verdict";

export interface SpeechTextResult {
  hits: AudioHit[];
  /** previousText + this segment's transcript (positions refer to it) */
  text: string;
  segmentText: string;
  /** phrases spotted acoustically (pocketsphinx), found in the audio by the reading check or written at another speed (alternate readings) that the free transcript had missed */
  spliced: string[];
  timingsMs: Record<string, number>;
}

const P = AUDIO_POLICY;

/** Moonshine's transcript of a segment, the phrases to cap at REVIEW and the stretches that loop. */
interface Reading {
  transcript: Transcript;
  /** written in by the reading check or taken from another speed: hits on them are REVIEW at most */
  verified: string[];
  /** the stretches whose kept reading loops of the model's own making: what they hold counts only where confirmed */
  loops: LoopedStretch[];
}

/** 16-bit PCM WAV bytes of mono float samples followed by `padSec` of silence. */
function paddedWav(a: MonoAudio, padSec: number): Buffer {
  const pcm = Buffer.alloc((a.samples.length + Math.round(padSec * a.sampleRate)) * 2);
  for (let i = 0; i < a.samples.length; i++) pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, a.samples[i])) * 32767), i * 2);
  return encodeWavPcm16(pcm, a.sampleRate);
}

const toAudioHit = (h: TextHit): AudioHit => ({ ...h, riskSource: P.text.riskSource });
const positionsOf = (hits: readonly TextHit[]) => hits.flatMap((h) => h.matchedLists.flatMap((l) => l.words.map((w) => w.position)));

/** What the speech lists in force compile to: the matcher's lists, phrase → types, the keyword-spotting files. */
interface ListState {
  source: readonly KeywordList[];
  lists: CompiledAudioLists;
  /** spoken phrase → the audio types of the lists that hold it */
  phraseTypes: Map<string, string[]>;
  kws?: KwsSetup;
}

export class SpeechText {
  private readonly keywords: KeywordListsReader;
  private readonly thresholds: () => Thresholds;
  private dict?: Map<string, string[]>;
  private state?: Promise<ListState>;
  private moonshineModel?: MoonshineStt;

  constructor(private readonly o: { transcriber: TranscriberOption; pocketsphinx: string; dataDir: string; keywordsDir?: string; policyDir?: string }) {
    this.keywords = new KeywordListsReader(o.keywordsDir);
    this.thresholds = thresholdsReader(o.policyDir);
  }

  /** The lists in force; after an operator change they are recompiled and the spotting files rewritten (content-addressed). */
  private listState(): Promise<ListState> {
    const source = this.keywords.all();
    const prev = this.state;
    const build = async (): Promise<ListState> => {
      if (prev) {
        const p = await prev.catch(() => undefined);
        if (p?.source === source) return p;
      }
      const speech = source.filter((l) => l.scope === "speech");
      const phraseTypes = new Map<string, string[]>();
      for (const l of speech) {
        for (const e of l.entries) {
          const phrase = typeof e === "string" ? e : "phrase" in e ? e.phrase : undefined;
          if (phrase) phraseTypes.set(phrase, [...(phraseTypes.get(phrase) ?? []), l.type]);
        }
      }
      const lists = compileAudioLists(speech);
      const kws = this.dict ? await prepareKws(lists.phrases, path.join(this.o.dataDir, "kws"), this.dict, EXTRA_PRONUNCIATIONS, P.kws) : undefined;
      return { source, lists, phraseTypes, kws };
    };
    this.state = build();
    return this.state;
  }

  get engineName(): string {
    const t = this.o.transcriber;
    if (t.kind === "openai") return `OpenAI-compatible transcription (${t.model ?? "whisper-1"} at ${t.baseUrl}) + keyword lists`;
    if (t.kind === "moonshine") return `Moonshine tiny en (ONNX Runtime, on the voiced stretches Silero VAD finds, each also heard at 0.92-1.08 x speed; list phrases it nearly wrote checked against the audio; words of loops it makes up not counted)${this.pocketsphinxMissing() ? "" : " + pocketsphinx keyword spotting"} + keyword lists`;
    return "pocketsphinx 0.8 en-us (free transcription + keyword spotting) + keyword lists";
  }

  /** Why the engine cannot run, or undefined. */
  unavailable(): string | undefined {
    const t = this.o.transcriber;
    if (t.kind === "openai") return undefined;
    if (t.kind === "moonshine") return existsSync(path.join(moonshineModelDir(), "encoder_model.onnx")) ? undefined : "Moonshine model files missing (npm package @moonshine-ai/moonshine-js: run npm install)";
    return this.pocketsphinxMissing();
  }

  private pocketsphinxMissing(): string | undefined {
    if (!existsSync(this.o.pocketsphinx)) return "pocketsphinx_continuous not found (Debian: apt-get install pocketsphinx pocketsphinx-en-us)";
    if (!existsSync(path.join(POCKETSPHINX_MODEL_DIR, "cmudict-en-us.dict"))) return "pocketsphinx English model missing (Debian: apt-get install pocketsphinx-en-us)";
    return undefined;
  }

  /** Loads the Moonshine model and, where pocketsphinx is installed, writes its keyword-spotting files (Moonshine's transcript gets its spotted phrases too). */
  async init(): Promise<void> {
    const t = this.o.transcriber;
    if (t.kind === "openai" || this.unavailable()) return;
    if (t.kind === "moonshine") this.moonshineModel ??= await MoonshineStt.load();
    if (this.pocketsphinxMissing()) return;
    this.dict = await readCmuDict(path.join(POCKETSPHINX_MODEL_DIR, "cmudict-en-us.dict"));
    this.state = undefined;
    await this.listState();
  }

  /** Spoken phrases with no pronunciation (never spotted; still matched in the free transcript). */
  async skippedPhrases(): Promise<string[]> {
    return (await this.listState()).kws?.skipped ?? [];
  }

  async close(): Promise<void> {
    await this.moonshineModel?.close();
    this.moonshineModel = undefined;
  }

  /** `voiced`: the segment's speech spans (VAD); the in-process recogniser transcribes only those. */
  async run(audio: MonoAudio, wavPath: string, types: ReadonlySet<string>, previousText: string | undefined, voiced: ReadonlyArray<{ startSec: number; endSec: number }>): Promise<SpeechTextResult> {
    const timingsMs: Record<string, number> = {};
    const state = await this.listState();
    const th = this.thresholds();
    let current: Transcript;
    let conf: number = P.stt.remoteProbability;
    let verified: string[] = [];
    let loops: LoopedStretch[] = [];
    const t = this.o.transcriber;
    if (t.kind === "openai") {
      const t0 = performance.now();
      const r = await transcribeRemote(wavPath, { baseUrl: t.baseUrl, apiKey: t.apiKey, model: t.model, timeoutMs: P.stt.timeoutMs });
      timingsMs.stt = Math.round(performance.now() - t0);
      conf = r.confidence ?? conf;
      current = textTranscript(r.text, conf);
    } else if (t.kind === "moonshine") {
      ({ transcript: current, verified, loops } = await this.moonshine(audio, voiced, types, timingsMs, state));
      conf = 1;
    } else {
      current = await this.pocketsphinx(audio, types, timingsMs, state);
    }
    const full = previousText ? prependText(previousText, current) : current;
    const fromOffset = full.text.length - current.text.length;
    // a phrase the audio was found to support, or one written only at another speed (not what the recogniser wrote at
    // normal speed), goes to a human: REVIEW at most
    // words a loop of the model's own making wrote were never heard (looping-readings.ts): no hit on them alone
    const counts = (h: TextHit) => countsOutsideLoops(h, current, fromOffset, loops);
    const exact = matchTranscript(full, state.lists, types, { fromOffset, defaultConf: conf }, th)
      .filter(counts)
      .map((h) => (mentions(h, verified) ? { ...h, riskLevel: capLevel(h.riskLevel, P.text.verify.maxLevel) } : h));
    // a recogniser that spells what it heard: list phrases it nearly wrote go to a human too
    const near = t.kind === "moonshine" ? nearPhraseHits(full, state.lists, types, exact, P.text.near, fromOffset, th).filter(counts) : [];
    const hits = [...exact, ...near].map(toAudioHit);
    return { hits, text: full.text, segmentText: current.text, spliced: [...current.spliced, ...verified], timingsMs };
  }

  /** Moonshine on the voiced stretches, with pocketsphinx's spotted phrases spliced in where it misheard them. */
  private async moonshine(audio: MonoAudio, voiced: ReadonlyArray<{ startSec: number; endSec: number }>, types: ReadonlySet<string>, timingsMs: Record<string, number>, state: ListState): Promise<Reading> {
    const kws = state.kws;
    const [{ transcript: spoken, verified, loops }, spotted] = await Promise.all([
      timed(timingsMs, "stt", () => this.recognise(audio, voiced, phrasesFor(state, types), (text) => entriesIn(text, state, types))),
      kws && kws.phrases.size > 0 ? this.withPadded(audio, (wav) => timed(timingsMs, "kws", () => spotKeywords(wav, kws, { bin: this.o.pocketsphinx, timeoutMs: P.stt.timeoutMs }))) : Promise.resolve([]),
    ]);
    // Moonshine's word times are estimates: a spotted phrase goes in only where the words written there agree with it
    const agreeing = kws ? agreeingHits(spoken, spotted.filter((h) => h.prob >= P.kws.minProb), kws.phrases, { maxDistance: P.kws.agreeMaxDistance, windowSec: P.kws.agreeWindowSec }) : [];
    // a spotted phrase agreeing with words of a loop agrees with nothing the audio said (looping-readings.ts)
    const spliced = kws ? spotsOutsideLoops(agreeing, loops, (h) => kws.phrases.get(h.phrase)?.text ?? h.phrase) : agreeing;
    return { transcript: this.splice(spoken, spliced, types, state), verified, loops };
  }

  /**
   * Each voiced stretch (spans closer than P.stt.joinGapSec joined, P.stt.marginSec added each side) transcribed on
   * its own, and again at other speeds (alternate-readings.ts); list phrases (`phrases`) spelled near its words are
   * scored against its audio and written in where every hearing supports them as well as what was written
   * (verify-phrases.ts); a reading at another speed that holds more list entries (`found`) is kept instead. A reading
   * kept that loops of the model's own making is reported in `loops` with what counts in it (looping-readings.ts).
   */
  private async recognise(audio: MonoAudio, voiced: ReadonlyArray<{ startSec: number; endSec: number }>, phrases: readonly string[], found: (text: string) => string[]): Promise<Reading> {
    const model = this.moonshineModel;
    if (!model) throw new Error("Moonshine model not loaded");
    const duration = audio.samples.length / audio.sampleRate;
    const stretches: Array<{ startSec: number; endSec: number }> = [];
    for (const s of voiced) {
      const last = stretches[stretches.length - 1];
      if (last && s.startSec - last.endSec < P.stt.joinGapSec) last.endSec = s.endSec;
      else stretches.push({ ...s });
    }
    const parts = [];
    const verified: string[] = [];
    const loops: LoopedStretch[] = [];
    for (const s of stretches) {
      // the model sometimes ends at once on a stretch it cannot place: heard nothing, it hears the tighter crop
      for (const margin of [P.stt.marginSec, P.stt.retryMarginSec]) {
        const startSec = Math.max(0, s.startSec - margin);
        const endSec = Math.min(duration, s.endSec + margin);
        const crop = audio.samples.subarray(Math.floor(startSec * audio.sampleRate), Math.ceil(endSec * audio.sampleRate));
        const heard = await model.transcribe(crop);
        if (!heard.text) continue;
        const alternates = phrases.length > 0 ? await hearAtSpeeds(model, crop, P.text.alternates.speeds) : [];
        const checked = await verifyPhrases(model, heard, phrases, P.text.verify, alternates);
        const reading = chooseReading(checked, alternates, found);
        verified.push(...reading.verified);
        const others = [{ speed: 1, text: heard.text }, ...alternates].filter((h) => h.speed !== reading.speed).map((h) => h.text);
        const loop = loopedStretch(reading.text, others, found, { startSec, endSec });
        if (loop) loops.push(loop);
        parts.push({ text: reading.text, conf: heard.conf, startSec, endSec });
        break;
      }
    }
    return { transcript: spokenTranscript(parts), verified, loops };
  }

  private async pocketsphinx(audio: MonoAudio, types: ReadonlySet<string>, timingsMs: Record<string, number>, state: ListState): Promise<Transcript> {
    const kws = state.kws;
    const run = { bin: this.o.pocketsphinx, timeoutMs: P.stt.timeoutMs };
    const [utterances, spotted] = await this.withPadded(audio, (wav) =>
      Promise.all([
        timed(timingsMs, "stt", () => transcribeFree(wav, run)),
        kws && kws.phrases.size > 0 ? timed(timingsMs, "kws", () => spotKeywords(wav, kws, run)) : Promise.resolve([]),
      ]),
    );
    return this.splice(freeTranscript(utterances, P.stt.segmentGapSec), spotted, types, state);
  }

  /** The segment as a WAV with trailing silence: without it pocketsphinx misses a keyword that ends the segment. */
  private async withPadded<T>(audio: MonoAudio, fn: (wavPath: string) => Promise<T>): Promise<T> {
    const tmpDir = path.join(this.o.dataDir, "tmp");
    await mkdir(tmpDir, { recursive: true });
    const padded = path.join(tmpDir, `seg-${process.pid}-${randomBytes(6).toString("hex")}.wav`);
    await writeFile(padded, paddedWav(audio, P.stt.padSec));
    try {
      return await fn(padded);
    } finally {
      await rm(padded, { force: true });
    }
  }

  /** Spotted phrases of the requested types spliced into the transcript where it does not already say them. */
  private splice(t: Transcript, spotted: readonly KwsHit[], types: ReadonlySet<string>, state: ListState): Transcript {
    const kws = state.kws;
    if (!kws || spotted.length === 0) return t;
    // phrases spotted for lists that were not requested must not rewrite the transcript
    const relevant = spotted.filter((h) => state.phraseTypes.get(kws.phrases.get(h.phrase)?.text ?? "")?.some((x) => types.has(x)));
    const matched = matchTranscript(t, state.lists, types, { fromOffset: 0, defaultConf: 1 });
    return spliceSpotted(t, relevant, kws.phrases, { minProb: P.kws.minProb, protect: protectedMatches(t, positionsOf(matched)) });
  }
}

/** A hit on (part of) one of `phrases` (lower case). */
const mentions = (h: TextHit, phrases: readonly string[]) =>
  phrases.length > 0 && h.matchedLists.some((l) => l.words.some(({ word }) => phrases.some((v) => v.includes(word.toLowerCase()) || word.toLowerCase().includes(v))));

/** The list entries of the requested types matched in `text` (lower case). */
function entriesIn(text: string, state: ListState, types: ReadonlySet<string>): string[] {
  const hits = matchTranscript(textTranscript(text, 1), state.lists, types, { fromOffset: 0, defaultConf: 1 });
  return hits.flatMap((h) => h.matchedLists.flatMap((l) => l.words.map((w) => w.word.toLowerCase())));
}

/** The phrase entries of the lists answering the requested types. */
function phrasesFor(state: ListState, types: ReadonlySet<string>): string[] {
  return [...state.phraseTypes].filter(([, ts]) => ts.some((x) => types.has(x))).map(([phrase]) => phrase);
}

async function timed<T>(timingsMs: Record<string, number>, key: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const r = await fn();
  timingsMs[key] = Math.round(performance.now() - t0);
  return r;
}
