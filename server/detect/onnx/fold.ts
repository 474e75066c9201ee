// Exact graph folds for PaddleOCR's PP-OCRv4 models (paddle2onnx output), done in process at load. PP-LCNetV3 wraps
// every convolution in "learnable affine blocks" (a scalar Mul and Add before and after a hard-swish) and writes the
// hard-swish as four element-wise nodes (Add 3, Clip 0..6, Mul, Div 6). ONNX Runtime fuses none of them: each is a
// pass over the feature map, and each breaks its blocked (NCHWc) convolution layout, so it reorders before and after.
// Folded here, with the same arithmetic up to float rounding:
//   Conv → Mul(k) → Add(c)                  ⇒ Conv with k·W and k·b + c                     (per-channel k, c too)
//   Conv → BatchNormalization               ⇒ the same, k = γ/√(σ² + ε), c = β − k·μ
//   Add(x,3) → Clip(0,6) → Mul(x,·) → Div(6) ⇒ Mul(x, HardSigmoid(x; 1/6, 1/2))
//   Mul(k) → Add(c) → Conv 1×1 without pads  ⇒ Conv with k·W and b + c·ΣW
//   Mul(k) → Add(c) → Conv with pads         ⇒ Add(c/k) → Conv with k·W                   (k ≠ 0)
// A node whose output has another consumer, or a constant of another shape, is left as it is.
import { encodeAttribute, encodeModel, FLOAT, type Node, type Tensor } from "./proto";
import { attrOf, constantOf, readModel, valueName, type ReadNode } from "./read";

export interface FoldCount {
  /** element-wise affines folded into the convolution before them */
  affineAfterConv: number;
  /** inference batch normalisations folded into the convolution before them */
  batchNorm: number;
  hardSwish: number;
  /** affines folded into the convolution after them */
  affineBeforeConv: number;
}

interface Work extends ReadNode {
  dead?: boolean;
}

/** The model's bytes with the folds above applied, and how many of each. */
export function foldPaddle(bytes: Uint8Array): { onnx: Buffer; folded: FoldCount } {
  const m = readModel(bytes);
  if (m.initializers.some((t) => t.type !== FLOAT)) throw new Error("ONNX fold: only float initializers are carried over");
  const nodes: Work[] = m.nodes.map((n) => ({ ...n }));
  const consts = new Map<string, { dims: number[]; data: Float32Array }>();
  for (const t of m.initializers) consts.set(t.name, { dims: t.dims, data: floats(t.raw) });
  for (const n of nodes) {
    const t = constantOf(n);
    if (t?.type === FLOAT) consts.set(n.outputs[0], { dims: t.dims, data: floats(t.raw) });
  }
  const graphOutputs = new Set(m.rawOutputs.map(valueName));
  // who reads each value: built once per pass (a fold rewires only what that pass does not look at again; `only`
  // skips the nodes it removed)
  const users = new Map<string, Work[]>();
  const index = () => {
    users.clear();
    for (const n of nodes) {
      if (n.dead) continue;
      for (const i of n.inputs) {
        const u = users.get(i);
        if (u) u.push(n);
        else users.set(i, [n]);
      }
    }
  };
  /** the single node reading `name` (none when it is a graph output or read twice) */
  const only = (name: string): Work | undefined => {
    const u = (users.get(name) ?? []).filter((n) => !n.dead);
    return u.length === 1 && !graphOutputs.has(name) ? u[0] : undefined;
  };
  /** a Clip to [lo, hi]: by its inputs (opset 11+) or its attributes (before) */
  const clipsTo = (clip: Work, lo: number, hi: number): boolean => {
    if (clip.inputs.length === 3) return consts.get(clip.inputs[1])?.data.join() === String(lo) && consts.get(clip.inputs[2])?.data.join() === String(hi);
    const a = Object.fromEntries(clip.rawAttrs.map(attrOf).map((v) => [v.name, v.f]));
    return clip.inputs.length === 1 && a.min === lo && a.max === hi;
  };
  const added: Tensor[] = [];
  let serial = 0;
  const constant = (dims: number[], data: Float32Array): string => {
    const name = `fold_${serial++}`;
    added.push({ name, dims, data });
    consts.set(name, { dims, data });
    return name;
  };
  /** the other input of a binary node when it is a constant: its values */
  const operand = (n: Work, x: string): Float32Array | undefined => {
    if (n.inputs.length !== 2) return undefined;
    const other = n.inputs[0] === x ? n.inputs[1] : n.inputs[1] === x ? n.inputs[0] : undefined;
    return other === undefined ? undefined : consts.get(other)?.data;
  };
  const folded: FoldCount = { affineAfterConv: 0, batchNorm: 0, hardSwish: 0, affineBeforeConv: 0 };
  /** a node after a conv as y = k·x + c per output channel: Mul or Add by a scalar or per-channel constant, or an inference BatchNormalization */
  const channelAffine = (n: Work, x: string, out: number): { k: (o: number) => number; c: (o: number) => number } | undefined => {
    if (n.op === "BatchNormalization") {
      const [scale, beta, mean, variance] = n.inputs.slice(1).map((i) => consts.get(i)?.data);
      if (n.inputs[0] !== x || n.outputs.length !== 1 || ![scale, beta, mean, variance].every((v) => v?.length === out)) return undefined;
      const eps = n.rawAttrs.map(attrOf).find((a) => a.name === "epsilon")?.f ?? 1e-5;
      const k = Float64Array.from(scale!, (g, o) => g / Math.sqrt(variance![o] + eps));
      return { k: (o) => k[o], c: (o) => beta![o] - k[o] * mean![o] };
    }
    if (n.op !== "Mul" && n.op !== "Add") return undefined;
    const v = operand(n, x);
    if (!v || (v.length !== 1 && v.length !== out) || (v.length === out && out !== 1 && !perChannel(consts, n, x, out))) return undefined;
    const at = (o: number) => (v.length === 1 ? v[0] : v[o]);
    return n.op === "Mul" ? { k: at, c: () => 0 } : { k: () => 1, c: at };
  };
  const isConv = (n: Work) => n.op === "Conv" && !n.domain && consts.has(n.inputs[1]);

  // Conv → Mul / Add by a scalar or per-output-channel constant
  index();
  for (const conv of nodes.filter(isConv)) {
    for (;;) {
      const next = only(conv.outputs[0]);
      if (!next || next.domain || next.inputs[0] === undefined) break;
      const w = consts.get(conv.inputs[1])!;
      const out = w.dims[0];
      const affine = channelAffine(next, conv.outputs[0], out);
      if (!affine) break;
      const per = w.data.length / out;
      const bias = conv.inputs[2] ? consts.get(conv.inputs[2])!.data : new Float32Array(out);
      const [W, B] = [w.data.slice(), bias.slice()];
      for (let o = 0; o < out; o++) {
        const [k, c] = [affine.k(o), affine.c(o)];
        B[o] = B[o] * k + c;
        if (k !== 1) for (let i = o * per; i < (o + 1) * per; i++) W[i] *= k;
      }
      conv.inputs = [conv.inputs[0], constant(w.dims, W), constant([out], B)];
      conv.outputs = [next.outputs[0]];
      next.dead = true;
      if (next.op === "BatchNormalization") folded.batchNorm++;
      else folded.affineAfterConv++;
    }
  }

  // hard-swish: x·clip(x + 3, 0, 6)/6
  index();
  for (const add of nodes.filter((n) => n.op === "Add" && !n.domain && !n.dead)) {
    const x = add.inputs.find((i) => operand(add, i)?.length === 1 && operand(add, i)![0] === 3);
    const clip = only(add.outputs[0]);
    if (x === undefined || !clip || clip.op !== "Clip" || clip.inputs[0] !== add.outputs[0] || !clipsTo(clip, 0, 6)) continue;
    const mul = only(clip.outputs[0]);
    if (!mul || mul.op !== "Mul" || !mul.inputs.includes(x) || !mul.inputs.includes(clip.outputs[0])) continue;
    const div = only(mul.outputs[0]);
    if (!div || div.op !== "Div" || div.inputs[0] !== mul.outputs[0] || consts.get(div.inputs[1])?.data.length !== 1 || consts.get(div.inputs[1])!.data[0] !== 6) continue;
    const hs = `${div.outputs[0]}_hardsigmoid`;
    Object.assign(add, { op: "HardSigmoid", inputs: [x], outputs: [hs], rawAttrs: [encodeAttribute("alpha", { float: 1 / 6 }), encodeAttribute("beta", { float: 0.5 })] });
    Object.assign(mul, { inputs: [x, hs], outputs: [div.outputs[0]] });
    clip.dead = div.dead = true;
    folded.hardSwish++;
  }

  // Mul(k) → Add(c) → Conv, scalars
  index();
  for (const mul of nodes.filter((n) => n.op === "Mul" && !n.domain && !n.dead)) {
    const x = mul.inputs.find((i) => operand(mul, i)?.length === 1);
    const add = only(mul.outputs[0]);
    if (x === undefined || !add || add.op !== "Add" || operand(add, mul.outputs[0])?.length !== 1) continue;
    const conv = only(add.outputs[0]);
    if (!conv || !isConv(conv) || conv.inputs[0] !== add.outputs[0]) continue;
    const [k, c] = [operand(mul, x)![0], operand(add, mul.outputs[0])![0]];
    const a = Object.fromEntries(conv.rawAttrs.map(attrOf).map((v) => [v.name, v]));
    const w = consts.get(conv.inputs[1])!;
    const out = w.dims[0];
    const per = w.data.length / out;
    const bias = conv.inputs[2] ? consts.get(conv.inputs[2])!.data : new Float32Array(out);
    const unpadded = (a.pads?.ints ?? []).every((p) => p === 0) && (!a.auto_pad?.s || a.auto_pad.s === "NOTSET" || a.auto_pad.s === "VALID");
    const oneByOne = w.dims.slice(2).every((d) => d === 1);
    if (oneByOne && unpadded) {
      const B = bias.slice();
      for (let o = 0; o < out; o++) {
        let sum = 0;
        for (let i = o * per; i < (o + 1) * per; i++) sum += w.data[i];
        B[o] += c * sum;
      }
      conv.inputs = [x, constant(w.dims, scaled(w.data, k)), constant([out], B)];
      mul.dead = add.dead = true;
    } else if (k !== 0) {
      Object.assign(mul, { op: "Add", inputs: [x, constant([1], Float32Array.of(c / k))], outputs: [add.outputs[0]] });
      conv.inputs = [add.outputs[0], constant(w.dims, scaled(w.data, k)), ...(conv.inputs[2] ? [conv.inputs[2]] : [])];
      add.dead = true;
    } else continue;
    folded.affineBeforeConv++;
  }

  const live = nodes.filter((n) => !n.dead);
  // Constant nodes no one reads any more (folded weights) are dropped
  index();
  const kept = live.filter((n) => n.op !== "Constant" || (users.get(n.outputs[0])?.length ?? 0) > 0 || graphOutputs.has(n.outputs[0]));
  const out: Node[] = kept.map((n) => ({ op: n.op, inputs: n.inputs, outputs: n.outputs, name: n.name, rawAttrs: n.rawAttrs, domain: n.domain }));
  const read = new Set(kept.flatMap((n) => n.inputs));
  const initializers: Tensor[] = [...m.initializers.map((t) => ({ name: t.name, dims: t.dims, data: consts.get(t.name)!.data })), ...added.filter((t) => read.has(t.name))];
  const onnx = encodeModel({ name: m.graphName, nodes: out, initializers, inputs: [], outputs: [], raw: { inputs: m.rawInputs, outputs: m.rawOutputs, opsets: m.rawOpsets, irVersion: m.irVersion } }, 0, "moderation-paddle-fold");
  return { onnx, folded };
}

function scaled(v: Float32Array, k: number): Float32Array {
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * k;
  return out;
}

function floats(raw: Uint8Array): Float32Array {
  const copy = new Uint8Array(raw.byteLength);
  copy.set(raw);
  return new Float32Array(copy.buffer);
}

/** a per-channel constant of a Mul/Add after a conv must be shaped [1, C, 1, 1] or [C, 1, 1] to broadcast per channel */
function perChannel(consts: Map<string, { dims: number[] }>, n: Work, x: string, out: number): boolean {
  const name = n.inputs[0] === x ? n.inputs[1] : n.inputs[0];
  const dims = consts.get(name)?.dims ?? [];
  const trimmed = [...dims];
  while (trimmed[0] === 1 && trimmed.length > 3) trimmed.shift();
  return trimmed.length === 3 && trimmed[0] === out && trimmed[1] === 1 && trimmed[2] === 1;
}
