// Moonshine tiny (English speech to text, MIT; Useful Sensors / Moonshine AI) run with ONNX Runtime: an encoder over
// the raw 16 kHz samples and a decoder with a key/value cache, greedy, its tokens read with the Llama tokenizer the
// model was trained with. The quantized model files ship inside the npm package @moonshine-ai/moonshine-js, which
// is installed for them only: its browser runtime is never loaded (package.json overrides keep it out).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import llamaTokenizer from "llama-tokenizer-js";

const require = createRequire(import.meta.url);

/** The tiny model's decoder shape (layers, key/value heads, head size). */
const SHAPE = { layers: 6, heads: 8, headDim: 36 } as const;
const START = 1;
const END = 2;
/** The model's own bound on tokens per second of audio (a longer output is a loop). */
const TOKENS_PER_SEC = 6;

const PACKAGE = "@moonshine-ai/moonshine-js";
const MODEL = path.join("dist", "model", "tiny", "quantized");

/** Where the model files are (the package exports only its browser bundle, so it is found on the module paths). */
export function moonshineModelDir(): string {
  const dirs = require.resolve.paths(PACKAGE) ?? [];
  const found = dirs.map((d) => path.join(d, PACKAGE, MODEL)).find((d) => existsSync(path.join(d, "encoder_model.onnx")));
  return found ?? path.join(dirs[0] ?? "node_modules", PACKAGE, MODEL);
}

export interface SpokenText {
  text: string;
  /** mean probability of the chosen tokens (0–1) */
  conf: number;
  tokens: number;
}

/** What the model heard in one stretch, kept so other readings of it can be scored against the audio (`logProb`). */
export interface Heard extends SpokenText {
  /** the encoder's output for the stretch */
  encoded: Tensor;
}

export class MoonshineStt {
  private constructor(
    private readonly ort: typeof import("onnxruntime-node"),
    private readonly encoder: InferenceSession,
    private readonly decoder: InferenceSession,
  ) {}

  static async load(): Promise<MoonshineStt> {
    const ort = require("onnxruntime-node") as typeof import("onnxruntime-node");
    const dir = moonshineModelDir();
    // one thread each: the machine's cores belong to the frame detectors and ffmpeg too
    const options = { intraOpNumThreads: 1, interOpNumThreads: 1 };
    const [encoder, decoder] = await Promise.all([
      ort.InferenceSession.create(path.join(dir, "encoder_model.onnx"), options),
      ort.InferenceSession.create(path.join(dir, "decoder_model_merged.onnx"), options),
    ]);
    return new MoonshineStt(ort, encoder, decoder);
  }

  /** Text of 16 kHz mono samples holding speech (give it the voiced part: long silence makes it stop early). */
  async transcribe(samples: Float32Array): Promise<Heard> {
    const { ort } = this;
    const encoded = await this.encoder.run({ input_values: new ort.Tensor("float32", samples, [1, samples.length]) });
    let past = this.emptyPast();
    const pastNames = Object.keys(past);
    const presentNames = pastNames.map((n) => n.replace("past_key_values", "present"));
    const tokens: number[] = [];
    let probSum = 0;
    let input = START;
    const maxTokens = Math.max(4, Math.trunc((samples.length / 16000) * TOKENS_PER_SEC));
    for (let step = 0; step < maxTokens; step++) {
      const out = await this.decoder.run({
        input_ids: new ort.Tensor("int64", BigInt64Array.of(BigInt(input)), [1, 1]),
        encoder_hidden_states: encoded.last_hidden_state,
        use_cache_branch: new ort.Tensor("bool", [step > 0], [1]),
        ...past,
      });
      const logits = out.logits.data as Float32Array;
      const vocab = out.logits.dims[2];
      const { id, prob } = argmaxSoftmax(logits, logits.length - vocab, vocab);
      if (id === END) break;
      tokens.push(id);
      probSum += prob;
      input = id;
      // the encoder's cross-attention cache is computed once (first step); the decoder's grows every step
      const next: Record<string, Tensor> = {};
      pastNames.forEach((name, k) => (next[name] = step === 0 || name.includes(".decoder.") ? out[presentNames[k]] : past[name]));
      past = next;
    }
    const text = tokens.length ? llamaTokenizer.decode([START, ...tokens]).trim() : "";
    return { text, conf: tokens.length ? probSum / tokens.length : 0, tokens: tokens.length, encoded: encoded.last_hidden_state };
  }

  /** Token ids of `text` as the model writes it. */
  tokenize(text: string): number[] {
    return llamaTokenizer.encode(text, false, true);
  }

  /**
   * Log probability (natural log) that the model writes exactly `ids`, then ends, for the audio behind `encoded`: one
   * decoder pass over the whole reading (teacher forcing), so readings of a stretch can be compared. Each reading is
   * scored on its own: in a batch the quantized decoder's activation scales span the batch, and a reading's score
   * would shift (by ≈ 0.3 nats) with whatever else was scored beside it.
   */
  async logProb(encoded: Tensor, ids: readonly number[]): Promise<number> {
    const { ort } = this;
    const input = [START, ...ids];
    const out = await this.decoder.run({
      input_ids: new ort.Tensor("int64", BigInt64Array.from(input, (id) => BigInt(id)), [1, input.length]),
      encoder_hidden_states: encoded,
      use_cache_branch: new ort.Tensor("bool", [false], [1]),
      ...this.emptyPast(),
    });
    const logits = out.logits.data as Float32Array;
    const vocab = out.logits.dims[2];
    return [...ids, END].reduce((sum, id, k) => sum + logSoftmaxAt(logits, k * vocab, vocab, id), 0);
  }

  /** The key/value cache inputs when there is nothing cached (the decoder's first step or a teacher-forced pass). */
  private emptyPast(): Record<string, Tensor> {
    const past: Record<string, Tensor> = {};
    const dims = [0, SHAPE.heads, 1, SHAPE.headDim];
    for (let i = 0; i < SHAPE.layers; i++) {
      for (const part of ["decoder", "encoder"]) {
        for (const kv of ["key", "value"]) past[`past_key_values.${i}.${part}.${kv}`] = new this.ort.Tensor("float32", new Float32Array(0), dims);
      }
    }
    return past;
  }

  async close(): Promise<void> {
    await Promise.all([this.encoder.release(), this.decoder.release()]);
  }
}

function logSoftmaxAt(logits: Float32Array, from: number, n: number, id: number): number {
  let max = -Infinity;
  for (let k = 0; k < n; k++) max = Math.max(max, logits[from + k]);
  let sum = 0;
  for (let k = 0; k < n; k++) sum += Math.exp(logits[from + k] - max);
  return logits[from + id] - max - Math.log(sum);
}

function argmaxSoftmax(logits: Float32Array, from: number, n: number): { id: number; prob: number } {
  let id = 0;
  let max = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = logits[from + k];
    if (v > max) {
      max = v;
      id = k;
    }
  }
  let sum = 0;
  for (let k = 0; k < n; k++) sum += Math.exp(logits[from + k] - max);
  return { id, prob: 1 / sum };
}
