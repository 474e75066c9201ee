// QR codes (QRCODE): payloads at several sizes, rotations, positions and backgrounds; frames without a code as negatives.
import type { DetectPool, FrameVerdict } from "../../server/detect/index";
import { detectFile } from "./detect-frame";
import { patternFrame, plainFrame, qrFrame, textFrame, type Background, type PatternKind } from "./frames";
import { breakdown, summarize, type Outcome } from "./metrics";

const PAYLOADS = [
  "https://spam.example/buy?id=123",
  "weixin://contacts/profile/maifen888",
  "加微信 maifen888 低价刷粉",
  "https://pay.example.com/order/8f3a9c1e2b7d4f60a1c3e5b7d9f1a2c4?ref=live",
  "WIFI:T:WPA;S:Cafe Corner;P:coffee123;;",
] as const;
const SIZES = [60, 100, 150, 250, 400] as const;
const ROTATIONS = [0, 15, 45, 90] as const;
const PLAIN: readonly Background[] = ["light", "dark", "gradient"];
const CLUTTER: readonly Background[] = ["testsrc2", "noise"];
const PATTERNS: readonly PatternKind[] = ["bars", "checkerboard", "module-grid", "fake-finders"];

interface QrResult {
  payload?: string;
  kind: string;
  sizePx?: number;
  rotation?: number;
  clutter?: boolean;
  decoded: string[];
}

function decodedContents(v: FrameVerdict): string[] {
  return v.allLabels.flatMap((l) => (l.riskLabel2 === "erweima" ? (l.riskDetail.objects ?? []).map((o) => o.qrContent ?? "") : []));
}

const outcome = (r: QrResult): Outcome => ({
  positive: r.payload !== undefined,
  flagged: r.decoded.length > 0,
  correct: r.payload !== undefined && r.decoded.includes(r.payload),
});

export async function evalQr(pool: DetectPool, scale: number): Promise<Record<string, unknown>> {
  const results: QrResult[] = [];
  const rounds = Math.max(1, Math.round(scale));
  let n = 0;
  for (let round = 0; round < rounds; round++) {
    for (const sizePx of SIZES) {
      for (const rotation of ROTATIONS) {
        for (const clutter of [false, true]) {
          const payload = PAYLOADS[n % PAYLOADS.length];
          const bgs = clutter ? CLUTTER : PLAIN;
          const file = await qrFrame({ payload, sizePx, rotation, background: bgs[n % bgs.length], clutterText: clutter, seed: 100 + n });
          n++;
          const v = await detectFile(pool, file, ["QRCODE"], "qr");
          results.push({ payload, kind: "qr", sizePx, rotation, clutter, decoded: decodedContents(v) });
        }
      }
    }
  }
  const negatives: Array<[string, Promise<string>]> = [];
  for (let s = 0; s < 2 * rounds; s++) {
    for (const p of PATTERNS) negatives.push([p, patternFrame(p, 7 + s)]);
    for (const bg of ["light", "gradient", "noise", "testsrc2"] as const) negatives.push([`plain-${bg}`, plainFrame(bg, 3 + s)]);
  }
  for (const [i, chunks] of [["Scan me for the menu"], ["Table 12", "Order at the counter"], ["扫码点餐"]].entries()) {
    negatives.push(["text", textFrame({ chunks, font: i === 2 ? "Noto Sans CJK SC" : "DejaVu Sans", sizePx: 64, background: "light", style: "solid", seed: 50 + i }).then((f) => f.file)]);
  }
  for (const [kind, file] of negatives) {
    const v = await detectFile(pool, await file, ["QRCODE"], "qr-negatives");
    results.push({ kind, decoded: decodedContents(v) });
  }
  const positives = results.filter((r) => r.payload !== undefined);
  return {
    detector: "zxing-wasm (zxing-cpp) reader, tryHarder/tryRotate/tryInvert (imgType QRCODE)",
    label: "positive = frame with one QR code; correct = a decoded qrContent equal to the payload byte for byte. A code decoded to other text counts as fn + fp.",
    frames: results.length,
    factors: {
      sizesPx: SIZES, rotationsDeg: ROTATIONS, payloads: PAYLOADS.length,
      backgrounds: { plain: PLAIN, clutter: CLUTTER.map((b) => `${b} + caption`) },
      negatives: [...new Set(results.filter((r) => !r.payload).map((r) => r.kind))],
      note: "size = rendered width of the code with a 2-module quiet zone, before rotation; the position is random inside the 1280x720 frame",
    },
    atPolicy: summarize(results.map(outcome)),
    scored: "no: a decode that passes the code's error correction is reported with probability 1, so there is no threshold to sweep",
    wrongContent: positives.filter((r) => r.decoded.length > 0 && !outcome(r).correct).map((r) => ({ payload: r.payload, decoded: r.decoded })),
    bySizePx: breakdown(positives, (r) => String(r.sizePx), outcome),
    byRotationDeg: breakdown(positives, (r) => String(r.rotation), outcome),
    byBackground: breakdown(positives, (r) => (r.clutter ? "clutter" : "plain"), outcome),
    byPayload: breakdown(positives, (r) => r.payload!.slice(0, 32), outcome),
    byNegativeKind: breakdown(results.filter((r) => !r.payload), (r) => r.kind, outcome),
  };
}
