// A tfjs Keras layers model → ONNX, in process, for the layers a MobileNet-style classifier uses (Conv2D,
// DepthwiseConv2D, BatchNormalization, ReLU/ReLU6, ZeroPadding2D, Add, pooling, Flatten, Dense, Dropout). The same
// weights run on ONNX Runtime's native kernels instead of tfjs-wasm: the scores agree to float rounding
// (tests/unit/nsfw-onnx.test.ts), for a fraction of the CPU. A layer it does not know is refused by name, never
// approximated. The graph takes NCHW input (ONNX's convolution layout); the caller feeds `[n, c, h, w]`.
import type * as tf from "@tensorflow/tfjs";
import { encodeModel, type Node, type Tensor } from "./proto";

type Layer = tf.layers.Layer;
type Config = Record<string, unknown>;

/** Keras kernel [kh, kw, in, out] → ONNX [out, in, kh, kw] */
function convKernel(k: Float32Array, [kh, kw, ci, co]: [number, number, number, number]): Float32Array {
  const out = new Float32Array(k.length);
  for (let y = 0; y < kh; y++) for (let x = 0; x < kw; x++) for (let i = 0; i < ci; i++) for (let o = 0; o < co; o++) out[((o * ci + i) * kh + y) * kw + x] = k[((y * kw + x) * ci + i) * co + o];
  return out;
}

/** Keras depthwise kernel [kh, kw, c, m] → ONNX grouped [c * m, 1, kh, kw] */
function depthwiseKernel(k: Float32Array, [kh, kw, c, m]: [number, number, number, number]): Float32Array {
  const out = new Float32Array(k.length);
  for (let y = 0; y < kh; y++) for (let x = 0; x < kw; x++) for (let i = 0; i < c; i++) for (let j = 0; j < m; j++) out[((i * m + j) * kh + y) * kw + x] = k[((y * kw + x) * c + i) * m + j];
  return out;
}

/** a kernel's [kh, kw, in, out] (or [kh, kw, c, m]) */
function four(shape: number[] | undefined, name: string): [number, number, number, number] {
  if (!shape || shape.length !== 4) throw new Error(`keras→onnx: ${name}: kernel shape ${JSON.stringify(shape)}`);
  return shape as [number, number, number, number];
}

function pair(v: unknown, what: string): [number, number] {
  const a = Array.isArray(v) ? v : [v, v];
  if (a.length !== 2 || a.some((x) => typeof x !== "number")) throw new Error(`keras→onnx: ${what} ${JSON.stringify(v)}`);
  return [a[0] as number, a[1] as number];
}

/** ONNX pads [top, left, bottom, right] for a Keras padding mode (TF's "same" puts the odd pixel at the end) */
function convPads(cfg: Config, kernel: [number, number], name: string): number[] {
  if (cfg.padding === "valid") return [0, 0, 0, 0];
  const strides = pair(cfg.strides ?? [1, 1], "strides");
  // 'same' with a dilation pads (k − 1)·d: refused rather than mis-padded
  if (pair(cfg.dilationRate ?? [1, 1], "dilationRate").some((d) => d !== 1)) throw new Error(`keras→onnx: ${name}: padding same with a dilation is not supported`);
  if (cfg.padding !== "same" || strides.some((s) => s !== 1)) throw new Error(`keras→onnx: ${name}: padding ${String(cfg.padding)} with strides ${strides.join("×")} is not supported`);
  const [kh, kw] = kernel;
  return [Math.floor((kh - 1) / 2), Math.floor((kw - 1) / 2), Math.ceil((kh - 1) / 2), Math.ceil((kw - 1) / 2)];
}

export interface ConvertedModel {
  onnx: Buffer;
  input: string;
  output: string;
  /** [channels, height, width] the model expects */
  inputShape: [number, number, number];
}

/** Converts a single-input, single-output layers model; throws naming the first layer it cannot express. */
export function kerasToOnnx(model: tf.LayersModel): ConvertedModel {
  const nodes: Node[] = [];
  const initializers: Tensor[] = [];
  /** a layer's output → the ONNX value that holds it (Dropout and InputLayer alias their input) */
  const value = new Map<string, string>();
  /** a ZeroPadding2D's output, folded into the convolution that reads it */
  const padded = new Map<string, { source: string; pads: [number, number, number, number] }>();
  const weight = (name: string, dims: number[], data: Float32Array | BigInt64Array): string => {
    initializers.push({ name, dims, data });
    return name;
  };
  const inputOf = (layer: Layer): string[] => {
    const inbound = layer.inboundNodes[0]?.inboundLayers ?? [];
    return inbound.map((l) => {
      const v = l.getClassName() === "InputLayer" ? "input" : value.get(l.name);
      if (v === undefined) throw new Error(`keras→onnx: ${layer.name}: input ${l.name} not converted`);
      return v;
    });
  };
  const data = (t: tf.Tensor): Float32Array => t.dataSync() as Float32Array;
  const clip6 = weight("relu6_max", [], new Float32Array([6]));
  const zero = weight("relu6_min", [], new Float32Array([0]));

  // a Sequential's InputLayer is not among its layers: it is found as the first layer's inbound one
  const inShape = model.inputs[0]?.shape ?? [];
  if (inShape.length !== 4 || inShape.slice(1).some((d) => d === null)) throw new Error(`keras→onnx: input shape ${JSON.stringify(inShape)} is not [n, h, w, c]`);
  const inputShape = [inShape[3], inShape[1], inShape[2]] as [number, number, number];

  for (const layer of model.layers) {
    const cls = layer.getClassName();
    const cfg = layer.getConfig() as Config;
    // the graph is laid out NCHW from NHWC weights: a channels-first layer would be converted over the wrong axes
    if (cfg.dataFormat !== undefined && cfg.dataFormat !== "channelsLast") throw new Error(`keras→onnx: ${layer.name}: data format ${String(cfg.dataFormat)} is not supported`);
    const out = layer.name;
    const w = layer.getWeights();
    const conv = (op: "conv" | "depthwise") => {
      const [src] = inputOf(layer);
      const pad = padded.get(src);
      const shape = four(w[0]?.shape, layer.name);
      const kernel = pair(cfg.kernelSize, "kernelSize");
      let pads = convPads(cfg, kernel, layer.name);
      if (pad) pads = pads.map((p, i) => p + pad.pads[i]);
      const k = op === "conv" ? convKernel(data(w[0]), shape) : depthwiseKernel(data(w[0]), shape);
      const dims = op === "conv" ? [shape[3], shape[2], shape[0], shape[1]] : [shape[2] * shape[3], 1, shape[0], shape[1]];
      const inputs = [pad ? pad.source : src, weight(`${out}/kernel`, dims, k)];
      if (cfg.useBias) inputs.push(weight(`${out}/bias`, [dims[0]], data(w[1])));
      const attrs = { kernel_shape: kernel, strides: pair(cfg.strides ?? [1, 1], "strides"), pads, dilations: pair(cfg.dilationRate ?? [1, 1], "dilationRate"), group: op === "conv" ? 1 : shape[2] };
      nodes.push({ op: "Conv", inputs, outputs: [out], attrs });
      activation(out, cfg.activation);
    };
    const activation = (name: string, act: unknown) => {
      if (act === undefined || act === "linear") return value.set(layer.name, name);
      const to = `${name}/${String(act)}`;
      if (act === "relu") nodes.push({ op: "Relu", inputs: [name], outputs: [to] });
      else if (act === "softmax") nodes.push({ op: "Softmax", inputs: [name], outputs: [to], attrs: { axis: 1 } });
      else throw new Error(`keras→onnx: ${layer.name}: activation ${String(act)} is not supported`);
      value.set(layer.name, to);
    };
    switch (cls) {
      case "InputLayer":
        value.set(out, "input");
        break;
      case "Dropout":
        value.set(out, inputOf(layer)[0]);
        break;
      case "ZeroPadding2D": {
        const [[t, b], [l, r]] = cfg.padding as [[number, number], [number, number]];
        const src = inputOf(layer)[0];
        padded.set(out, { source: src, pads: [t, l, b, r] });
        // read only by the convolution that follows (checked there); the value itself is never materialised
        value.set(out, out);
        break;
      }
      case "Conv2D":
        conv("conv");
        break;
      case "DepthwiseConv2D":
        conv("depthwise");
        break;
      case "BatchNormalization": {
        if (cfg.axis !== -1 && cfg.axis !== 3) throw new Error(`keras→onnx: ${layer.name}: axis ${String(cfg.axis)}`);
        // weights in Keras order: gamma (if scale), beta (if center), moving mean, moving variance
        let i = 0;
        const c = w[w.length - 1].shape[0];
        const gamma = cfg.scale ? data(w[i++]) : new Float32Array(c).fill(1);
        const beta = cfg.center ? data(w[i++]) : new Float32Array(c);
        const [mean, variance] = [data(w[i++]), data(w[i++])];
        const ins = [inputOf(layer)[0], weight(`${out}/gamma`, [c], gamma), weight(`${out}/beta`, [c], beta), weight(`${out}/mean`, [c], mean), weight(`${out}/variance`, [c], variance)];
        nodes.push({ op: "BatchNormalization", inputs: ins, outputs: [out], attrs: { epsilon: { float: Number(cfg.epsilon ?? 1e-3) } } });
        value.set(out, out);
        break;
      }
      case "ReLU": {
        if (Number(cfg.negativeSlope ?? 0) !== 0 || Number(cfg.threshold ?? 0) !== 0) throw new Error(`keras→onnx: ${layer.name}: a leaky or thresholded ReLU is not supported`);
        const max = cfg.maxValue;
        if (max === null || max === undefined) nodes.push({ op: "Relu", inputs: inputOf(layer), outputs: [out] });
        else nodes.push({ op: "Clip", inputs: [...inputOf(layer), zero, max === 6 ? clip6 : weight(`${out}/max`, [], new Float32Array([Number(max)]))], outputs: [out] });
        value.set(out, out);
        break;
      }
      case "Add":
        nodes.push({ op: "Sum", inputs: inputOf(layer), outputs: [out] });
        value.set(out, out);
        break;
      case "AveragePooling2D":
      case "MaxPooling2D": {
        const k = pair(cfg.poolSize, "poolSize");
        if (cfg.padding !== "valid") throw new Error(`keras→onnx: ${layer.name}: pooling padding ${String(cfg.padding)}`);
        nodes.push({ op: cls === "AveragePooling2D" ? "AveragePool" : "MaxPool", inputs: inputOf(layer), outputs: [out], attrs: { kernel_shape: k, strides: pair(cfg.strides ?? k, "strides") } });
        value.set(out, out);
        break;
      }
      case "GlobalAveragePooling2D":
        nodes.push({ op: "GlobalAveragePool", inputs: inputOf(layer), outputs: [`${out}/4d`] });
        nodes.push({ op: "Flatten", inputs: [`${out}/4d`], outputs: [out], attrs: { axis: 1 } });
        value.set(out, out);
        break;
      case "Flatten": {
        // NHWC and NCHW flatten in the same order only when nothing spatial is left
        const before = (layer.inboundNodes[0].inboundLayers[0].outputShape as number[]).slice(1, 3);
        if (before.some((d) => d !== 1)) throw new Error(`keras→onnx: ${layer.name}: Flatten of a ${before.join("×")} map is not supported`);
        nodes.push({ op: "Flatten", inputs: inputOf(layer), outputs: [out], attrs: { axis: 1 } });
        value.set(out, out);
        break;
      }
      case "Dense": {
        // Keras applies a Dense to the last axis of any rank; Gemm takes [n, features] only
        const rank = (layer.inboundNodes[0]?.inboundLayers[0]?.outputShape as number[] | undefined)?.length;
        if (rank !== 2) throw new Error(`keras→onnx: ${layer.name}: a Dense on a rank-${String(rank)} input is not supported`);
        const [ci, co] = w[0].shape;
        const ins = [inputOf(layer)[0], weight(`${out}/kernel`, [ci, co], data(w[0]))];
        ins.push(cfg.useBias ? weight(`${out}/bias`, [co], data(w[1])) : weight(`${out}/bias`, [co], new Float32Array(co)));
        nodes.push({ op: "Gemm", inputs: ins, outputs: [out] });
        activation(out, cfg.activation);
        break;
      }
      default:
        throw new Error(`keras→onnx: layer ${layer.name} (${cls}) is not supported`);
    }
  }
  // a padding must feed only convolutions (folded there): anything else reading it would find no value
  for (const n of nodes) for (const i of n.inputs) if (padded.has(i)) throw new Error(`keras→onnx: ${n.outputs[0]} reads the padding ${i} (only a convolution may)`);

  const last = model.outputLayers[0];
  const output = value.get(last.name);
  if (!output || model.outputs.length !== 1 || model.inputs.length !== 1) throw new Error("keras→onnx: one input and one output are supported");
  const classes = (last.outputShape as number[])[1];
  const onnx = encodeModel({
    name: model.name,
    nodes,
    initializers,
    inputs: [{ name: "input", dims: ["n", ...inputShape] }],
    outputs: [{ name: output, dims: ["n", classes] }],
  });
  return { onnx, input: "input", output, inputShape };
}
