// Pull the reviewer-relevant bits out of a frame: OCR text and its matches, QR payloads, label names.
import { describe } from "@/lib/labels";
import type { FrameDetail, MatchedList, OcrText, RiskCore, RiskSegment } from "./types";

export interface FrameOcr {
  text: string;
  matchedLists: MatchedList[];
  riskSegments: RiskSegment[];
}

/** Display name of a label triple (English); PASS frames say "normal". */
export function labelName(core: Pick<RiskCore, "riskLabel1" | "riskLabel2" | "riskLabel3">): string {
  return describe(core.riskLabel1, core.riskLabel2 ?? "", core.riskLabel3 ?? "", "en");
}

/** The slug path, e.g. "ad/lianxifangshi/shejiaozhanghao". */
export function labelSlugs(core: Pick<RiskCore, "riskLabel1" | "riskLabel2" | "riskLabel3">): string {
  return [core.riskLabel1, core.riskLabel2, core.riskLabel3].filter(Boolean).join("/");
}

/** The service's riskDescription when it adds something to the display name (e.g. another language), else "". */
export function extraDescription(core: RiskCore): string {
  return core.riskDescription && core.riskDescription !== labelName(core) ? core.riskDescription : "";
}

const SOURCE_SHORT: Readonly<Record<number, string>> = { 1000: "none", 1001: "text", 1002: "visual", 1003: "audio" };

/** riskSource as one word (1001 → "text": OCR or transcript). */
export function sourceName(source: number | undefined): string {
  return source === undefined ? "—" : (SOURCE_SHORT[source] ?? String(source));
}

function mergeLists(into: MatchedList[], lists: MatchedList[] | undefined) {
  for (const list of lists ?? []) {
    const existing = into.find((l) => l.name === list.name);
    if (!existing) {
      into.push({ name: list.name, words: [...(list.words ?? [])] });
      continue;
    }
    for (const w of list.words ?? []) {
      if (!existing.words?.some((x) => x.word === w.word)) existing.words = [...(existing.words ?? []), w];
    }
  }
}

/** OCR of a frame: `imgText` or the first ocrText found, with matches gathered from every label. */
export function frameOcr(frame: FrameDetail): FrameOcr | null {
  const sources: OcrText[] = [];
  if (frame.riskDetail?.ocrText) sources.push(frame.riskDetail.ocrText);
  for (const l of frame.allLabels ?? []) if (l.riskDetail?.ocrText) sources.push(l.riskDetail.ocrText);
  const text = frame.imgText || sources.find((s) => s.text)?.text || "";
  if (text.trim() === "") return null;
  const matchedLists: MatchedList[] = [];
  const riskSegments: RiskSegment[] = [];
  for (const s of sources) {
    mergeLists(matchedLists, s.matchedLists);
    for (const seg of s.riskSegments ?? []) if (!riskSegments.some((r) => r.segment === seg.segment)) riskSegments.push(seg);
  }
  return { text, matchedLists, riskSegments };
}

/** Every distinct QR payload decoded in a frame. */
export function frameQr(frame: FrameDetail): string[] {
  const out = new Set<string>();
  const details = [frame.riskDetail, ...(frame.allLabels ?? []).map((l) => l.riskDetail)];
  for (const d of details) for (const o of d?.objects ?? []) if (o.qrContent) out.add(o.qrContent);
  if (frame.auxInfo?.qrContent) out.add(frame.auxInfo.qrContent);
  return [...out];
}
