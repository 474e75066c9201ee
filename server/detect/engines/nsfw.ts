// EROTIC: nsfwjs MobileNetV2 (weights bundled in the package) on tfjs with the wasm backend.
import { createRequire } from "node:module";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { load, type NSFWJS } from "nsfwjs";
import sharp from "sharp";
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

export class NsfwEngine implements Engine {
  readonly name = "nsfw";
  readonly imgTypes = ["EROTIC"] as const;
  private model: NSFWJS | undefined;

  async init(): Promise<void> {
    // the wasm binaries sit next to the backend's own entry file: no CDN
    setWasmPaths(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")) + path.sep);
    if (!(await tf.setBackend("wasm"))) throw new Error("tfjs wasm backend failed to initialise");
    await tf.ready();
    // nsfwjs 4.4 resolves "MobileNetV2" to model.min.js + group1-shard1of1.min.js inside its dist/models (dynamic import, offline)
    const info = console.info;
    console.info = () => {}; // nsfwjs logs a hosting hint on every load
    try {
      this.model = await load("MobileNetV2");
    } finally {
      console.info = info;
    }
  }

  async run(frame: Frame, requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    return (await this.runBatch([{ frame, requested, req }]))[0];
  }

  /**
   * Several frames through the model as one batch ([n, 224, 224, 3]): the same scores as one by one (within float
   * rounding), for less CPU per frame (the weights are read once per batch).
   */
  async runBatch(items: ReadonlyArray<{ frame: Frame; requested: ReadonlySet<string>; req: FrameRequest }>): Promise<EngineOutput[]> {
    const model = this.model;
    if (!model) throw new Error("NSFW engine not initialised");
    // squash the whole frame to 224×224 like nsfwjs' own resize, so nothing at the edges is cropped away
    const rgbs = await Promise.all(items.map(({ frame }) => sharp(frame.jpeg).resize(SIZE, SIZE, { fit: "fill" }).removeAlpha().raw().toBuffer()));
    const plane = SIZE * SIZE * 3;
    const pixels = new Int32Array(plane * items.length);
    rgbs.forEach((rgb, i) => pixels.set(rgb, i * plane));
    // nsfwjs' own preprocessing (÷ 255 at 224 px, no resize) and model, for a batch instead of its one image
    const logits = tf.tidy(() => {
      const x = tf.tensor4d(pixels, [items.length, SIZE, SIZE, 3], "int32").toFloat().div(NORMALIZATION);
      return model.model.predict(x) as tf.Tensor;
    });
    let values: Float32Array;
    try {
      values = (await logits.data()) as Float32Array;
    } finally {
      logits.dispose();
    }
    const classes = values.length / items.length;
    return items.map(({ req }, i) => {
      const scores: Record<string, number> = {};
      for (let c = 0; c < classes; c++) scores[NSFW_CLASSES[c]] = Math.round(values[i * classes + c] * 10000) / 10000;
      return { hits: nsfwHits(scores, req.thresholds), scores };
    });
  }

  async close(): Promise<void> {
    this.model?.dispose();
    this.model = undefined;
  }
}
