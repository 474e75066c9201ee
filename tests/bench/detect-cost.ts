// `npm run bench detectCost`: CPU per frame of each engine on the frames a live stream of `liveCapacity` sends
// (issue #28), before and after each cascade / batching step, in this process alone: process CPU time around each
// call (this thread plus sharp's and ONNX Runtime's threads), which other jobs on the machine inflate far less than
// wall time. QR with and without the fallback gate, NSFW one frame at a time and in batches of 4, OCR as shipped and
// PaddleOCR's reader with its models as shipped and folded.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import type { Frame, FrameRequest } from "../../server/detect/engines/engine";
import { NsfwEngine } from "../../server/detect/engines/nsfw";
import { OcrEngine } from "../../server/detect/engines/ocr";
import { PaddleReader } from "../../server/detect/text/paddle";
import { decodeRgb } from "../../server/detect/engines/human";
import { readQrCodes, initQr, QrCodeEngine, type QrStrategy } from "../../server/detect/engines/qrcode";
import { DEFAULT_THRESHOLDS } from "../../server/detect/settings/thresholds";
import { loopSpec } from "../support/live-sources";
import { makeVideo } from "../support/media";

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const r = (v: number) => Math.round(v * 10) / 10;
  return { n: s.length, median: r(s[Math.floor(s.length / 2)] ?? 0), mean: r(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)) };
};

/** The liveCapacity source's frames (one every BENCH_COST_STEP_SEC, default 0.5 s, over its 11 s loop) as the live pull's JPEGs. */
async function liveFrames(): Promise<Buffer[]> {
  const spec = loopSpec("bench-cap-720p", { audio: "none", width: 1280, height: 720, fps: 25, bFrames: 0, qr: { text: "https://spam.example/capacity", fromSec: 0, toSec: 3 }, text: { content: "Add WeChat: maifen888 cheap followers", fromSec: 6, toSec: 9 } });
  const file = await makeVideo(spec);
  const dir = await mkdtemp(path.join(os.tmpdir(), "detect-cost-"));
  try {
    const step = Number(process.env.BENCH_COST_STEP_SEC ?? 0.5);
    // the pull's JPEG settings (server/ingest/live-args.ts: mjpeg -q:v 4)
    await promisify(execFile)("ffmpeg", ["-v", "error", "-i", file, "-vf", `fps=1/${step}`, "-c:v", "mjpeg", "-q:v", "4", path.join(dir, "f-%03d.jpg")]);
    const names = (await readdir(dir)).sort();
    return await Promise.all(names.map((n) => readFile(path.join(dir, n))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchDetectCost(): Promise<Record<string, unknown>> {
  const jpegs = await liveFrames();
  const frames: Frame[] = await Promise.all(jpegs.map(async (j) => {
    const m = await sharp(j).metadata();
    return { jpeg: new Uint8Array(j), width: m.width!, height: m.height!, rgb: () => Promise.reject(new Error("not used")) };
  }));
  const req: FrameRequest = { imgTypes: new Set(["QRCODE", "ADVERT", "IMGTEXTRISK", "EROTIC"]), businessTypes: new Set(), thresholds: DEFAULT_THRESHOLDS };
  await initQr();
  const nsfw = new NsfwEngine();
  await nsfw.init();
  const nsfwTfjs = new NsfwEngine("tfjs");
  await nsfwTfjs.init();
  const ocr = new OcrEngine();
  await ocr.init({ dataDir: os.tmpdir() });
  try {
    // warm-up: the first calls of each model allocate
    for (const f of frames.slice(0, 2)) {
      await readQrCodes(f.jpeg);
      await nsfw.run(f, req.imgTypes, req);
      await nsfwTfjs.run(f, req.imgTypes, req);
      await ocr.run(f, req.imgTypes, req);
    }
    const qr = async (s: QrStrategy) => {
      const ms: number[] = [];
      let gated = 0;
      let codes = 0;
      for (const f of frames) {
        const c = cpuMs();
        const r = await readQrCodes(f.jpeg, s);
        ms.push(cpuMs() - c);
        gated += r.gated ? 1 : 0;
        codes += r.codes.length > 0 ? 1 : 0;
      }
      return { cpuMs: stats(ms), framesWithCodes: codes, framesGated: gated };
    };
    const qrUngated = await qr("ungated");
    const qrGated = await qr("full");
    const nsfwCost = async (engine: NsfwEngine) => {
      const one: number[] = [];
      for (const f of frames) {
        const c = cpuMs();
        await engine.run(f, req.imgTypes, req);
        one.push(cpuMs() - c);
      }
      const batched: number[] = [];
      for (let i = 0; i + 4 <= frames.length; i += 4) {
        const c = cpuMs();
        await engine.runBatch(frames.slice(i, i + 4).map((frame) => ({ frame, requested: req.imgTypes, req })));
        const share = (cpuMs() - c) / 4;
        batched.push(share, share, share, share);
      }
      return { oneByOne: { cpuMs: stats(one) }, batchOf4: { cpuMs: stats(batched) } };
    };
    const nsfwOnnx = await nsfwCost(nsfw);
    const nsfwWasm = await nsfwCost(nsfwTfjs);
    const ocrMs: number[] = [];
    for (const f of frames) {
      const c = cpuMs();
      await ocr.run(f, req.imgTypes, req);
      ocrMs.push(cpuMs() - c);
    }
    const ocrStats = stats(ocrMs);
    // PaddleOCR's reader (text detector + recogniser) as shipped and folded (onnx/fold.ts, as the engine loads it):
    // three rounds each, alternated
    const [shipped, folded] = await Promise.all([PaddleReader.load({ fold: false }), PaddleReader.load()]);
    const paddle = { shipped: [] as number[], folded: [] as number[] };
    for (const f of frames.slice(0, 2)) await Promise.all([shipped.read(Buffer.from(f.jpeg)), folded.read(Buffer.from(f.jpeg))]);
    for (let round = 0; round < 3; round++) {
      for (const [reader, ms] of [[shipped, paddle.shipped], [folded, paddle.folded]] as const) {
        for (const f of frames) {
          const c = cpuMs();
          await reader.read(Buffer.from(f.jpeg));
          ms.push(cpuMs() - c);
        }
      }
    }
    const [paddleShipped, paddleFolded] = [stats(paddle.shipped), stats(paddle.folded)];
    // a whole frame through QR, NSFW and OCR as the detect thread runs it: each engine decoding the JPEG itself, then
    // with the frame decoded once and shared (as shipped)
    const qrEngine = new QrCodeEngine();
    const wholeFrame = async (shared: boolean, ms: number[]) => {
      for (const f of frames) {
        let pixels: ReturnType<typeof decodeRgb> | undefined;
        const frame: Frame = { ...f, rgb: () => (pixels ??= decodeRgb(f.jpeg)), upright: shared };
        const c = cpuMs();
        await qrEngine.run(frame, req.imgTypes, req);
        await nsfw.run(frame, req.imgTypes, req);
        await ocr.run(frame, req.imgTypes, req);
        ms.push(cpuMs() - c);
      }
    };
    // three rounds each, alternated (paired against the machine's drift)
    const own: number[] = [];
    const one: number[] = [];
    for (let round = 0; round < 3; round++) {
      await wholeFrame(false, own);
      await wholeFrame(true, one);
    }
    const [ownDecodes, sharedDecode] = [stats(own), stats(one)];
    // before the fold, OCR cost what the engine costs now plus what the fold saved
    const ocrShipped = { mean: ocrStats.mean + paddleShipped.mean - paddleFolded.mean };
    const total = (q: { mean: number }, n: { mean: number }, o: { mean: number } = ocrStats) => Math.round(q.mean + n.mean + o.mean);
    return {
      frames: frames.length,
      qrcode: { ungated: qrUngated, gated: qrGated },
      nsfw: { onnxRuntime: nsfwOnnx, tfjsWasm: nsfwWasm },
      ocr: { cpuMs: ocrStats, paddleReader: { shipped: { cpuMs: paddleShipped }, folded: { cpuMs: paddleFolded } } },
      detectorCpuMsPerFrameMean: {
        before: total(qrUngated.cpuMs, nsfwWasm.oneByOne.cpuMs, ocrShipped),
        batched: total(qrGated.cpuMs, nsfwWasm.batchOf4.cpuMs, ocrShipped),
        nsfwOnnx: total(qrGated.cpuMs, nsfwOnnx.batchOf4.cpuMs, ocrShipped),
        after: total(qrGated.cpuMs, nsfwOnnx.batchOf4.cpuMs),
      },
      wholeFrame: { ownDecodes: { cpuMs: ownDecodes }, sharedDecode: { cpuMs: sharedDecode } },
      loadavg: os.loadavg().map((l) => Math.round(l * 10) / 10),
      note: "the liveCapacity source (720p, QR 0–3 s, ad text 6–9 s of an 11 s loop) sampled every 0.5 s as the live pull's JPEGs; CPU ms of each call in this process alone (mean / median over the frames); before = QR without the fallback gate and NSFW on tfjs-wasm one frame at a time, batched = the gate and tfjs-wasm batches of 4, nsfwOnnx = NSFW converted to ONNX on ONNX Runtime, batches of 4, after = as shipped (also PaddleOCR folded: ocr.paddleReader compares its reader shipped and folded, three alternated rounds; the totals before it add that difference to OCR). wholeFrame: one frame through QR, NSFW and OCR in turn, each engine decoding the JPEG itself, then sharing one decode (as shipped)",
    };
  } finally {
    await nsfw.close();
    await nsfwTfjs.close();
    await ocr.close();
  }
}
