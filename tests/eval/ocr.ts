// OCR + keyword lists (ADVERT / IMGTEXTRISK): rendered list entries and neutral text over fonts, sizes and backgrounds.
import { DEFAULT_LISTS, type DetectPool, type FrameVerdict } from "../../server/detect/index";
import { compileLists, matchLists } from "../../server/detect/text/match";
import { normalizeText } from "../../server/detect/text/normalize";
import { detectFile } from "./detect-frame";
import { BACKGROUNDS, textFrame, type Background, type TextStyle } from "./frames";
import { prng } from "./media";
import { breakdown, chooseThreshold, distribution, grid, summarize, sweep, type Outcome, type ScoredCase } from "./metrics";

interface TextCase {
  chunks: string[];
  lang: "en" | "zh";
  /** expected label1 and the list that should carry it; undefined = neutral text */
  label1?: string;
  list?: string;
}

const pos = (lang: "en" | "zh", label1: string, list: string, ...chunks: string[]): TextCase => ({ chunks, lang, label1, list });
const neg = (lang: "en" | "zh", ...chunks: string[]): TextCase => ({ chunks, lang });

export const OCR_CASES: readonly TextCase[] = [
  pos("en", "ad", "ad_contact", "Add WeChat: maifen888", "for a discount"),
  pos("en", "ad", "ad_contact", "Contact me on Telegram: deals_2024"),
  pos("en", "ad", "ad_contact", "Visit www.cheap-likes.com"),
  pos("en", "ad", "ad_contact", "Call now +44 20 7946 0958"),
  pos("en", "ad", "ad_words", "Buy followers and likes", "limited time offer"),
  pos("en", "ad", "ad_words", "Make money fast", "work from home"),
  pos("en", "prohibited", "prohibited_gambling", "Online casino", "bet now and win"),
  pos("en", "prohibited", "prohibited_gambling", "Sports betting odds", "sign up today"),
  pos("en", "prohibited", "prohibited_drugs", "Cocaine and heroin", "delivered tonight"),
  pos("en", "prohibited", "prohibited_weapons", "Guns for sale", "no questions asked"),
  pos("en", "violence", "violence_terror", "How to make a bomb", "step by step"),
  pos("zh", "ad", "ad_contact", "加微信 maifen888", "低价刷粉"),
  pos("zh", "ad", "ad_contact", "微信号: abc12345", "免费领取"),
  pos("zh", "ad", "ad_contact", "咨询电话 13812345678"),
  pos("zh", "ad", "ad_words", "兼职日结", "日赚五百"),
  pos("zh", "ad", "ad_words", "扫码领取", "招代理"),
  pos("zh", "prohibited", "prohibited_gambling", "线上赌场", "百家乐 六合彩"),
  pos("zh", "prohibited", "prohibited_drugs", "出售冰毒", "摇头丸"),
  pos("zh", "prohibited", "prohibited_weapons", "仿真枪出售"),
  pos("zh", "violence", "violence_terror", "恐怖袭击", "制作炸弹"),
  neg("en", "The weather is nice today"),
  neg("en", "Welcome to our cooking show"),
  neg("en", "Chapter 3", "The river at dawn"),
  neg("en", "Meeting at 10:30", "in room 204"),
  neg("en", "Happy birthday, Anna!"),
  neg("en", "Fresh bread and coffee", "every morning"),
  neg("en", "Final score 3 - 1"),
  neg("en", "Version 2.1 released", "see the notes"),
  neg("zh", "今天天气很好"),
  neg("zh", "欢迎收看烹饪节目"),
  neg("zh", "第三章 黎明的河流"),
  neg("zh", "会议十点半开始"),
  neg("zh", "祝你生日快乐"),
  neg("zh", "新鲜面包和咖啡"),
  neg("zh", "比赛结果 三比一"),
  neg("zh", "请随手关门"),
];

const FONTS = { en: ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "Noto Sans CJK SC"], zh: ["Noto Sans CJK SC", "Noto Serif CJK SC"] } as const;
const SIZES = [24, 36, 48, 64, 96] as const;
const OCR_SOURCE = 1001;

/** Ground truth check: the exact text must give the expected label1 (positives) or nothing (negatives). */
export function checkGroundTruth(): void {
  const lists = compileLists(DEFAULT_LISTS);
  for (const c of OCR_CASES) {
    const hits = matchLists(normalizeText(c.chunks.join(" ")), lists, new Set(["ADVERT", "IMGTEXTRISK"]));
    const ok = c.label1 ? hits.some((h) => h.label1 === c.label1 && h.list.name === c.list) : hits.length === 0;
    if (!ok) throw new Error(`OCR ground truth wrong for "${c.chunks.join(" ")}": lists give ${JSON.stringify(hits.map((h) => h.list.name))}`);
  }
}

interface Rendered {
  c: TextCase;
  font: string;
  sizePx: number;
  background: Background;
  style: TextStyle;
  v: FrameVerdict;
  ms: number;
}

function scored(r: Rendered): ScoredCase {
  const ocr = r.v.allLabels.filter((l) => l.riskDetail.riskSource === OCR_SOURCE);
  const best = (ls: typeof ocr) => (ls.length ? Math.max(...ls.map((l) => l.probability)) : null);
  if (!r.c.label1) return { positive: false, score: best(ocr) };
  return { positive: true, score: best(ocr.filter((l) => l.riskLabel1 === r.c.label1)), wrongScore: best(ocr.filter((l) => l.riskLabel1 !== r.c.label1)) };
}

function sizeBucket(px: number): string {
  const i = SIZES.findLastIndex((s) => px >= s);
  if (i < 0) return `<${SIZES[0]}`;
  return i === SIZES.length - 1 ? `${SIZES[i]}` : `${SIZES[i]}-${SIZES[i + 1] - 1}`;
}

const outcome = (r: Rendered): Outcome => {
  const s = scored(r);
  return { positive: s.positive, flagged: s.score !== null || s.wrongScore != null, correct: s.positive && s.score !== null };
};

/**
 * `pool` reads with the shipped OCR reader (PaddleOCR); `tesseract`, when given, reads the same frames with
 * OCR_READER=tesseract so the two readers are compared on one set (recall, precision, time per frame).
 */
export async function evalOcr(pool: DetectPool, scale: number, tesseract?: DetectPool): Promise<Record<string, unknown>> {
  checkGroundTruth();
  const perText = Math.max(1, Math.round(3 * scale));
  const rnd = prng(20240601);
  const results: Rendered[] = [];
  const compared: Rendered[] = [];
  for (const [j, c] of OCR_CASES.entries()) {
    for (let k = 0; k < perText; k++) {
      // background cycles fastest and size once per 5 frames: every 25 frames hold each (background, size) pair once
      const g = j * perText + k;
      const background = BACKGROUNDS[g % BACKGROUNDS.length];
      const requested = SIZES[Math.floor(g / BACKGROUNDS.length) % SIZES.length];
      const fonts = FONTS[c.lang];
      const font = fonts[Math.floor(rnd() * fonts.length)];
      // captions over pictures come outlined or on a box; plain backgrounds get one contrasting colour
      const style: TextStyle = background === "light" || background === "dark" ? "solid" : rnd() < 0.5 ? "outline" : "box";
      const frame = await textFrame({ chunks: c.chunks, font, sizePx: requested, background, style, seed: g + 1 });
      const t = performance.now();
      const v = await detectFile(pool, frame.file, ["ADVERT", "IMGTEXTRISK"], "ocr");
      results.push({ c, font, sizePx: frame.sizePx, background, style, v, ms: performance.now() - t });
      if (tesseract) {
        const t2 = performance.now();
        const v2 = await detectFile(tesseract, frame.file, ["ADVERT", "IMGTEXTRISK"], "ocr");
        compared.push({ c, font, sizePx: frame.sizePx, background, style, v: v2, ms: performance.now() - t2 });
      }
    }
  }
  const cases = results.map(scored);
  const rows = sweep(cases, grid(0.5, 0.98, 0.02));
  const tps = results.filter((r) => outcome(r).correct);
  const describe = (r: Rendered) => ({ text: r.c.chunks.join(" / "), font: r.font, sizePx: r.sizePx, background: r.background, style: r.style, ocr: r.v.imgText ?? "", labels: r.v.allLabels.filter((l) => l.riskDetail.riskSource === OCR_SOURCE).map((l) => l.riskLabel1) });
  const reader = (rs: Rendered[]) => ({
    atPolicy: summarize(rs.map(outcome)),
    byBackground: breakdown(rs, (r) => r.background, outcome),
    msPerFrame: distribution(rs.map((r) => Math.round(r.ms))),
  });
  return {
    detector: "PaddleOCR PP-OCRv4 (DBNet text detector + SVTR recogniser, Chinese + English, ONNX Runtime; server/detect/text/paddle.ts) -> server/detect/lists/default-lists.ts (imgTypes ADVERT + IMGTEXTRISK)",
    readers: tesseract
      ? { note: "the same frames read by each OCR reader (OCR_READER), one detector thread each; atPolicy above = the shipped reader", paddle: reader(results), tesseract: reader(compared) }
      : { note: "only the shipped reader was run" },
    label: "positive = text holding a list entry; correct = a label with the expected label1 (ad / prohibited / violence). A positive flagged only with another label1 counts as fn + fp.",
    frames: results.length,
    factors: { fonts: FONTS, sizesPx: SIZES, backgrounds: BACKGROUNDS, styles: "solid on light/dark; outline or box (random) on gradient/noise/testsrc2", languages: ["en", "zh"], renderingsPerText: perText, frame: "1280x720 JPEG q85" },
    atPolicy: summarize(results.map(outcome)),
    expectedListMatched: `${tps.filter((r) => r.v.riskDetail.ocrText?.matchedLists?.some((l) => l.name === r.c.list)).length}/${tps.length} true positives`,
    policyThreshold: "none on hit probability (= mean character probability of the line, 0-1); lines under 0.5 are dropped before matching, so every hit is >= 0.5 and the sweep's first row at or above it is current behaviour",
    scoreDistribution: {
      truePositives: distribution(cases.filter((c) => c.positive && c.score !== null).map((c) => c.score!)),
      falseAlarms: distribution(cases.flatMap((c) => (c.positive ? (c.score === null && c.wrongScore != null ? [c.wrongScore] : []) : c.score !== null ? [c.score] : []))),
    },
    sweep: rows,
    chosen: chooseThreshold(rows),
    byLanguage: breakdown(results, (r) => r.c.lang, outcome),
    byFont: breakdown(results, (r) => r.font, outcome),
    // long lines are shrunk to fit the frame, so sizes are reported as the range the rendered size fell in
    bySizePx: breakdown(results, (r) => sizeBucket(r.sizePx), outcome),
    byBackground: breakdown(results, (r) => r.background, outcome),
    byStyle: breakdown(results, (r) => r.style, outcome),
    byBackgroundAndStyle: breakdown(results, (r) => `${r.background}/${r.style}`, outcome),
    msPerFrame: distribution(results.map((r) => Math.round(r.ms))),
    falsePositiveExamples: results.filter((r) => { const o = outcome(r); return o.flagged && !o.correct; }).slice(0, 8).map(describe),
    missExamples: results.filter((r) => r.c.label1 && !outcome(r).correct).slice(0, 12).map(describe),
  };
}
