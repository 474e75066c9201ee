// Operator side of the keyword lists: the built-in lists plus an overlay (added / removed entries, new lists) kept in
// <dir>/settings.json with a version stamp; the OCR engine (workers) and the speech matcher re-read it when it changes.
import { z } from "zod";
import { describeZodError } from "../../../lib/contract/errors";
import { LABEL1_NAMES, SUBLABEL_NAMES } from "../../../lib/labels";
import { DEFAULT_AUDIO_LISTS } from "../audio/lists";
import { docWriter, DocWatcher } from "../settings/doc";
import { compileLists, IMAGE_TEXT, type CompiledList } from "../text/match";
import { DEFAULT_LISTS } from "./default-lists";
import { EMPTY_OVERLAY, effectiveLists, entryId, KEYWORD_SCOPES, normalizeWord, SCOPE_TYPES, type KeywordList, type KeywordOverlay, type KeywordScope, type ListOverlay } from "./model";

/** Every built-in list, both scopes. */
export const BUILT_IN_LISTS: readonly KeywordList[] = [...DEFAULT_LISTS, ...DEFAULT_AUDIO_LISTS];

/** A client mistake: the message says what to fix (HTTP 400). */
export class InputError extends Error {
  override name = "InputError";
}

const MAX_ADDED_PER_LIST = 2000;
const has = (table: Readonly<Record<string, unknown>>, k: string) => Object.prototype.hasOwnProperty.call(table, k);

const scope = z.enum(KEYWORD_SCOPES as [KeywordScope, ...KeywordScope[]]);
const listName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "a-z, 0-9, _ and - (at most 64, starting with a letter or digit)");
const word = z
  .string()
  .transform(normalizeWord)
  .pipe(z.string().min(1, "must not be empty").max(100, "at most 100 characters").regex(/^[^\p{Cc}]+$/u, "no control characters"));

export const addEntryInput = z
  .object({ scope, list: listName, entry: word })
  .refine((v) => v.scope !== "speech" || /^[a-z' ]+$/.test(v.entry), {
    message: "speech entries are English words (letters, apostrophes, spaces; numbers spelled out, as transcripts write them)",
    path: ["entry"],
  });
export const removeEntryInput = z.object({ scope, list: listName, entry: z.string().min(1, "required").max(2000) });
export const createListInput = z
  .object({
    scope,
    list: listName,
    type: z.string(),
    riskLevel: z.enum(["REVIEW", "REJECT"]),
    labels: z.tuple([z.string(), z.string(), z.string()]),
  })
  .superRefine((v, ctx) => {
    if (!SCOPE_TYPES[v.scope].includes(v.type)) ctx.addIssue({ code: "custom", path: ["type"], message: `one of ${SCOPE_TYPES[v.scope].join(", ")} for ${v.scope} lists` });
    if (!has(LABEL1_NAMES, v.labels[0]) || v.labels[0] === "normal") ctx.addIssue({ code: "custom", path: ["labels", 0], message: `unknown label1 ${JSON.stringify(v.labels[0])}` });
    for (const i of [1, 2] as const) if (!has(SUBLABEL_NAMES, v.labels[i])) ctx.addIssue({ code: "custom", path: ["labels", i], message: `unknown label ${JSON.stringify(v.labels[i])} (see lib/labels.ts)` });
  });
export const deleteListInput = z.object({ scope, list: listName });

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (!r.success) throw new InputError(describeZodError(r.error));
  return r.data;
}

const overlayShape = z.object({
  lists: z.array(
    z.object({
      scope,
      name: z.string(),
      custom: z.object({ type: z.string(), riskLevel: z.enum(["PASS", "REVIEW", "REJECT"]), labels: z.tuple([z.string(), z.string(), z.string()]) }).optional(),
      added: z.array(z.string()),
      removed: z.array(z.string()),
    }),
  ),
});

/** The stored overlay; a missing or damaged document is no overlay (the built-in lists). */
export function overlayOf(doc: unknown): KeywordOverlay {
  const r = overlayShape.safeParse(doc);
  return r.success ? r.data : EMPTY_OVERLAY;
}

/** Worker / detector side: the effective lists of one scope, compiled, rebuilt when the stamp changes. */
export class KeywordListsReader {
  private readonly watcher: DocWatcher<{ lists: KeywordList[]; compiled: Record<KeywordScope, CompiledList[]> }>;

  constructor(dir: string | undefined, builtIn: readonly KeywordList[] = BUILT_IN_LISTS) {
    this.watcher = new DocWatcher(dir, (doc) => {
      const lists = effectiveLists(builtIn, overlayOf(doc));
      return { lists, compiled: { image: compileLists(lists.filter((l) => l.scope === "image"), IMAGE_TEXT), speech: compileLists(lists.filter((l) => l.scope === "speech")) } };
    });
  }

  /** Every effective list; the same array until the lists change (callers may cache what they derive from it). */
  all(): readonly KeywordList[] {
    return this.watcher.get().lists;
  }

  compiled(scope: KeywordScope): CompiledList[] {
    return this.watcher.get().compiled[scope];
  }
}

export interface KeywordEntryView {
  entry: string;
  kind: "word" | "rule";
  builtIn: boolean;
}

export interface KeywordListView {
  scope: KeywordScope;
  name: string;
  type: string;
  riskLevel: string;
  labels: [string, string, string];
  builtIn: boolean;
  entries: KeywordEntryView[];
  /** built-in entries an operator switched off (add them again to restore) */
  removed: string[];
}

/** The keyword lists in `dir`: list, add / remove entries, create / delete lists. Inputs are validated (InputError). */
export function fileKeywordLists(dir: string, builtIn: readonly KeywordList[] = BUILT_IN_LISTS) {
  const doc = docWriter(dir);
  const find = (lists: readonly KeywordList[], s: KeywordScope, name: string) => lists.find((l) => l.scope === s && l.name === name);
  const builtInIds = (s: KeywordScope, name: string) => new Set(find(builtIn, s, name)?.entries.map(entryId) ?? []);

  /** Apply `change` to the overlay of one list (created on first change) and store the result. */
  const change = <T>(fn: (overlay: KeywordOverlay, lists: KeywordList[]) => T) =>
    doc.update((current) => {
      const overlay = structuredClone(overlayOf(current));
      const result = fn(overlay, effectiveLists(builtIn, overlay));
      return { next: overlay, result };
    });
  const overlayFor = (o: KeywordOverlay, s: KeywordScope, name: string): ListOverlay => {
    let l = o.lists.find((x) => x.scope === s && x.name === name);
    if (!l) o.lists.push((l = { scope: s, name, added: [], removed: [] }));
    return l;
  };

  return {
    dir,
    /** The lists in force (built-in + overlay). */
    async effective(): Promise<KeywordList[]> {
      return effectiveLists(builtIn, overlayOf(await doc.read()));
    },

    async all(): Promise<KeywordListView[]> {
      const overlay = overlayOf(await doc.read());
      return effectiveLists(builtIn, overlay).map((l) => {
        const ids = builtInIds(l.scope, l.name);
        return {
          scope: l.scope, name: l.name, type: l.type, riskLevel: l.riskLevel, labels: [l.label1, l.label2, l.label3], builtIn: l.builtIn !== false,
          entries: l.entries.map((e) => ({ entry: entryId(e), kind: typeof e === "object" && "pattern" in e ? "rule" : "word", builtIn: ids.has(entryId(e)) })),
          removed: overlay.lists.find((o) => o.scope === l.scope && o.name === l.name)?.removed ?? [],
        };
      });
    },

    /** Adds a word / phrase (or restores a removed built-in entry). */
    async add(input: unknown): Promise<{ scope: KeywordScope; list: string; entry: string }> {
      const v = parse(addEntryInput, input);
      return change((overlay, lists) => {
        const list = find(lists, v.scope, v.list);
        if (!list) throw new InputError(`no ${v.scope} list ${v.list}`);
        if (list.entries.some((e) => entryId(e) === v.entry)) throw new InputError(`${v.entry} is already in ${v.list}`);
        const o = overlayFor(overlay, v.scope, v.list);
        if (o.removed.includes(v.entry)) o.removed = o.removed.filter((x) => x !== v.entry);
        else if (o.added.length >= MAX_ADDED_PER_LIST) throw new InputError(`${v.list} already has ${MAX_ADDED_PER_LIST} added entries`);
        else o.added.push(v.entry);
        return { scope: v.scope, list: v.list, entry: v.entry };
      });
    },

    /** Removes an entry by its id (the word, or a rule's id); built-in entries are switched off, not deleted. */
    async remove(input: unknown): Promise<void> {
      const v = parse(removeEntryInput, input);
      return change((overlay, lists) => {
        const list = find(lists, v.scope, v.list);
        if (!list) throw new InputError(`no ${v.scope} list ${v.list}`);
        if (!list.entries.some((e) => entryId(e) === v.entry)) throw new InputError(`${v.list} has no entry ${JSON.stringify(v.entry)}`);
        const o = overlayFor(overlay, v.scope, v.list);
        if (o.added.includes(v.entry)) o.added = o.added.filter((x) => x !== v.entry);
        if (builtInIds(v.scope, v.list).has(v.entry)) o.removed.push(v.entry);
      });
    },

    /** A new list mapped to a label; its hits are `labels` at `riskLevel` under requests naming `type`. */
    async createList(input: unknown): Promise<void> {
      const v = parse(createListInput, input);
      return change((overlay, lists) => {
        if (find(lists, v.scope, v.list)) throw new InputError(`${v.scope} list ${v.list} exists already`);
        overlayFor(overlay, v.scope, v.list).custom = { type: v.type, riskLevel: v.riskLevel, labels: v.labels };
      });
    },

    /** Deletes a list an operator created (built-in lists can only have their entries removed). */
    async deleteList(input: unknown): Promise<void> {
      const v = parse(deleteListInput, input);
      return change((overlay, lists) => {
        const list = find(lists, v.scope, v.list);
        if (!list) throw new InputError(`no ${v.scope} list ${v.list}`);
        if (list.builtIn !== false) throw new InputError(`${v.list} is built in: remove its entries instead`);
        overlay.lists = overlay.lists.filter((o) => !(o.scope === v.scope && o.name === v.list));
      });
    },
  };
}

export type KeywordLists = ReturnType<typeof fileKeywordLists>;
