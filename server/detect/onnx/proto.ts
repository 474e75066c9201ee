// A minimal ONNX protobuf writer: just enough of onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto,
// TensorProto, ValueInfoProto) to hand a model built or rewritten in process to ONNX Runtime as bytes. Field numbers
// are those of https://github.com/onnx/onnx/blob/main/onnx/onnx.proto; read.ts reads them.

/** TensorProto.DataType */
export const FLOAT = 1;
export const UINT8 = 2;
export const INT8 = 3;
export const INT32 = 6;
export const INT64 = 7;

class Writer {
  private readonly parts: Buffer[] = [];
  private length = 0;

  private push(b: Buffer): void {
    this.parts.push(b);
    this.length += b.length;
  }

  private varint(v: number | bigint): void {
    let n = BigInt.asUintN(64, BigInt(v));
    const out: number[] = [];
    do {
      let byte = Number(n & 0x7fn);
      n >>= 7n;
      if (n > 0n) byte |= 0x80;
      out.push(byte);
    } while (n > 0n);
    this.push(Buffer.from(out));
  }

  private key(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, v: number): this {
    this.key(field, 0);
    this.varint(v);
    return this;
  }

  float(field: number, v: number): this {
    this.key(field, 5);
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
    return this;
  }

  bytes(field: number, v: Buffer | Uint8Array | string): this {
    const b = typeof v === "string" ? Buffer.from(v, "utf8") : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    this.key(field, 2);
    this.varint(b.length);
    this.push(b);
    return this;
  }

  message(field: number, m: Writer): this {
    return this.bytes(field, m.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }
}

export type Attr = number | number[] | string | { floats: number[] } | { float: number };

/** An AttributeProto message (a node's attribute) as bytes. */
export function encodeAttribute(name: string, v: Attr): Buffer {
  return attribute(name, v).finish();
}

function attribute(name: string, v: Attr): Writer {
  const a = new Writer().bytes(1, name);
  if (typeof v === "number") return a.int(3, v).int(20, 2); // INT
  if (typeof v === "string") return a.bytes(4, v).int(20, 3); // STRING
  if (Array.isArray(v)) {
    for (const x of v) a.int(8, x);
    return a.int(20, 7); // INTS
  }
  if ("float" in v) return a.float(2, v.float).int(20, 1); // FLOAT
  for (const x of v.floats) a.float(7, x);
  return a.int(20, 6); // FLOATS
}

export interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  attrs?: Record<string, Attr>;
  /** AttributeProto messages written as they are (a node read from a model: read.ts) */
  rawAttrs?: Uint8Array[];
  domain?: string;
}

export interface Tensor {
  name: string;
  dims: number[];
  data: Float32Array | BigInt64Array | Int32Array | Int8Array | Uint8Array;
}

export interface ValueInfo {
  name: string;
  /** a number is a fixed size, a string a named (dynamic) one such as the batch */
  dims: Array<number | string>;
}

function tensor(t: Tensor): Writer {
  const w = new Writer();
  for (const d of t.dims) w.int(1, d);
  const d = t.data;
  w.int(2, d instanceof Float32Array ? FLOAT : d instanceof BigInt64Array ? INT64 : d instanceof Int32Array ? INT32 : d instanceof Int8Array ? INT8 : UINT8);
  w.bytes(8, t.name);
  // raw_data is little-endian, as typed arrays are on every platform Node runs on here
  return w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

function valueInfo(v: ValueInfo): Writer {
  const shape = new Writer();
  for (const d of v.dims) shape.message(1, typeof d === "number" ? new Writer().int(1, d) : new Writer().bytes(2, d));
  const tensorType = new Writer().int(1, FLOAT).message(2, shape);
  return new Writer().bytes(1, v.name).message(2, new Writer().message(1, tensorType));
}

/**
 * A whole model (one graph, the default opset at `opset`) as ONNX bytes. Inputs, outputs and opsets may be given as
 * the messages read from another model (`raw`), which are written unchanged.
 */
export function encodeModel(
  g: { name: string; nodes: Node[]; initializers: Tensor[]; inputs: ValueInfo[]; outputs: ValueInfo[]; raw?: { inputs: Uint8Array[]; outputs: Uint8Array[]; opsets: Uint8Array[]; irVersion: number } },
  opset = 13,
  producer = "moderation-keras-convert",
): Buffer {
  const graph = new Writer();
  g.nodes.forEach((n, i) => {
    const node = new Writer();
    for (const x of n.inputs) node.bytes(1, x);
    for (const x of n.outputs) node.bytes(2, x);
    node.bytes(3, n.name ?? `${n.op}_${i}`).bytes(4, n.op);
    for (const [k, v] of Object.entries(n.attrs ?? {})) node.message(5, attribute(k, v));
    for (const a of n.rawAttrs ?? []) node.bytes(5, a);
    if (n.domain) node.bytes(7, n.domain);
    graph.message(1, node);
  });
  graph.bytes(2, g.name);
  for (const t of g.initializers) graph.message(5, tensor(t));
  for (const v of g.inputs) graph.message(11, valueInfo(v));
  for (const v of g.raw?.inputs ?? []) graph.bytes(11, v);
  for (const v of g.outputs) graph.message(12, valueInfo(v));
  for (const v of g.raw?.outputs ?? []) graph.bytes(12, v);
  // ir_version (8: ONNX 1.10+, unless read), producer, graph, opsets
  const model = new Writer().int(1, g.raw?.irVersion ?? 8).bytes(2, producer).message(7, graph);
  if (g.raw?.opsets.length) for (const o of g.raw.opsets) model.bytes(8, o);
  else model.message(8, new Writer().bytes(1, "").int(2, opset));
  return model.finish();
}
