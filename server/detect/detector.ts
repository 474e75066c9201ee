// In-thread frame detector: owns one instance of every engine and turns a JPEG into a FrameVerdict.
import sharp from "sharp";
import type { LabelLang } from "../../lib/labels";
import type { Engine, EngineContext, EngineOutput, Frame } from "./engines/engine";
import { NsfwEngine } from "./engines/nsfw";
import { OcrEngine } from "./engines/ocr";
import { QrCodeEngine } from "./engines/qrcode";
import { InvalidImageError } from "./errors";
import { engineForImgType, type EngineName } from "./registry";
import type { FrameVerdict } from "./types";
import { buildVerdict } from "./verdict";

export interface DetectRequest {
  jpeg: Uint8Array;
  imgTypes: readonly string[];
  imgBusinessTypes: readonly string[];
  lang?: LabelLang;
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

export class FrameDetector {
  private readonly engines: Record<EngineName, Engine> = { qrcode: new QrCodeEngine(), ocr: new OcrEngine(), nsfw: new NsfwEngine() };

  /** Load every model; returns load time per engine. */
  async init(ctx: EngineContext): Promise<Record<string, number>> {
    const loadMs: Record<string, number> = {};
    for (const [name, engine] of Object.entries(this.engines)) {
      const t = performance.now();
      await engine.init(ctx);
      loadMs[name] = round(performance.now() - t);
    }
    return loadMs;
  }

  async detect(req: DetectRequest): Promise<FrameVerdict> {
    const timingsMs: Record<string, number> = {};
    const t0 = performance.now();
    const meta = await sharp(req.jpeg).metadata().catch((e: Error) => {
      throw new InvalidImageError(`not a decodable image: ${e.message}`);
    });
    if (!meta.width || !meta.height) throw new InvalidImageError("image has no dimensions");
    timingsMs.decode = round(performance.now() - t0);
    const frame: Frame = { jpeg: req.jpeg, width: meta.width, height: meta.height };

    const requested = new Set(req.imgTypes);
    const applied: string[] = [];
    const notApplied: string[] = [];
    const needed = new Set<EngineName>();
    for (const type of requested) {
      const engine = engineForImgType(type);
      if (engine) {
        applied.push(type);
        needed.add(engine);
      } else {
        notApplied.push(type);
      }
    }
    // no business-type detector exists yet: every requested one is reported as not applied
    for (const type of new Set(req.imgBusinessTypes)) notApplied.push(type);

    const outputs: Partial<Record<EngineName, EngineOutput>> = {};
    const timed = async (name: EngineName): Promise<void> => {
      const t = performance.now();
      outputs[name] = await this.engines[name].run(frame, requested);
      timingsMs[name] = round(performance.now() - t);
    };
    // one engine after another: a pool worker then uses about one core, and each timing is that engine's own
    for (const name of ["qrcode", "nsfw", "ocr"] as const) if (needed.has(name)) await timed(name);

    const scores: Record<string, Record<string, number>> = {};
    for (const [name, out] of Object.entries(outputs)) if (out.scores) scores[name] = out.scores;
    return buildVerdict({
      hits: Object.values(outputs).flatMap((o) => o.hits),
      lang: req.lang ?? "zh",
      text: outputs.ocr?.text,
      qrObjects: outputs.qrcode?.objects,
      applied,
      notApplied,
      timingsMs,
      scores: Object.keys(scores).length > 0 ? scores : undefined,
    });
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.engines).map((e) => e.close()));
  }
}
