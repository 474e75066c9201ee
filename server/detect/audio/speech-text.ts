// Speech → transcript → keyword lists: pocketsphinx (free transcription + keyword spotting) or a remote transcriber.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { KeywordList } from "../lists/model";
import { KeywordListsReader } from "../lists/store";
import { thresholdsReader, type Thresholds } from "../settings/thresholds";
import { EXTRA_PRONUNCIATIONS } from "./lists";
import type { MonoAudio } from "./pcm";
import { AUDIO_POLICY } from "./policy";
import { POCKETSPHINX_MODEL_DIR, prepareKws, readCmuDict, spotKeywords, transcribeFree, type KwsSetup } from "./stt/pocketsphinx";
import { transcribeRemote } from "./stt/openai";
import { freeTranscript, prependText, protectedMatches, spliceSpotted, textTranscript, type Transcript } from "./stt/transcript";
import { compileAudioLists, matchTranscript, type CompiledAudioLists, type TextHit } from "./text-lists";
import type { TranscriberOption } from "./types";
import type { AudioHit } from "./verdict";

export interface SpeechTextResult {
  hits: AudioHit[];
  /** previousText + this segment's transcript (positions refer to it) */
  text: string;
  segmentText: string;
  /** phrases spotted acoustically that the free transcript had missed */
  spliced: string[];
  timingsMs: Record<string, number>;
}

const P = AUDIO_POLICY;

/** 16-bit PCM WAV bytes of mono float samples followed by `padSec` of silence. */
function paddedWav(a: MonoAudio, padSec: number): Buffer {
  const n = a.samples.length + Math.round(padSec * a.sampleRate);
  const buf = Buffer.alloc(44 + n * 2);
  buf.write("RIFF", 0, "ascii");
  buf.writeUInt32LE(36 + n * 2, 4);
  buf.write("WAVEfmt ", 8, "ascii");
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(a.sampleRate, 24);
  buf.writeUInt32LE(a.sampleRate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36, "ascii");
  buf.writeUInt32LE(n * 2, 40);
  const pcm = new Int16Array(buf.buffer, buf.byteOffset + 44, a.samples.length);
  for (let i = 0; i < a.samples.length; i++) pcm[i] = Math.round(Math.max(-1, Math.min(1, a.samples[i])) * 32767);
  return buf;
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
    return this.o.transcriber.kind === "openai"
      ? `OpenAI-compatible transcription (${this.o.transcriber.model ?? "whisper-1"} at ${this.o.transcriber.baseUrl}) + keyword lists`
      : "pocketsphinx 0.8 en-us (free transcription + keyword spotting) + keyword lists";
  }

  /** Why the engine cannot run, or undefined. */
  unavailable(): string | undefined {
    if (this.o.transcriber.kind === "openai") return undefined;
    if (!existsSync(this.o.pocketsphinx)) return "pocketsphinx_continuous not found (Debian: apt-get install pocketsphinx pocketsphinx-en-us)";
    if (!existsSync(path.join(POCKETSPHINX_MODEL_DIR, "cmudict-en-us.dict"))) return "pocketsphinx English model missing (Debian: apt-get install pocketsphinx-en-us)";
    return undefined;
  }

  /** Writes the keyword-spotting phrase and dictionary files (pocketsphinx only). */
  async init(): Promise<void> {
    if (this.o.transcriber.kind !== "pocketsphinx" || this.unavailable()) return;
    this.dict = await readCmuDict(path.join(POCKETSPHINX_MODEL_DIR, "cmudict-en-us.dict"));
    this.state = undefined;
    await this.listState();
  }

  /** Spoken phrases with no pronunciation (never spotted; still matched in the free transcript). */
  async skippedPhrases(): Promise<string[]> {
    return (await this.listState()).kws?.skipped ?? [];
  }

  async run(audio: MonoAudio, wavPath: string, types: ReadonlySet<string>, previousText: string | undefined): Promise<SpeechTextResult> {
    const timingsMs: Record<string, number> = {};
    const state = await this.listState();
    const th = this.thresholds();
    let current: Transcript;
    let conf: number = P.stt.remoteProbability;
    const t = this.o.transcriber;
    if (t.kind === "openai") {
      const t0 = performance.now();
      const r = await transcribeRemote(wavPath, { baseUrl: t.baseUrl, apiKey: t.apiKey, model: t.model, timeoutMs: P.stt.timeoutMs });
      timingsMs.stt = Math.round(performance.now() - t0);
      conf = r.confidence ?? conf;
      current = textTranscript(r.text, conf);
    } else {
      current = await this.pocketsphinx(audio, types, timingsMs, state);
    }
    const full = previousText ? prependText(previousText, current) : current;
    const fromOffset = full.text.length - current.text.length;
    const hits = matchTranscript(full, state.lists, types, { fromOffset, defaultConf: conf }, th).map(toAudioHit);
    return { hits, text: full.text, segmentText: current.text, spliced: current.spliced, timingsMs };
  }

  private async pocketsphinx(audio: MonoAudio, types: ReadonlySet<string>, timingsMs: Record<string, number>, state: ListState): Promise<Transcript> {
    const tmpDir = path.join(this.o.dataDir, "tmp");
    await mkdir(tmpDir, { recursive: true });
    // trailing silence: without it pocketsphinx misses a keyword that ends the segment
    const padded = path.join(tmpDir, `seg-${process.pid}-${randomBytes(6).toString("hex")}.wav`);
    await writeFile(padded, paddedWav(audio, P.stt.padSec));
    try {
      const run = { bin: this.o.pocketsphinx, timeoutMs: P.stt.timeoutMs };
      const timed = async <T>(key: string, fn: () => Promise<T>) => {
        const t0 = performance.now();
        const r = await fn();
        timingsMs[key] = Math.round(performance.now() - t0);
        return r;
      };
      const kws = state.kws;
      const [utterances, spotted] = await Promise.all([
        timed("stt", () => transcribeFree(padded, run)),
        kws && kws.phrases.size > 0 ? timed("kws", () => spotKeywords(padded, kws, run)) : Promise.resolve([]),
      ]);
      const free = freeTranscript(utterances, P.stt.segmentGapSec);
      if (!kws || spotted.length === 0) return free;
      // phrases spotted for lists that were not requested must not rewrite the transcript
      const relevant = spotted.filter((h) => state.phraseTypes.get(kws.phrases.get(h.phrase)?.text ?? "")?.some((t) => types.has(t)));
      const matched = matchTranscript(free, state.lists, types, { fromOffset: 0, defaultConf: 1 });
      return spliceSpotted(free, relevant, kws.phrases, { minProb: P.kws.minProb, protect: protectedMatches(free, positionsOf(matched)) });
    } finally {
      await rm(padded, { force: true });
    }
  }
}
