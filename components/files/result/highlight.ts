// Turn OCR/transcript text plus matchedLists/riskSegments into plain and highlighted pieces.
import type { MatchedList, RiskSegment } from "./types";

export interface Piece {
  text: string;
  /** set on highlighted pieces: which list (or "risk segment") and word caused the match */
  match?: { list: string; word: string };
}

type Range = { start: number; end: number; list: string; word: string };

function spells(text: string, start: number, end: number, word: string): boolean {
  return start >= 0 && end <= text.length && start < end && text.slice(start, end).toLowerCase() === word.toLowerCase();
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Where `word` sits in `text`: trust `position` when it spells the word, else search (OCR may space CJK glyphs). */
export function locate(text: string, word: string, position?: number[]): Array<[number, number]> {
  if (word === "") return [];
  if (position !== undefined && position.length > 0) {
    const [a, b] = position;
    const candidates: Array<[number, number]> = [];
    if (position.length === 2 && b !== undefined) candidates.push([a, b], [a, b + 1]); // [start,end) or [start,end]
    candidates.push([a, a + word.length]); // start only, or one index per character
    const hit = candidates.find(([s, e]) => spells(text, s, e, word));
    if (hit) return [hit];
  }
  const pattern = Array.from(word.replace(/\s+/g, "")).map(escapeRegex).join("\\s*");
  if (pattern === "") return [];
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(new RegExp(pattern, "giu"))) {
    if (m.index !== undefined && m[0].length > 0) out.push([m.index, m.index + m[0].length]);
  }
  return out;
}

export function highlightPieces(text: string, lists: MatchedList[] = [], segments: RiskSegment[] = []): Piece[] {
  const ranges: Range[] = [];
  for (const list of lists) {
    for (const w of list.words ?? []) {
      for (const [start, end] of locate(text, w.word, w.position)) ranges.push({ start, end, list: list.name, word: w.word });
    }
  }
  for (const seg of segments) {
    for (const [start, end] of locate(text, seg.segment, seg.position)) ranges.push({ start, end, list: "risk segment", word: seg.segment });
  }
  ranges.sort((x, y) => x.start - y.start || y.end - x.end);

  const pieces: Piece[] = [];
  let cursor = 0;
  for (const r of ranges) {
    if (r.start < cursor) continue; // overlaps an earlier highlight: keep the first
    if (r.start > cursor) pieces.push({ text: text.slice(cursor, r.start) });
    pieces.push({ text: text.slice(r.start, r.end), match: { list: r.list, word: r.word } });
    cursor = r.end;
  }
  if (cursor < text.length) pieces.push({ text: text.slice(cursor) });
  return pieces;
}
