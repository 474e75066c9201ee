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

  async run(frame: Frame, _requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    if (!this.model) throw new Error("NSFW engine not initialised");
    // squash the whole frame to 224×224 like nsfwjs' own resize, so nothing at the edges is cropped away
    const rgb = await sharp(frame.jpeg).resize(SIZE, SIZE, { fit: "fill" }).removeAlpha().raw().toBuffer();
    const input = tf.tensor3d(new Int32Array(rgb), [SIZE, SIZE, 3], "int32");
    let predictions;
    try {
      predictions = await this.model.classify(input, 5);
    } finally {
      input.dispose();
    }
    const scores: Record<string, number> = {};
    for (const p of predictions) scores[p.className] = Math.round(p.probability * 10000) / 10000;
    return { hits: nsfwHits(scores, req.thresholds), scores };
  }

  async close(): Promise<void> {
    this.model?.dispose();
    this.model = undefined;
  }
}
