// NSFW (EROTIC): false-positive rate on neutral frames only; no labelled explicit images exist offline, so no recall.
import sharp from "sharp";
import { POLICY, type DetectPool } from "../../server/detect/index";
import { detectFile, nsfwLog } from "./detect-frame";
import { H, W, patternFrame, plainFrame } from "./frames";
import { cachedBytes } from "./media";
import { distribution, summarize } from "./metrics";

/** Skin-like flat colours and gradients: the neutral frames most likely to fool a skin-sensitive classifier. */
const SKIN = ["#f1c27d", "#e0ac69", "#c68642", "#8d5524", "#ffdbac"];

async function skinFrame(i: number): Promise<string> {
  return cachedBytes(`skin-${i}`, { colour: SKIN[i % SKIN.length], i }, "jpg", async () => {
    const a = SKIN[i % SKIN.length];
    const b = SKIN[(i + 2) % SKIN.length];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><radialGradient id="g"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><ellipse cx="${400 + 80 * i}" cy="360" rx="260" ry="330" fill="${a}"/></svg>`;
    return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
  });
}

export async function evalNsfw(pool: DetectPool, scale: number): Promise<Record<string, unknown>> {
  const extra: Array<[string, Promise<string>]> = [];
  for (let i = 0; i < Math.max(1, Math.round(scale)); i++) {
    for (let k = 0; k < SKIN.length; k++) extra.push(["skin-tone shapes", skinFrame(k + i * SKIN.length)]);
    for (const bg of ["light", "dark", "gradient", "noise", "testsrc2"] as const) extra.push(["plain backgrounds", plainFrame(bg, 20 + i)]);
    extra.push(["plain backgrounds", patternFrame("bars", 30 + i)]);
  }
  for (const [source, file] of extra) await detectFile(pool, await file, [], source);
  const flagged = nsfwLog.filter((o) => o.flagged);
  const sources = [...new Set(nsfwLog.map((o) => o.source))];
  const classMax = (cls: string) => distribution(nsfwLog.map((o) => o.scores[cls] ?? 0));
  return {
    detector: "nsfwjs 4.4 MobileNetV2 converted to ONNX, on ONNX Runtime (imgType EROTIC), rules in server/detect/policy.ts",
    label: "negatives only: every frame of the OCR and QR sets plus skin-tone shapes and plain backgrounds (nothing sexual in any of them)",
    // negatives only: precision / recall / F1 would describe material that was never tested, so they stay null
    atPolicy: { ...summarize(nsfwLog.map((o) => ({ positive: false, flagged: o.flagged, correct: false }))), precision: null, recall: null, f1: null },
    positives: "not measured: no labelled explicit images are available offline and none are generated, so recall / precision cannot be computed",
    bySource: Object.fromEntries(sources.map((s) => {
      const of = nsfwLog.filter((o) => o.source === s);
      return [s, { negatives: of.length, fp: of.filter((o) => o.flagged).length }];
    })),
    scoreDistribution: { Porn: classMax("Porn"), Hentai: classMax("Hentai"), Sexy: classMax("Sexy") },
    policyRules: Object.entries(POLICY.nsfw.classes).map(([cls, c]) => `${cls}: REVIEW ${c.reviewLabels[0]} >= ${c.review ?? "never"}, REJECT ${c.rejectLabels[0]} >= ${c.reject ?? "never"}`),
    marginNote: "the gap between the highest neutral score per class and its lowest rule is the safety margin on this material; it says nothing about recall",
    falsePositiveExamples: flagged.slice(0, 5),
  };
}
