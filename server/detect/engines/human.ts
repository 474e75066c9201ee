// One @vladmandic/human instance per worker thread (node-wasm build, models read from node_modules: no network).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as tf from "@tensorflow/tfjs";
import sharp from "sharp";
import type { Config, Human, Result } from "@vladmandic/human";
import { POLICY } from "../policy";
import { MAX_DECODE_SIDE, type RgbPixels } from "./engine";

const require = createRequire(import.meta.url);
// its exports map hides package.json: resolve the main entry (dist/human.node.js) and go up one folder
const HUMAN_DIR = path.resolve(path.dirname(require.resolve("@vladmandic/human")), "..");
export const HUMAN_MODELS_DIR = path.join(HUMAN_DIR, "models");

let routerRegistered = false;

/**
 * tfjs has no file:// loader outside tfjs-node and Node's fetch does not read file://: serve the graph-model JSON
 * and its weight shards from disk through a load router (human's model loader asks tf.io for a handler first).
 */
function registerFileRouter(): void {
  if (routerRegistered) return;
  routerRegistered = true;
  // a router returning null passes the URL on to the other routers (tfjs skips null handlers)
  const router = (url: string | string[]) => {
    if (typeof url !== "string" || !url.startsWith("file://")) return null;
    const file = fileURLToPath(url);
    return {
      load: async () => {
        const json = JSON.parse(await readFile(file, "utf8"));
        const weightSpecs = [];
        const shards: Buffer[] = [];
        for (const group of json.weightsManifest ?? []) {
          weightSpecs.push(...group.weights);
          for (const p of group.paths) shards.push(await readFile(path.join(path.dirname(file), p)));
        }
        const all = Buffer.concat(shards);
        return {
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          signature: json.signature,
          userDefinedMetadata: json.userDefinedMetadata,
          weightSpecs,
          weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer,
        };
      },
    };
  };
  tf.io.registerLoadRouter(router as unknown as Parameters<typeof tf.io.registerLoadRouter>[0]);
}

/** Only the modules we use; everything else off so it is neither loaded nor run. Skip/caching off: frames are unrelated. */
function baseConfig(parts: { faces: boolean; objects: boolean }): Partial<Config> {
  const never = { skipFrames: 0, skipTime: 0 };
  return {
    backend: "wasm",
    // the backend's wasm binaries sit next to its own entry file
    wasmPath: path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")) + path.sep,
    modelBasePath: pathToFileURL(HUMAN_MODELS_DIR).href + "/",
    debug: false,
    async: true,
    warmup: "none",
    cacheModels: false,
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: parts.faces,
      detector: { ...never, rotation: false, maxDetected: POLICY.faces.maxDetected, minConfidence: POLICY.faces.candidateScore, return: false },
      // the mesh validates BlazeFace's boxes (its score is face.score) and aligns the crop for faceres
      mesh: { ...never, enabled: true },
      description: { ...never, enabled: true },
      iris: { enabled: false },
      emotion: { enabled: false },
      attention: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
    object: { ...never, enabled: parts.objects, minConfidence: 0.2, maxDetected: POLICY.objects.maxDetected, iouThreshold: 0.4 },
  } as Partial<Config>;
}

const REQUIRED_MODELS = { faces: ["blazeface", "facemesh", "faceres"], objects: ["centernet"] };
let instance: Promise<Human> | undefined;
const loaded = { faces: false, objects: false };

/** The thread's Human with at least `part`'s models loaded. */
export async function loadHuman(part: "faces" | "objects"): Promise<Human> {
  registerFileRouter();
  instance ??= (async () => {
    // the exports map points "node" at the tfjs-node build, which needs a native binding we do not have
    const mod = require(path.join(HUMAN_DIR, "dist", "human.node-wasm.js")) as { Human: new (c: Partial<Config>) => Human };
    return new mod.Human(baseConfig({ faces: false, objects: false }));
  })();
  const human = await instance;
  if (!loaded[part]) {
    loaded[part] = true;
    await human.load(baseConfig(loaded));
    // human logs and carries on when a model fails to load: fail the worker's start instead
    const missing = REQUIRED_MODELS[part].filter((m) => !human.models.loaded().includes(m));
    if (missing.length > 0) throw new Error(`human models not loaded from ${HUMAN_MODELS_DIR}: ${missing.join(", ")}`);
  }
  return human;
}

/** Run human on decoded pixels with exactly these modules on (human merges per-call config into its own). */
export async function runHuman(human: Human, px: RgbPixels, parts: { faces: boolean; description: boolean; objects: boolean }): Promise<Result> {
  const input = tf.tensor3d(px.data, [px.height, px.width, 3], "int32");
  try {
    return await human.detect(input as never, {
      face: { enabled: parts.faces, description: { enabled: parts.description } },
      object: { enabled: parts.objects },
    } as Partial<Config>);
  } finally {
    input.dispose();
  }
}

/** [x, y, w, h] in decoded pixels → [x1, y1, x2, y2] in frame pixels, clamped to the frame. */
export function toLocation(box: readonly number[], px: RgbPixels, frameW: number, frameH: number): [number, number, number, number] {
  const s = px.scale;
  const c = (v: number, max: number) => Math.round(Math.min(max, Math.max(0, v * s)));
  return [c(box[0], frameW), c(box[1], frameH), c(box[0] + box[2], frameW), c(box[1] + box[3], frameH)];
}

/** RGB pixels of an image (EXIF-oriented), at most MAX_DECODE_SIDE on the long side. */
export async function decodeRgb(image: Uint8Array): Promise<RgbPixels> {
  const meta = await sharp(image).metadata();
  const w = meta.autoOrient?.width ?? meta.width ?? 0;
  const h = meta.autoOrient?.height ?? meta.height ?? 0;
  let pipeline = sharp(image).rotate().removeAlpha();
  if (Math.max(w, h) > MAX_DECODE_SIDE) pipeline = pipeline.resize(MAX_DECODE_SIDE, MAX_DECODE_SIDE, { fit: "inside" });
  const { data, info } = await pipeline.toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, scale: w > 0 ? w / info.width : 1 };
}
