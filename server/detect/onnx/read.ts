// A minimal ONNX protobuf reader, the other half of proto.ts: a model's graph as nodes, initializers and the raw bytes
// of what is passed through unchanged (attributes, inputs' and outputs' types, opsets), so that a graph can be
// rewritten (quantize.ts) and written again. Field numbers are those of onnx.proto.

/** One protobuf field: its number and either a varint, a fixed 32/64-bit value or a length-delimited slice. */
interface Field {
  no: number;
  wire: number;
  int: bigint;
  bytes: Uint8Array;
}

export function* fields(buf: Uint8Array): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= buf.length) throw new Error("ONNX: truncated varint");
      const b = buf[at++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  };
  const none = new Uint8Array(0);
  while (at < buf.length) {
    const key = Number(varint());
    const [no, wire] = [key >>> 3, key & 7];
    if (wire === 0) yield { no, wire, int: varint(), bytes: none };
    else if (wire === 2) {
      const len = Number(varint());
      if (at + len > buf.length) throw new Error("ONNX: truncated field");
      yield { no, wire, int: 0n, bytes: buf.subarray(at, at + len) };
      at += len;
    } else if (wire === 5 || wire === 1) {
      const len = wire === 5 ? 4 : 8;
      yield { no, wire, int: 0n, bytes: buf.subarray(at, at + len) };
      at += len;
    } else throw new Error(`ONNX: unsupported wire type ${wire}`);
  }
}

const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");

export interface ReadNode {
  op: string;
  name: string;
  domain: string;
  inputs: string[];
  outputs: string[];
  /** AttributeProto messages, as read */
  rawAttrs: Uint8Array[];
}

export interface ReadTensor {
  name: string;
  dims: number[];
  /** TensorProto.DataType */
  type: number;
  /** little-endian values (raw_data, or float_data / int64_data re-packed) */
  raw: Uint8Array;
}

export interface ReadModel {
  irVersion: number;
  /** OperatorSetIdProto messages, as read */
  rawOpsets: Uint8Array[];
  graphName: string;
  nodes: ReadNode[];
  initializers: ReadTensor[];
  /** ValueInfoProto messages of the graph's inputs and outputs, as read */
  rawInputs: Uint8Array[];
  rawOutputs: Uint8Array[];
}

/** A ValueInfoProto's name. */
export function valueName(raw: Uint8Array): string {
  for (const f of fields(raw)) if (f.no === 1) return text(f.bytes);
  return "";
}

/** A repeated varint field: one value, or a packed run of them. */
function packed(f: Field, wireOfOne: number): bigint[] {
  if (f.wire === wireOfOne) return [f.int];
  const out: bigint[] = [];
  let v = 0n;
  let shift = 0n;
  for (const b of f.bytes) {
    v |= BigInt(b & 0x7f) << shift;
    shift += 7n;
    if (b & 0x80) continue;
    out.push(v);
    [v, shift] = [0n, 0n];
  }
  return out;
}

export function readTensor(buf: Uint8Array): ReadTensor {
  const t: ReadTensor = { name: "", dims: [], type: 0, raw: new Uint8Array(0) };
  const floats: Uint8Array[] = [];
  const int64s: bigint[] = [];
  for (const f of fields(buf)) {
    if (f.no === 1) t.dims.push(...packed(f, 0).map((d) => Number(BigInt.asIntN(64, d))));
    else if (f.no === 2) t.type = Number(f.int);
    else if (f.no === 8) t.name = text(f.bytes);
    else if (f.no === 9) t.raw = f.bytes;
    else if (f.no === 4) floats.push(f.bytes);
    else if (f.no === 7) int64s.push(...packed(f, 0));
    else if (f.no === 14) throw new Error(`ONNX: tensor ${t.name || "?"} keeps its data outside the model (external data)`);
  }
  if (!t.raw.length && floats.length) t.raw = Buffer.concat(floats);
  if (!t.raw.length && int64s.length) t.raw = new Uint8Array(BigInt64Array.from(int64s.map((v) => BigInt.asIntN(64, v))).buffer);
  return t;
}

function readNode(buf: Uint8Array): ReadNode {
  const n: ReadNode = { op: "", name: "", domain: "", inputs: [], outputs: [], rawAttrs: [] };
  for (const f of fields(buf)) {
    if (f.no === 1) n.inputs.push(text(f.bytes));
    else if (f.no === 2) n.outputs.push(text(f.bytes));
    else if (f.no === 3) n.name = text(f.bytes);
    else if (f.no === 4) n.op = text(f.bytes);
    else if (f.no === 5) n.rawAttrs.push(f.bytes);
    else if (f.no === 7) n.domain = text(f.bytes);
  }
  return n;
}

/** An attribute's name and its int / ints / float value (what a rewrite needs to look at), from its raw message. */
export function attrOf(raw: Uint8Array): { name: string; i?: number; ints: number[]; f?: number; s?: string } {
  const a: { name: string; i?: number; ints: number[]; f?: number; s?: string } = { name: "", ints: [] };
  for (const f of fields(raw)) {
    if (f.no === 1) a.name = text(f.bytes);
    else if (f.no === 3) a.i = Number(BigInt.asIntN(64, f.int));
    else if (f.no === 8) a.ints.push(...packed(f, 0).map((v) => Number(BigInt.asIntN(64, v))));
    else if (f.no === 2) a.f = Buffer.from(f.bytes).readFloatLE(0);
    else if (f.no === 4) a.s = text(f.bytes);
  }
  return a;
}

/** The tensor a Constant node holds in its `value` attribute (AttributeProto.t), or undefined. */
export function constantOf(n: ReadNode): ReadTensor | undefined {
  if (n.op !== "Constant" || n.domain) return undefined;
  for (const a of n.rawAttrs) for (const f of fields(a)) if (f.no === 5) return readTensor(f.bytes);
  return undefined;
}

export function readModel(buf: Uint8Array): ReadModel {
  const m: ReadModel = { irVersion: 0, rawOpsets: [], graphName: "", nodes: [], initializers: [], rawInputs: [], rawOutputs: [] };
  let graph: Uint8Array | null = null;
  for (const f of fields(buf)) {
    if (f.no === 1) m.irVersion = Number(f.int);
    else if (f.no === 7) graph = f.bytes;
    else if (f.no === 8) m.rawOpsets.push(f.bytes);
  }
  if (!graph) throw new Error("ONNX: no graph");
  for (const f of fields(graph)) {
    if (f.no === 1) m.nodes.push(readNode(f.bytes));
    else if (f.no === 2) m.graphName = text(f.bytes);
    else if (f.no === 5) m.initializers.push(readTensor(f.bytes));
    else if (f.no === 11) m.rawInputs.push(f.bytes);
    else if (f.no === 12) m.rawOutputs.push(f.bytes);
  }
  return m;
}
