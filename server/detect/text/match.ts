// Keyword-list matching over normalised OCR text or a transcript: plain words and regex rules, with exact offsets.
import type { RiskLevel } from "../../../lib/contract/taxonomy";
import type { MatchedWord, RiskSegment } from "../types";
import { entryId, type KeywordList } from "../lists/model";
import { foldForMatch } from "./normalize";

export type { KeywordList, ListEntry, PhraseEntry, RegexEntry } from "../lists/model";

export interface CompiledEntry {
  id: string;
  re: RegExp;
  label3: string;
  riskLevel: RiskLevel;
  /**
   * A word's prefilter: the regex can only match a text whose probe (probeOf) contains one of these; null (a regex
   * rule) always runs. Most entries are settled by a substring search, their regex never runs (nor is compiled).
   */
  anchors: string[] | null;
}

export interface CompiledList {
  list: KeywordList;
  entries: CompiledEntry[];
}

/** One hit group: the words of one list that share the same labels and level. */
export interface ListHit {
  list: KeywordList;
  riskLevel: RiskLevel;
  label1: string;
  label2: string;
  label3: string;
  words: MatchedWord[];
}

const ASCII_WORD = /[a-z0-9]/i;

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Shortest phrase (letters, spaces left out) matched also when written without its spaces: shorter ones ("the rapist") hide inside words ("therapist"). */
const MIN_JOINED_CHARS = 10;
/** Shortest phrase (letters, spaces left out) matched also with one OCR error in it. */
const MIN_ONE_ERROR_CHARS = 8;

/**
 * What OCR mistakes a character for (the recogniser's usual confusions): a substitution is only tolerated inside
 * these classes, so "make money last" never passes for "make money fast" while "0nline cas1no"'s misreads are read
 * through. Multi-character look-alikes (rn → m, vv → w, cl → d) count as one error.
 */
const CONFUSABLE: Readonly<Record<string, string>> = {
  o: "[o0°]", "0": "[0o]", l: "[l1i|!]", i: "[i1l|!]", "1": "[1il|]", s: "[s5$]", "5": "[5s]", b: "[b8]", "8": "[8b]",
  g: "[g9q]", "9": "[9g]", q: "[qg]", z: "[z2]", "2": "[2z]", e: "[ec]", c: "[ce]", a: "[a@]", u: "[uv]", v: "[vu]",
  t: "[t+]", n: "[nh]", h: "[hn]", m: "(?:m|rn|nn)", w: "(?:w|vv)", d: "(?:d|cl)",
};

/**
 * A phrase's forms with one OCR error: one character read as a look-alike (CONFUSABLE), dropped, or one stray
 * non-space character added. Words keep their boundaries and spaces; only image text uses them.
 */
function oneErrorForms(parts: readonly string[]): string[] {
  const chars = [...parts.join(" ")];
  const esc = (c: string) => (c === " " ? "\\s+" : escapeRegex(c));
  const at = (i: number, sub: string) => chars.map((c, k) => (k === i ? sub : esc(c))).join("");
  const forms: string[] = [];
  chars.forEach((c, i) => {
    if (c === " ") return;
    if (CONFUSABLE[c]) forms.push(at(i, CONFUSABLE[c]));
    // a dropped character (not one whose loss would join two words)
    forms.push(at(i, ""));
    // a stray character before it
    forms.push(at(i, `[^\\s]${esc(c)}`));
  });
  forms.push(`${chars.map(esc).join("")}[^\\s]`);
  return forms;
}

/**
 * Plain word → regex: case-insensitive, any whitespace between its parts, ASCII ends must sit on word boundaries.
 * `joinSpaces` (image text: OCR often drops the spaces of a tight line, "GUNSFORSALE"): a phrase of at least
 * MIN_JOINED_CHARS characters also matches with no space at all.
 */
export function wordToPattern(word: string, o: ImageTextOptions = {}): string {
  const raw = word.trim().toLowerCase().split(/\s+/);
  const parts = raw.map(escapeRegex);
  const spaced = parts.join("\\s+");
  const letters = word.replace(/\s+/g, "").length;
  const joined = parts.length > 1 && o.joinSpaces && letters >= MIN_JOINED_CHARS ? parts.join("") : null;
  const fuzzy = o.oneError && letters >= MIN_ONE_ERROR_CHARS ? oneErrorForms(raw) : [];
  const forms = [spaced, ...(joined ? [joined] : []), ...fuzzy];
  const body = forms.length > 1 ? `(?:${forms.join("|")})` : spaced;
  const start = ASCII_WORD.test(word.trim()[0] ?? "") ? "(?<![a-z0-9])" : "";
  const end = ASCII_WORD.test(word.trim().slice(-1)) ? "(?![a-z0-9])" : "";
  return start + body + end;
}

/**
 * How image text is matched (OCR output, not a transcript): `joinSpaces`, a long phrase also without its spaces;
 * `oneError`, a phrase of MIN_ONE_ERROR_CHARS or more also with one OCR error (oneErrorForms).
 */
export interface ImageTextOptions {
  joinSpaces?: boolean;
  oneError?: boolean;
}

/** The options the image-text lists are compiled with; speech transcripts use none. */
export const IMAGE_TEXT: ImageTextOptions = { joinSpaces: true, oneError: true };

/**
 * The form both a text and a word's anchors are compared in: no whitespace (a phrase may be matched with its
 * spaces dropped), and each character upper- then lower-cased, which maps every case variant the regex's `iu`
 * flags accept to one character (ſ and S to s, ς and Σ to σ, the Kelvin sign to k). It may equate more than the
 * regex does (ı and i), never less: the prefilter only lets through.
 */
export function probeOf(text: string): string {
  return text.replace(/\s+/gu, "").toUpperCase().toLowerCase();
}

/**
 * What any match of a word must contain, as probes: the whole word; with one OCR error allowed (oneErrorForms:
 * one character substituted, dropped or added), one of its two halves is always left whole.
 */
export function anchorsOf(word: string, o: ImageTextOptions = {}): string[] {
  const core = word.replace(/\s+/gu, "");
  if (!(o.oneError && core.length >= MIN_ONE_ERROR_CHARS)) return [probeOf(core)];
  const half = Math.floor(core.length / 2);
  return [probeOf(core.slice(0, half)), probeOf(core.slice(half))];
}

/** `o`: image-text lists (see wordToPattern); speech transcripts always have their spaces and are matched exactly. */
export function compileLists(lists: readonly KeywordList[], o: ImageTextOptions = {}): CompiledList[] {
  return lists.map((list) => ({
    list,
    entries: list.entries.map((e): CompiledEntry => {
      const word = typeof e === "string" ? e : "phrase" in e ? e.phrase : null;
      const pattern = word === null ? (e as { pattern: string }).pattern : wordToPattern(word, o);
      const own: { label3?: string; riskLevel?: RiskLevel } = typeof e === "string" ? {} : e;
      return { id: entryId(e), re: new RegExp(pattern, "giu"), label3: own.label3 ?? list.label3, riskLevel: own.riskLevel ?? list.riskLevel, anchors: word === null ? null : anchorsOf(word, o) };
    }),
  }));
}

interface RawMatch {
  start: number;
  end: number;
  entry: CompiledEntry;
}

/** Every match of every entry of the lists whose type is in `types`; inside one list, a match contained in a longer one is dropped. */
export function matchLists(text: string, lists: readonly CompiledList[], types: ReadonlySet<string>): ListHit[] {
  const folded = foldForMatch(text);
  let probe: string | null = null;
  const hits: ListHit[] = [];
  for (const { list, entries } of lists) {
    if (!types.has(list.type)) continue;
    const raw: RawMatch[] = [];
    for (const entry of entries) {
      if (entry.anchors && !entry.anchors.some((a) => (probe ??= probeOf(folded)).includes(a))) continue;
      entry.re.lastIndex = 0;
      for (const m of folded.matchAll(entry.re)) {
        if (m[0].length > 0) raw.push({ start: m.index, end: m.index + m[0].length, entry });
      }
    }
    raw.sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: RawMatch[] = [];
    for (const r of raw) {
      if (!kept.some((k) => k.start <= r.start && r.end <= k.end)) kept.push(r);
    }
    const groups = new Map<string, ListHit>();
    for (const r of kept) {
      const key = `${r.entry.riskLevel}|${r.entry.label3}`;
      let g = groups.get(key);
      if (!g) {
        g = { list, riskLevel: r.entry.riskLevel, label1: list.label1, label2: list.label2, label3: r.entry.label3, words: [] };
        groups.set(key, g);
      }
      g.words.push({ word: text.slice(r.start, r.end), position: [r.start, r.end], entry: r.entry.id });
    }
    hits.push(...groups.values());
  }
  return hits;
}

/** The text lines that contain the given words (a word across a line break takes both lines), merged, in text order. */
export function riskSegments(text: string, words: readonly MatchedWord[]): RiskSegment[] {
  const spans = words
    .map((w): [number, number] => {
      const nl = text.indexOf("\n", w.position[1]);
      return [text.lastIndexOf("\n", w.position[0] - 1) + 1, nl === -1 ? text.length : nl];
    })
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([s[0], s[1]]);
  }
  return merged.map(([from, to]) => ({ segment: text.slice(from, to), position: [from, to] }));
}
