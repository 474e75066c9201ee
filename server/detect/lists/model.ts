// One keyword-list model for OCR text (frames) and transcripts (speech): built-in lists are seed data,
// operator changes (added / removed entries, new lists) are an overlay stored in DATA_DIR.
import type { RiskLevel } from "../../../lib/contract/taxonomy";

/** Where a list is matched (image: OCR text of frames; speech: transcripts) and the types a list can answer. */
export { KEYWORD_SCOPES, KEYWORD_SCOPE_TYPES as SCOPE_TYPES, type KeywordScope } from "../../../lib/dashboard-api";
import type { KeywordScope } from "../../../lib/dashboard-api";

/** A regex rule; `pattern` is matched case-insensitively against lower-cased text. */
export interface RegexEntry {
  id: string;
  pattern: string;
  /** overrides the list's label3 / riskLevel for hits of this rule */
  label3?: string;
  riskLevel?: RiskLevel;
}

/** A word or phrase that carries its own label3 / level (plain strings take the list's). */
export interface PhraseEntry {
  phrase: string;
  label3?: string;
  riskLevel?: RiskLevel;
}

export type ListEntry = string | PhraseEntry | RegexEntry;

export interface KeywordList {
  scope: KeywordScope;
  name: string;
  /** the requested type that switches this list on (imgType for image, audioType / stream type for speech) */
  type: string;
  riskLevel: RiskLevel;
  label1: string;
  label2: string;
  label3: string;
  /** speech: strings and phrases are also spotted acoustically; regex rules only run on text */
  entries: ListEntry[];
  /** false for lists an operator created */
  builtIn?: boolean;
}

/** The id a hit reports in matchedLists[].words[].entry, and the key to remove an entry by. */
export function entryId(e: ListEntry): string {
  return typeof e === "string" ? e : "phrase" in e ? e.phrase : e.id;
}

/** Operator changes to one list (a built-in one, or one they created: then `custom` holds its labels). */
export interface ListOverlay {
  scope: KeywordScope;
  name: string;
  custom?: { type: string; riskLevel: RiskLevel; labels: [string, string, string] };
  /** plain words / phrases added */
  added: string[];
  /** ids of built-in entries switched off */
  removed: string[];
}

export interface KeywordOverlay {
  lists: ListOverlay[];
}

export const EMPTY_OVERLAY: KeywordOverlay = { lists: [] };

/** Normal form of an operator's word: NFKC, lower case, single spaces. */
export function normalizeWord(word: string): string {
  return word.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, " ");
}

/** Built-in lists with the operator's overlay applied; lists they created follow the built-in ones. */
export function effectiveLists(builtIn: readonly KeywordList[], overlay: KeywordOverlay = EMPTY_OVERLAY): KeywordList[] {
  const key = (scope: string, name: string) => `${scope}/${name}`;
  const byKey = new Map(overlay.lists.map((o) => [key(o.scope, o.name), o]));
  const apply = (list: KeywordList, o: ListOverlay | undefined): KeywordList => {
    if (!o) return { ...list, builtIn: list.builtIn ?? true };
    const removed = new Set(o.removed);
    const kept = list.entries.filter((e) => !removed.has(entryId(e)));
    const ids = new Set(kept.map(entryId));
    return { ...list, entries: [...kept, ...o.added.filter((w) => !ids.has(w))] };
  };
  const out = builtIn.map((l) => apply({ ...l, builtIn: true }, byKey.get(key(l.scope, l.name))));
  const known = new Set(builtIn.map((l) => key(l.scope, l.name)));
  for (const o of overlay.lists) {
    if (!o.custom || known.has(key(o.scope, o.name))) continue;
    const [label1, label2, label3] = o.custom.labels;
    out.push({ scope: o.scope, name: o.name, type: o.custom.type, riskLevel: o.custom.riskLevel, label1, label2, label3, entries: [...o.added], builtIn: false });
  }
  return out;
}
