// EROTIC: nsfwjs MobileNetV2 (weights bundled in the package). tfjs loads the model; by default it is then
// converted in process to ONNX and runs on ONNX Runtime's native kernels (≈ 6 × less CPU a frame than tfjs-wasm, the same
// scores to 10⁻⁶: server/detect/onnx/keras.ts). `runtime: "tfjs"` keeps the original path, as the reference the
// conversion is tested and benched against.
import { createRequire } from "node:module";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { load, type NSFWJS } from "nsfwjs";
import * as ort from "onnxruntime-node";
import sharp from "sharp";
import { kerasToOnnx } from "../onnx/keras";
import { POLICY } from "../policy";
import { DEFAULT_THRESHOLDS, type Thresholds } from "../settings/thresholds";
import type { Engine, EngineOutput, Frame, FrameRequest, Hit } from "./engine";

const require = createRequire(import.meta.url);
const SIZE = 224;
/** nsfwjs divides pixel values by this before its MobileNetV2 */
const NORMALIZATION = 255;
/** the model's output classes in order (nsfwjs' NSFW_CLASSES, not exported by its entry) */
const NSFW_CLASSES = ["Drawing", "Hentai", "Neutral", "Porn", "Sexy"] as const;

/** At most one hit per class: REJECT labels at the class's reject threshold, REVIEW labels at its review threshold. */
export function nsfwHits(scores: Record<string, number>, th: Thresholds = DEFAULT_THRESHOLDS): Hit[] {
  const hits: Hit[] = [];
  for (const [cls, rule] of Object.entries(POLICY.nsfw.classes)) {
    const p = scores[cls] ?? 0;
    const level = th.level(`nsfw:${cls}`, p);
    if (!level) continue;
    const labels = level === "REJECT" ? rule.rejectLabels : rule.reviewLabels;
    hits.push({ imgType: "EROTIC", riskLevel: level, labels, probability: Math.round(p * 1000) / 1000, riskSource: POLICY.nsfw.riskSource });
  }
  return hits;
}

let backend: Promise<void> | undefined;
/** tfjs' wasm backend, set up once per thread (engines may initialise side by side) */
export function wasmBackend(): Promise<void> {
  backend ??= (async () => {
    // the wasm binaries sit next to the backend's own entry file: no CDN
    setWasmPaths(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")) + path.sep);
    if (!(await tf.setBackend("wasm"))) throw new Error("tfjs wasm backend failed to initialise");
    await tf.ready();
  })();
  backend.catch(() => (backend = undefined));
  return backend;
}

export type NsfwRuntime = "onnx" | "tfjs";

export class NsfwEngine implements Engine {
  readonly name = "nsfw";
  readonly imgTypes = ["EROTIC"] as const;
  private model: NSFWJS | undefined;
  private session: { run: ort.InferenceSession; input: string; output: string } | undefined;

  constructor(readonly runtime: NsfwRuntime = "onnx") {}

  async init(): Promise<void> {
    await wasmBackend();
    // nsfwjs 4.4 resolves "MobileNetV2" to model.min.js + group1-shard1of1.min.js inside its dist/models (dynamic import, offline)
    const info = console.info;
    console.info = () => {}; // nsfwjs logs a hosting hint on every load
    let model: NSFWJS;
    try {
      model = await load("MobileNetV2");
    } finally {
      console.info = info;
    }
    if (this.runtime === "tfjs") {
      this.model = model;
      return;
    }
    try {
      const converted = kerasToOnnx(model.model as tf.LayersModel);
      // one thread: the detect pool runs one worker per core
      const run = await ort.InferenceSession.create(converted.onnx, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all", executionMode: "sequential" });
      this.session = { run, input: converted.input, output: converted.output };
    } finally {
      model.dispose();
    }
  }

  async run(frame: Frame, requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    return (await this.runBatch([{ frame, requested, req }]))[0];
  }

  /**
   * Several frames through the model as one batch: the same scores as one by one (within float rounding), for less
   * CPU per frame on tfjs (the weights are read once per batch).
   */
  async runBatch(items: ReadonlyArray<{ frame: Frame; requested: ReadonlySet<string>; req: FrameRequest }>): Promise<EngineOutput[]> {
    if (!this.model && !this.session) throw new Error("NSFW engine not initialised");
    // squash the whole frame to 224×224 like nsfwjs' own resize, so nothing at the edges is cropped away
    const rgbs = await Promise.all(items.map(({ frame }) => sharp(frame.jpeg).resize(SIZE, SIZE, { fit: "fill" }).removeAlpha().raw().toBuffer()));
    const values = this.session ? await this.onnx(this.session, rgbs) : await this.tfjs(this.model!, rgbs);
    const classes = values.length / items.length;
    return items.map(({ req }, i) => {
      const scores: Record<string, number> = {};
      for (let c = 0; c < classes; c++) scores[NSFW_CLASSES[c]] = Math.round(values[i * classes + c] * 10000) / 10000;
      return { hits: nsfwHits(scores, req.thresholds), scores };
    });
  }

  /** nsfwjs' preprocessing (÷ 255 at 224 px), laid out NCHW for the converted model */
  private async onnx(s: NonNullable<NsfwEngine["session"]>, rgbs: Buffer[]): Promise<Float32Array> {
    const plane = SIZE * SIZE;
    const x = new Float32Array(plane * 3 * rgbs.length);
    rgbs.forEach((rgb, b) => {
      const base = b * plane * 3;
      for (let p = 0; p < plane; p++) {
        x[base + p] = rgb[p * 3] / NORMALIZATION;
        x[base + plane + p] = rgb[p * 3 + 1] / NORMALIZATION;
        x[base + 2 * plane + p] = rgb[p * 3 + 2] / NORMALIZATION;
      }
    });
    const out = await s.run.run({ [s.input]: new ort.Tensor("float32", x, [rgbs.length, 3, SIZE, SIZE]) });
    return out[s.output].data as Float32Array;
  }

  /** nsfwjs' own preprocessing (÷ 255 at 224 px, no resize) and model, for a batch instead of its one image */
  private async tfjs(model: NSFWJS, rgbs: Buffer[]): Promise<Float32Array> {
    const plane = SIZE * SIZE * 3;
    const pixels = new Int32Array(plane * rgbs.length);
    rgbs.forEach((rgb, i) => pixels.set(rgb, i * plane));
    const logits = tf.tidy(() => {
      const x = tf.tensor4d(pixels, [rgbs.length, SIZE, SIZE, 3], "int32").toFloat().div(NORMALIZATION);
      return model.model.predict(x) as tf.Tensor;
    });
    try {
      return (await logits.data()) as Float32Array;
    } finally {
      logits.dispose();
    }
  }

  async close(): Promise<void> {
    this.model?.dispose();
    this.model = undefined;
    await this.session?.run.release();
    this.session = undefined;
  }
}
