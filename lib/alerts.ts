// Live alerts: which incident events raise an alert, and the rule that one incident raises at most one
// (pure: the browser store in components/alerts keeps the state, tests/unit/alerts.test.ts checks the rules).
import type { Incident } from "./incidents";

/** What a signed-in user wants when an alert is raised; kept per browser in localStorage. */
export interface AlertSettings {
  /** a toast with the peak frame and one-click actions */
  toast: boolean;
  /** a short Web Audio beep */
  sound: boolean;
  /** a desktop notification (Notification API; the browser asks for permission) */
  desktop: boolean;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { toast: true, sound: false, desktop: false };
export const ALERT_SETTINGS_KEY = "mp.alerts.settings.v1";
/** Incident ids already alerted in this tab (sessionStorage): a reload does not raise them again. */
export const ALERTED_IDS_KEY = "mp.alerts.raised.v1";
/** Toasts on screen at once; older ones leave the stack (they stay alerted). */
export const MAX_TOASTS = 3;
/** Alerted ids remembered; far more than a shift sees, small enough for sessionStorage. */
export const MAX_REMEMBERED = 500;

/** Settings read from storage: anything unreadable falls back to the defaults, field by field. */
export function parseAlertSettings(raw: string | null): AlertSettings {
  if (!raw) return { ...DEFAULT_ALERT_SETTINGS };
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { ...DEFAULT_ALERT_SETTINGS };
  }
  const o = typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  const pick = (k: keyof AlertSettings) => (typeof o[k] === "boolean" ? (o[k] as boolean) : DEFAULT_ALERT_SETTINGS[k]);
  return { toast: pick("toast"), sound: pick("sound"), desktop: pick("desktop") };
}

/** An open REJECT incident of a live stream: the only kind that interrupts whoever watches. */
export function isAlertable(i: Incident): boolean {
  return i.source.kind === "stream" && i.riskLevel === "REJECT" && i.status === "open";
}

export interface LiveAlert {
  id: string;
  /** the incident as last pushed (an extension updates it in place) */
  incident: Incident;
  raisedAt: number;
  /** how many times the incident grew since the alert was raised */
  updates: number;
}

export interface AlertBook {
  /** hits of every incident this tab knows (the open REJECT ones fetched at each join, then every event seen) */
  known: ReadonlyMap<string, number>;
  /** incidents that raised an alert here, shown or dismissed: never raised twice */
  raised: readonly string[];
  /** on screen, newest first */
  alerts: readonly LiveAlert[];
}

export const EMPTY_BOOK: AlertBook = { known: new Map(), raised: [], alerts: [] };

export type AlertEffect = "raised" | "updated" | "none";

/**
 * One `incident` event. A new open REJECT stream incident — or one known before that grows (it is live again) —
 * raises an alert, once; later events for it (more hits, a decision) update that alert in place. Events that
 * change nothing but the assignee of an incident this tab already knew raise nothing.
 */
export function onIncident(book: AlertBook, i: Incident, now: number): { book: AlertBook; effect: AlertEffect } {
  const known = new Map(book.known).set(i.id, Math.max(i.hits, book.known.get(i.id) ?? 0));
  const shown = book.alerts.find((a) => a.id === i.id);
  if (shown) {
    const grew = i.hits > shown.incident.hits;
    const alerts = book.alerts.map((a) => (a.id === i.id ? { ...a, incident: i, updates: a.updates + (grew ? 1 : 0) } : a));
    return { book: { ...book, known, alerts }, effect: "updated" };
  }
  if (book.raised.includes(i.id)) return { book: { ...book, known }, effect: "none" };
  const before = book.known.get(i.id);
  // a creation event (created = updated) is news even when a baseline fetched meanwhile already holds it
  const created = i.createdAt === i.updatedAt;
  if (!isAlertable(i) || (!created && before !== undefined && i.hits <= before)) return { book: { ...book, known }, effect: "none" };
  const alert: LiveAlert = { id: i.id, incident: i, raisedAt: now, updates: 0 };
  return {
    book: { known, raised: [...book.raised, i.id].slice(-MAX_REMEMBERED), alerts: [alert, ...book.alerts].slice(0, MAX_TOASTS) },
    effect: "raised",
  };
}

/** What the server holds when the incidents room is (re)joined: known from here on, so only growth alerts. */
export function withBaseline(book: AlertBook, incidents: readonly Incident[]): AlertBook {
  const known = new Map(book.known);
  for (const i of incidents) known.set(i.id, Math.max(i.hits, known.get(i.id) ?? 0));
  return { ...book, known };
}

export function dismiss(book: AlertBook, id: string): AlertBook {
  return { ...book, alerts: book.alerts.filter((a) => a.id !== id) };
}

/** Ids remembered from an earlier page of this tab (sessionStorage), tolerant of anything unreadable. */
export function parseRaised(raw: string | null): string[] {
  try {
    const v: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").slice(-MAX_REMEMBERED) : [];
  } catch {
    return [];
  }
}

/** Seconds since the epoch → the stream page at that moment. */
export function timelineHref(i: Incident): string {
  return `${i.source.href}?at=${Math.floor(i.peak.t)}`;
}

/** "Advertising on Lobby cam": the notification and toast title. */
export function alertTitle(i: Incident): string {
  return `${i.riskLevel} · ${i.labelName} on ${i.source.title ?? i.source.url ?? i.source.ref}`;
}

/** The evidence in one line: QR contents, matched words, or the labels. */
export function alertSummary(i: Incident): string {
  const e = i.peak.evidence;
  if (e.qr.length > 0) return `QR: ${e.qr.join(", ")}`;
  if (e.words.length > 0) return `words: ${e.words.map((w) => w.word).join(", ")}`;
  if (e.hashMatch) return `matches ${e.hashMatch.list}/${e.hashMatch.entry}`;
  if (e.faces.length > 0) return `faces: ${e.faces.join(", ")}`;
  return i.labels.join(", ");
}
