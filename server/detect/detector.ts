// In-thread frame detector: owns one instance of every loaded engine and turns a JPEG into a FrameVerdict.
import sharp from "sharp";
import type { LabelLang } from "../../lib/labels";
import type { Engine, EngineContext, EngineOutput, Frame, FrameRequest, RgbPixels } from "./engines/engine";
import { FaceEngine } from "./engines/faces";
import { HashEngine } from "./engines/hash";
import { decodeRgb } from "./engines/human";
import { NsfwEngine } from "./engines/nsfw";
import { ObjectEngine } from "./engines/objects";
import { OcrEngine } from "./engines/ocr";
import { QrCodeEngine } from "./engines/qrcode";
import { InvalidImageError } from "./errors";
import { GALLERY_LISTS, GalleryReader } from "./gallery-store";
import { HashBankReader } from "./hash-bank";
import { KeywordListsReader } from "./lists/store";
import { thresholdsReader, type Thresholds } from "./settings/thresholds";
import { ALL_ENGINES, BATCHED_ENGINES, planFrame, type DetectState, type EngineName, type FramePlan } from "./registry";
import type { FaceEmbedding, FrameVerdict, OcrReaderName } from "./types";
import { buildVerdict } from "./verdict";

export interface DetectRequest {
  jpeg: Uint8Array;
  imgTypes: readonly string[];
  imgBusinessTypes: readonly string[];
  lang?: LabelLang;
}

export interface DetectorOptions {
  engines?: readonly EngineName[];
  galleryDir?: string;
  hashBankDir?: string;
  /** operator changes to the keyword lists (lists/store.ts); none: the built-in lists */
  keywordsDir?: string;
  /** what reads image text: PaddleOCR (default) or Tesseract */
  ocrReader?: OcrReaderName;
  /** run-time threshold overrides (settings/policy-store.ts); none: the defaults */
  policyDir?: string;
}

const round = (ms: number): number => Math.round(ms * 10) / 10;
/** engines run one after another in this order: a pool worker then uses about one core, and each timing is its own */
const RUN_ORDER: readonly EngineName[] = ["qrcode", "nsfw", "ocr", "faces", "objects", "hash"];

interface BatchEngine extends Engine {
  runBatch(items: ReadonlyArray<{ frame: Frame; requested: ReadonlySet<string>; req: FrameRequest }>): Promise<EngineOutput[]>;
}

/** One frame between prepare() and finish(): what it asked for, and the engine outputs so far. */
interface Prepared {
  req: DetectRequest;
  frame: Frame;
  plan: FramePlan;
  request: FrameRequest;
  timingsMs: Record<string, number>;
  outputs: Partial<Record<EngineName, EngineOutput>>;
}

export class FrameDetector {
  private readonly engines: Partial<Record<EngineName, Engine>> = {};
  private readonly gallery: GalleryReader | undefined;
  private readonly bank: HashBankReader | undefined;
  private readonly thresholds: () => Thresholds;

  constructor(opts: DetectorOptions = {}) {
    this.gallery = opts.galleryDir ? new GalleryReader(opts.galleryDir) : undefined;
    this.bank = opts.hashBankDir ? new HashBankReader(opts.hashBankDir) : undefined;
    this.thresholds = thresholdsReader(opts.policyDir);
    // like the gallery: a small stamp file read per frame; lists recompile only after a change
    const keywords = new KeywordListsReader(opts.keywordsDir);
    const make: Record<EngineName, () => Engine> = {
      qrcode: () => new QrCodeEngine(),
      ocr: () => new OcrEngine(() => keywords.compiled("image"), opts.ocrReader),
      nsfw: () => new NsfwEngine(),
      faces: () => new FaceEngine(this.gallery),
      objects: () => new ObjectEngine(),
      hash: () => new HashEngine(this.bank),
    };
    for (const name of opts.engines ?? ALL_ENGINES) this.engines[name] = make[name]();
  }

  /** Load every model; returns load time per engine. */
  async init(ctx: EngineContext): Promise<Record<string, number>> {
    const loadMs: Record<string, number> = {};
    for (const [name, engine] of Object.entries(this.engines)) {
      const t = performance.now();
      await engine.init(ctx);
      loadMs[name] = round(performance.now() - t);
    }
    await this.refreshStores();
    return loadMs;
  }

  /** Re-read gallery / bank when their stamp changed (a small file read per frame). */
  private async refreshStores(): Promise<DetectState> {
    await Promise.all([this.gallery?.refresh(), this.bank?.refresh()]);
    const gallery = this.gallery ? Object.fromEntries(GALLERY_LISTS.map((l) => [l, this.gallery!.count(l)])) : undefined;
    return { engines: new Set(Object.keys(this.engines) as EngineName[]), gallery, bankSize: this.bank?.size };
  }

  async detect(req: DetectRequest): Promise<FrameVerdict> {
    return this.finish(await this.prepare(req));
  }

  /**
   * Frames detected together (frames of different streams that waited at the same moment): an engine that takes a
   * batch (NSFW) sees every frame that asked for it in one model call, first; then each frame runs its other engines
   * and its verdict (or error) goes to `done` at once, so the first frame waits only for the batched call.
   */
  async detectBatch(reqs: readonly DetectRequest[], done: (index: number, result: { verdict: FrameVerdict } | { error: unknown }) => void): Promise<void> {
    const state = await this.refreshStores(); // once for the batch
    const prepared: Array<Prepared | undefined> = await Promise.all(
      reqs.map((req, i) =>
        this.prepare(req, state).catch((error: unknown) => {
          done(i, { error });
          return undefined;
        }),
      ),
    );
    for (const name of BATCHED_ENGINES) {
      const engine = this.engines[name] as BatchEngine | undefined;
      const at = prepared.flatMap((p, i) => (p?.plan.engines.has(name) ? [i] : []));
      if (!engine || at.length < 2) continue;
      const t = performance.now();
      try {
        const outs = await engine.runBatch(at.map((i) => ({ frame: prepared[i]!.frame, requested: prepared[i]!.request.imgTypes, req: prepared[i]!.request })));
        // each frame's share of the batched call
        const ms = round((performance.now() - t) / at.length);
        at.forEach((i, k) => {
          prepared[i]!.outputs[name] = outs[k];
          prepared[i]!.timingsMs[name] = ms;
        });
      } catch {
        // one bad frame (a JPEG whose header reads but whose pixels do not) must not fail the others: the batched
        // engine's output is left out, so each frame runs it on its own in finish() and only a bad one fails
      }
    }
    for (const [i, p] of prepared.entries()) {
      if (!p) continue;
      prepared[i] = undefined; // its pixels are freed as soon as its verdict is out, not with the whole batch
      try {
        done(i, { verdict: await this.finish(p) });
      } catch (error) {
        done(i, { error });
      }
    }
  }

  /** A frame decoded enough to plan: its size, the engines it needs, its thresholds. */
  private async prepare(req: DetectRequest, stores?: DetectState): Promise<Prepared> {
    const timingsMs: Record<string, number> = {};
    const t0 = performance.now();
    const meta = await sharp(req.jpeg).metadata().catch((e: Error) => {
      throw new InvalidImageError(`not a decodable image: ${e.message}`);
    });
    if (!meta.width || !meta.height) throw new InvalidImageError("image has no dimensions");
    timingsMs.decode = round(performance.now() - t0);
    let pixels: Promise<RgbPixels> | undefined;
    const frame: Frame = { jpeg: req.jpeg, width: meta.autoOrient?.width ?? meta.width, height: meta.autoOrient?.height ?? meta.height, rgb: () => (pixels ??= decodeRgb(req.jpeg)), upright: (meta.orientation ?? 1) === 1 };

    const state = stores ?? (await this.refreshStores());
    const plan = planFrame(req.imgTypes, req.imgBusinessTypes, state);
    const request: FrameRequest = { imgTypes: new Set(req.imgTypes), businessTypes: new Set(req.imgBusinessTypes), thresholds: this.thresholds() };
    return { req, frame, plan, request, timingsMs, outputs: {} };
  }

  /** The frame's engines not run yet, one after another, and its verdict. */
  private async finish({ req, frame, plan, request, timingsMs, outputs }: Prepared): Promise<FrameVerdict> {
    for (const name of RUN_ORDER) {
      const engine = this.engines[name];
      if (!engine || !plan.engines.has(name) || outputs[name]) continue;
      const t = performance.now();
      outputs[name] = await engine.run(frame, request.imgTypes, request);
      timingsMs[name] = round(performance.now() - t);
    }

    const scores: Record<string, Record<string, number>> = {};
    for (const [name, out] of Object.entries(outputs)) if (out.scores) scores[name] = out.scores;
    return buildVerdict({
      hits: Object.values(outputs).flatMap((o) => o.hits),
      business: Object.values(outputs).flatMap((o) => o.business ?? []),
      lang: req.lang ?? "zh",
      text: outputs.ocr?.text,
      qrObjects: outputs.qrcode?.objects,
      faces: outputs.faces ? { faces: outputs.faces.faces ?? [], faceNum: outputs.faces.faceNum ?? 0 } : undefined,
      persons: outputs.objects ? { persons: outputs.objects.persons ?? [], personNum: outputs.objects.personNum ?? 0 } : undefined,
      applied: plan.applied,
      notApplied: plan.notApplied,
      timingsMs,
      scores: Object.keys(scores).length > 0 ? scores : undefined,
    });
  }

  /** The largest face's embedding (gallery reference photos); needs the faces engine. */
  async embedLargestFace(image: Uint8Array): Promise<FaceEmbedding | null> {
    const faces = this.engines.faces as FaceEngine | undefined;
    if (!faces) throw new Error("faces engine not loaded in this pool");
    await sharp(image).metadata().catch((e: Error) => {
      throw new InvalidImageError(`not a decodable image: ${e.message}`);
    });
    return faces.embedLargestFace(image);
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.engines).map((e) => e.close()));
  }
}
