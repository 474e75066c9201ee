// The NSFW model converted in process from tfjs Keras layers to ONNX (issue #28: CPU per frame) scores as the
// original does on tfjs-wasm: the real nsfwjs MobileNetV2 on real frames, and small random models for the layers
// MobileNetV2 does not use. A layer the converter cannot express is refused by name.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import * as tf from "@tensorflow/tfjs";
import * as ort from "onnxruntime-node";
import sharp from "sharp";
import type { Frame, FrameRequest } from "../../server/detect/engines/engine";
import { NsfwEngine, wasmBackend } from "../../server/detect/engines/nsfw";
import { kerasToOnnx } from "../../server/detect/onnx/keras";
import { DEFAULT_THRESHOLDS } from "../../server/detect/settings/thresholds";
import { assetFrame, patternFrame, testsrc2Frame } from "../bench/detectors";

const req: FrameRequest = { imgTypes: new Set(["EROTIC"]), businessTypes: new Set(), thresholds: DEFAULT_THRESHOLDS };
const asFrame = async (jpeg: Buffer): Promise<Frame> => {
  const m = await sharp(jpeg).metadata();
  return { jpeg: new Uint8Array(jpeg), width: m.width!, height: m.height!, rgb: () => Promise.reject(new Error("not used")) };
};

before(() => wasmBackend());

test("NSFW on ONNX Runtime: the same scores and hits as nsfwjs on tfjs, frame by frame and in a batch", async () => {
  const frames = await Promise.all([await assetFrame("samples.jpg"), await patternFrame(), await testsrc2Frame()].map(asFrame));
  const [onnx, tfjs] = [new NsfwEngine("onnx"), new NsfwEngine("tfjs")];
  await Promise.all([onnx.init(), tfjs.init()]);
  try {
    const items = frames.map((frame) => ({ frame, requested: req.imgTypes, req }));
    const reference = await tfjs.runBatch(items);
    const batch = await onnx.runBatch(items);
    for (const [i, it] of items.entries()) {
      const single = await onnx.run(it.frame, it.requested, it.req);
      for (const out of [single, batch[i]]) {
        assert.deepEqual(Object.keys(out.scores ?? {}).sort(), Object.keys(reference[i].scores ?? {}).sort());
        for (const [k, v] of Object.entries(reference[i].scores ?? {})) assert.ok(Math.abs((out.scores?.[k] ?? NaN) - v) <= 2e-4, `frame ${i} ${k}: ${out.scores?.[k]} vs ${v}`);
        assert.deepEqual(out.hits, reference[i].hits, `frame ${i} hits`);
      }
    }
    // the three frames score differently, so a mix-up inside the batch would show
    assert.notDeepEqual(batch[0].scores, batch[1].scores);
  } finally {
    await Promise.all([onnx.close(), tfjs.close()]);
  }
});

/** A model's predictions on tfjs and on the converted ONNX graph, for random input. */
async function compare(model: tf.LayersModel, n = 2): Promise<number> {
  const [, h, w, c] = model.inputs[0].shape as number[];
  const nhwc = tf.randomUniform([n, h!, w!, c!], 0, 1, "float32", 7);
  const expected = (model.predict(nhwc) as tf.Tensor).dataSync();
  const nchw = nhwc.transpose([0, 3, 1, 2]).dataSync() as Float32Array;
  const { onnx, input, output } = kerasToOnnx(model);
  const session = await ort.InferenceSession.create(onnx);
  try {
    const got = (await session.run({ [input]: new ort.Tensor("float32", Float32Array.from(nchw), [n, c!, h!, w!]) }))[output].data as Float32Array;
    assert.equal(got.length, expected.length);
    return Math.max(...Array.from(got, (g, i) => Math.abs(g - expected[i])));
  } finally {
    await session.release();
  }
}

test("keras→onnx: 'same' padding, biases, max and global pooling, a relu Dense, odd sizes", async () => {
  const input = tf.input({ shape: [13, 11, 3] });
  const a = tf.layers.conv2d({ filters: 5, kernelSize: 3, padding: "same", useBias: true, activation: "relu", biasInitializer: "randomNormal" }).apply(input) as tf.SymbolicTensor;
  const b = tf.layers.depthwiseConv2d({ kernelSize: [3, 5], depthMultiplier: 2, padding: "same", useBias: true, biasInitializer: "randomNormal" }).apply(a) as tf.SymbolicTensor;
  const c = tf.layers.batchNormalization({ betaInitializer: "randomNormal", gammaInitializer: "randomNormal", movingMeanInitializer: "randomNormal", movingVarianceInitializer: "ones" }).apply(b) as tf.SymbolicTensor;
  const d = tf.layers.reLU({ maxValue: 2.5 }).apply(c) as tf.SymbolicTensor;
  const e = tf.layers.zeroPadding2d({ padding: [[1, 0], [0, 2]] }).apply(d) as tf.SymbolicTensor;
  const f = tf.layers.conv2d({ filters: 4, kernelSize: 2, strides: 2, padding: "valid" }).apply(e) as tf.SymbolicTensor;
  const g = tf.layers.maxPooling2d({ poolSize: 2 }).apply(f) as tf.SymbolicTensor;
  const h = tf.layers.globalAveragePooling2d({}).apply(g) as tf.SymbolicTensor;
  const out = tf.layers.dense({ units: 3, activation: "softmax" }).apply(tf.layers.dense({ units: 6, activation: "relu" }).apply(h)) as tf.SymbolicTensor;
  const model = tf.model({ inputs: input, outputs: out });
  assert.ok((await compare(model)) < 1e-5);
  model.dispose();
});

test("keras→onnx: a layer it cannot express is refused by name, never approximated", () => {
  const leaky = tf.sequential({ layers: [tf.layers.conv2d({ inputShape: [8, 8, 3], filters: 2, kernelSize: 3 }), tf.layers.leakyReLU({ name: "the_leaky_one" })] });
  assert.throws(() => kerasToOnnx(leaky), /the_leaky_one \(LeakyReLU\) is not supported/);
  const strided = tf.sequential({ layers: [tf.layers.conv2d({ inputShape: [8, 8, 3], filters: 2, kernelSize: 3, strides: 2, padding: "same", name: "same_stride_2" })] });
  assert.throws(() => kerasToOnnx(strided), /same_stride_2: padding same with strides 2×2/);
  const flat = tf.sequential({ layers: [tf.layers.conv2d({ inputShape: [8, 8, 3], filters: 2, kernelSize: 3 }), tf.layers.flatten({ name: "flat_map" })] });
  assert.throws(() => kerasToOnnx(flat), /flat_map: Flatten of a 6×6 map/);
  const wide = tf.sequential({ layers: [tf.layers.conv2d({ inputShape: [8, 8, 3], filters: 2, kernelSize: 3 }), tf.layers.dense({ units: 2, name: "dense_on_map" })] });
  assert.throws(() => kerasToOnnx(wide), /dense_on_map: a Dense on a rank-4 input/);
  const dilated = tf.sequential({ layers: [tf.layers.conv2d({ inputShape: [8, 8, 3], filters: 2, kernelSize: 3, padding: "same", dilationRate: 2, name: "dilated_same" })] });
  assert.throws(() => kerasToOnnx(dilated), /dilated_same: padding same with a dilation/);
  const first = tf.sequential({ layers: [tf.layers.maxPooling2d({ inputShape: [3, 8, 8], poolSize: 2, dataFormat: "channelsFirst", name: "pool_nchw" })] });
  assert.throws(() => kerasToOnnx(first), /pool_nchw: data format channelsFirst/);
  for (const m of [leaky, strided, flat, wide, dilated, first]) m.dispose();
});
