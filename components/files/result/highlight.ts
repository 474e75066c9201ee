// Turn OCR/transcript text plus matchedLists/riskSegments into plain and highlighted pieces.
import type { MatchedList, RiskSegment } from "./types";

export interface Piece {
  text: string;
  /** set on highlighted pieces: which list (or "risk segment") and word caused the match */
  match?: { list: string; word: string; kind: "word" | "segment" };
}

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

/**
 * Split text into pieces: matched list words win (first match per character), risk segments only mark
 * what no word covers, so a long segment never hides the words that caused it.
 */
export function highlightPieces(text: string, lists: MatchedList[] = [], segments: RiskSegment[] = []): Piece[] {
  const marks: Array<Piece["match"] | undefined> = new Array(text.length).fill(undefined);
  const paint = (ranges: Array<[number, number]>, match: NonNullable<Piece["match"]>) => {
    for (const [start, end] of ranges) for (let i = start; i < end; i++) marks[i] ??= match;
  };
  for (const list of lists) for (const w of list.words ?? []) paint(locate(text, w.word, w.position), { list: list.name, word: w.word, kind: "word" });
  for (const seg of segments) paint(locate(text, seg.segment, seg.position), { list: "risk segment", word: seg.segment, kind: "segment" });

  const pieces: Piece[] = [];
  for (let i = 0; i < text.length; ) {
    let j = i + 1;
    while (j < text.length && marks[j] === marks[i]) j++;
    pieces.push(marks[i] ? { text: text.slice(i, j), match: marks[i] } : { text: text.slice(i, j) });
    i = j;
  }
  return pieces;
}
