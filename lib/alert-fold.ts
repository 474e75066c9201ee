// One live alert per stream (issue 26.2): every incident of a stream folds into one entry that updates in place
// (latest peak, open incidents, hits, worst level). An entry is raised (sound, desktop note, toast) when it first
// appears, when its worst level rises, or when a new incident opens after it was dismissed and the stream was quiet
// for QUIET_MS; anything else only updates it. Pure: components/alerts/store.ts keeps the state.
import type { RiskLevel } from "./dashboard-api";
import type { Incident, IncidentSource } from "./incidents";
import type { AlertLevel } from "./user-settings";

/** A dismissed stream alert comes back only for an incident opening after this long without activity. */
export const QUIET_MS = 10 * 60_000;
/** Stream entries kept for the bell (oldest activity leaves first). */
export const MAX_ENTRIES = 200;
/** Stream keys remembered as alerted in this tab (sessionStorage), so a reload does not sound again. */
export const MAX_REMEMBERED = 500;

export interface FoldedIncident {
  hits: number;
  level: RiskLevel;
  open: boolean;
}

export interface StreamAlert {
  /** the stream's requestId */
  key: string;
  source: IncidentSource;
  /** the incident of the last event: its peak is the one shown */
  latest: Incident;
  incidents: Readonly<Record<string, FoldedIncident>>;
  openCount: number;
  hits: number;
  worst: AlertLevel;
  raisedAt: number;
  /** the last event that touched this entry (ms) */
  activeAt: number;
  /** times it grew (hits or incidents) since raised */
  updates: number;
  /** times it was raised (first appearance, a worse level, a return after a quiet dismissal) */
  raises: number;
  dismissed: boolean;
  dismissedAt: number | null;
}

/** An incident this tab knows (the open ones fetched at each join, then every event). */
export interface KnownIncident extends FoldedIncident {
  requestId: string;
  label: string;
  kind: Incident["source"]["kind"];
}

export interface FoldBook {
  known: ReadonlyMap<string, KnownIncident>;
  /** stream keys alerted in this tab before (a reload remembers them) */
  remembered: readonly string[];
  /** stream keys dismissed in this tab, with when (a reload keeps them dismissed) */
  dismissedAt: Readonly<Record<string, number>>;
  /** newest activity first */
  entries: readonly StreamAlert[];
}

export const EMPTY_FOLD: FoldBook = { known: new Map(), remembered: [], dismissedAt: {}, entries: [] };

export type FoldEffect = "raised" | "updated" | "none";

export interface FoldFilter {
  levels: readonly AlertLevel[];
  /** riskLabel1 slugs; empty: all */
  categories: readonly string[];
}

const RANK: Record<string, number> = { REJECT: 2, REVIEW: 1 };
const rank = (l: string) => RANK[l] ?? 0;

/** A stream incident of a level and category the user asked to be alerted about. */
export function matches(i: Incident, f: FoldFilter): boolean {
  return i.source.kind === "stream" && (f.levels as readonly string[]).includes(i.riskLevel) && (f.categories.length === 0 || f.categories.includes(i.label));
}

function summarise(incidents: Record<string, FoldedIncident>): { openCount: number; hits: number; worst: AlertLevel } {
  let openCount = 0;
  let hits = 0;
  let worst: AlertLevel = "REVIEW";
  for (const v of Object.values(incidents)) {
    hits += v.hits;
    if (v.open) openCount += 1;
    if (rank(v.level) > rank(worst)) worst = v.level as AlertLevel;
  }
  return { openCount, hits, worst };
}

const knownOf = (i: Incident, hits: number): KnownIncident => ({ hits, level: i.riskLevel, open: i.status === "open", requestId: i.source.requestId, label: i.label, kind: i.source.kind });

const withEntry = (book: FoldBook, e: StreamAlert, known: ReadonlyMap<string, KnownIncident>, remembered = book.remembered): FoldBook => ({
  known,
  remembered,
  dismissedAt: book.dismissedAt,
  entries: [e, ...book.entries.filter((x) => x.key !== e.key)].slice(0, MAX_ENTRIES),
});

/** One `incident` event folded into the book. */
export function foldIncident(book: FoldBook, i: Incident, now: number, filter: FoldFilter): { book: FoldBook; effect: FoldEffect } {
  const before = book.known.get(i.id)?.hits;
  const known = new Map(book.known).set(i.id, knownOf(i, Math.max(i.hits, before ?? 0)));
  const entry = book.entries.find((e) => e.key === i.source.requestId);
  const inEntry = entry ? i.id in entry.incidents : false;
  if (!inEntry && !matches(i, filter)) return { book: { ...book, known }, effect: "none" };
  const open = i.status === "open";
  // a creation event (created = updated) is news even when a baseline fetched meanwhile already holds it
  const fresh = i.createdAt === i.updatedAt || before === undefined || i.hits > before;

  if (!entry) {
    if (!open || !fresh) return { book: { ...book, known }, effect: "none" };
    // the stream's other open incidents this tab already knew (the join's baseline) count in the entry from the start
    const incidents: Record<string, FoldedIncident> = {};
    for (const [id, k] of book.known) {
      if (k.requestId === i.source.requestId && k.open && k.kind === "stream" && (filter.levels as readonly string[]).includes(k.level) && (filter.categories.length === 0 || filter.categories.includes(k.label))) incidents[id] = { hits: k.hits, level: k.level, open: true };
    }
    incidents[i.id] = { hits: i.hits, level: i.riskLevel, open };
    const again = book.remembered.includes(i.source.requestId);
    // dismissed on an earlier page of this tab: listed (bell), still off the dock
    const gone = again ? (book.dismissedAt[i.source.requestId] ?? null) : null;
    const e: StreamAlert = { key: i.source.requestId, source: i.source, latest: i, incidents, ...summarise(incidents), raisedAt: now, activeAt: now, updates: 0, raises: 1, dismissed: gone !== null, dismissedAt: gone };
    const remembered = again ? book.remembered : [...book.remembered, e.key].slice(-MAX_REMEMBERED);
    // a stream alerted earlier in this tab (before a reload) is listed again without a second sound
    return { book: withEntry(book, e, known, remembered), effect: again ? "updated" : "raised" };
  }

  const prev = entry.incidents[i.id];
  const opened = !prev && open;
  const grew = opened || (prev !== undefined && i.hits > prev.hits);
  const incidents = { ...entry.incidents, [i.id]: { hits: Math.max(i.hits, prev?.hits ?? 0), level: i.riskLevel, open } };
  const sum = summarise(incidents);
  const worse = rank(sum.worst) > rank(entry.worst);
  const quietReturn = entry.dismissed && opened && now - entry.activeAt >= QUIET_MS;
  const raise = worse || quietReturn;
  const next: StreamAlert = {
    ...entry,
    source: i.source,
    latest: open || !prev ? i : entry.latest.id === i.id ? i : entry.latest,
    incidents,
    ...sum,
    activeAt: grew ? now : entry.activeAt,
    updates: entry.updates + (grew ? 1 : 0),
    raises: entry.raises + (raise ? 1 : 0),
    raisedAt: raise ? now : entry.raisedAt,
    dismissed: raise ? false : entry.dismissed,
    dismissedAt: raise ? null : entry.dismissedAt,
  };
  const cleared = raise && entry.dismissed ? { ...book, dismissedAt: Object.fromEntries(Object.entries(book.dismissedAt).filter(([k]) => k !== entry.key)) } : book;
  return { book: withEntry(cleared, next, known), effect: raise ? "raised" : "updated" };
}

/** What the server holds when the incidents room is (re)joined: known from here on, so only growth alerts. */
export function withBaseline(book: FoldBook, incidents: readonly Incident[]): FoldBook {
  const known = new Map(book.known);
  for (const i of incidents) known.set(i.id, knownOf(i, Math.max(i.hits, known.get(i.id)?.hits ?? 0)));
  return { ...book, known };
}

/** Off the dock (the bell keeps listing it); it returns only as `foldIncident` says. */
export function dismissStream(book: FoldBook, key: string, now: number): FoldBook {
  return { ...book, dismissedAt: { ...book.dismissedAt, [key]: now }, entries: book.entries.map((e) => (e.key === key ? { ...e, dismissed: true, dismissedAt: now } : e)) };
}

/** Forgets an entry altogether (the bell's "clear"). */
export function forgetStream(book: FoldBook, key: string): FoldBook {
  return { ...book, entries: book.entries.filter((e) => e.key !== key) };
}

/** Dismissals remembered from an earlier page of this tab (sessionStorage), tolerant of anything unreadable. */
export function parseDismissed(raw: string | null): Record<string, number> {
  try {
    const v: unknown = raw ? JSON.parse(raw) : {};
    if (typeof v !== "object" || v === null || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => typeof e[1] === "number").slice(-MAX_REMEMBERED));
  } catch {
    return {};
  }
}

/** Stream keys remembered from an earlier page of this tab (sessionStorage), tolerant of anything unreadable. */
export function parseRemembered(raw: string | null): string[] {
  try {
    const v: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").slice(-MAX_REMEMBERED) : [];
  } catch {
    return [];
  }
}
