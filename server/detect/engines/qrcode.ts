// QRCODE: zxing-cpp (zxing-wasm reader build), wasm bytes read from node_modules: no network.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { POLICY } from "../policy";
import type { DetectedObject } from "../types";
import type { Engine, EngineOutput, Frame, FrameRequest } from "./engine";

const require = createRequire(import.meta.url);

export class QrCodeEngine implements Engine {
  readonly name = "qrcode";
  readonly imgTypes = ["QRCODE"] as const;

  async init(): Promise<void> {
    const wasm = await readFile(require.resolve("zxing-wasm/reader/zxing_reader.wasm"));
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer;
    // fireImmediately instantiates now, so the first frame does not pay for it
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  }

  async run(frame: Frame, _requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    // zxing decodes the JPEG itself (stb_image inside the wasm)
    const results = await readBarcodes(frame.jpeg, {
      formats: [...POLICY.qrcode.formats],
      tryHarder: true,
      tryRotate: true,
      tryInvert: true,
      maxNumberOfSymbols: POLICY.qrcode.maxSymbols,
    });
    const objects: DetectedObject[] = results
      .filter((r) => r.isValid)
      .map((r, i) => {
        const p = r.position;
        const xs = [p.topLeft.x, p.topRight.x, p.bottomLeft.x, p.bottomRight.x];
        const ys = [p.topLeft.y, p.topRight.y, p.bottomLeft.y, p.bottomRight.y];
        return {
          id: String(i),
          name: "qrcode",
          location: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
          // a valid decode passed the code's error correction: certain
          probability: 1,
          qrContent: r.text,
        };
      });
    // a decoded code scores 1; the run-time thresholds decide its level (or switch the label off)
    const level = objects.length > 0 ? req.thresholds.level("qrcode", 1, POLICY.qrcode.riskLevel) : null;
    if (!level) return { hits: [], objects };
    return {
      objects,
      hits: [{
        imgType: "QRCODE",
        riskLevel: level,
        labels: POLICY.qrcode.labels,
        probability: 1,
        riskSource: POLICY.qrcode.riskSource,
        objects,
      }],
    };
  }

  async close(): Promise<void> {}
}
