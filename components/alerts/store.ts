"use client";

import { useSyncExternalStore } from "react";
import { EMPTY_FOLD, dismissStream, foldIncident, forgetStream, parseDismissed, parseRemembered, withBaseline, type FoldBook, type FoldEffect, type StreamAlert } from "@/lib/alert-fold";
import type { Incident } from "@/lib/incidents";
import type { RuleAlert } from "@/lib/events";
import { DEFAULT_ALERTS, type AlertPrefs } from "@/lib/user-settings";

/** Stream keys alerted in this tab (sessionStorage): a reload lists them again without a second sound. */
const REMEMBERED_KEY = "mp.alerts.streams.v1";
/** Stream keys dismissed in this tab: a reload keeps them off the dock. */
const DISMISSED_KEY = "mp.alerts.dismissed.v1";

// One store per tab, shared by the dock (app layout) and the bell in the top bar. The user's alert preferences come
// from the server (components/settings/useMySettings.ts) and are copied here so the socket handler reads them at once.
let prefs: AlertPrefs = DEFAULT_ALERTS;
let book: FoldBook | null = null;
const listeners = new Set<() => void>();

const emit = () => {
  for (const l of listeners) l();
};

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: memory lasts for this page only
  }
}

function currentBook(): FoldBook {
  book ??= { ...EMPTY_FOLD, remembered: parseRemembered(session()?.getItem(REMEMBERED_KEY) ?? null), dismissedAt: parseDismissed(session()?.getItem(DISMISSED_KEY) ?? null) };
  return book;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function setAlertPrefs(p: AlertPrefs): void {
  prefs = p;
}

export function getAlertPrefs(): AlertPrefs {
  return prefs;
}

export function useAlertBook(): FoldBook {
  return useSyncExternalStore(subscribe, currentBook, () => EMPTY_FOLD);
}

/** Folds one incident event into its stream's entry; "raised" means sound and a desktop notification are due. */
export function applyIncident(i: Incident): { effect: FoldEffect; entry: StreamAlert | undefined } {
  const before = currentBook();
  const step = foldIncident(before, i, Date.now(), prefs);
  book = step.book;
  if (book.remembered !== before.remembered) session()?.setItem(REMEMBERED_KEY, JSON.stringify(book.remembered));
  if (book.dismissedAt !== before.dismissedAt) session()?.setItem(DISMISSED_KEY, JSON.stringify(book.dismissedAt));
  if (step.effect !== "none") emit();
  return { effect: step.effect, entry: book.entries.find((e) => e.key === i.source.requestId) };
}

export function applyBaseline(incidents: readonly Incident[]): void {
  book = withBaseline(currentBook(), incidents);
  emit();
}

/** Off the dock; the bell keeps it. */
export function dismissAlert(key: string): void {
  book = dismissStream(currentBook(), key, Date.now());
  session()?.setItem(DISMISSED_KEY, JSON.stringify(book.dismissedAt));
  emit();
}

export function dismissAll(): void {
  const now = Date.now();
  book = currentBook().entries.reduce((b, e) => (e.dismissed ? b : dismissStream(b, e.key, now)), currentBook());
  session()?.setItem(DISMISSED_KEY, JSON.stringify(book.dismissedAt));
  emit();
}

/** Out of the bell's list too. */
export function forgetAlert(key: string): void {
  book = forgetStream(currentBook(), key);
  emit();
}

// A live rule's priority alerts (server/rules "alert" action), by stream: shown on that stream's entry, newest first.
let ruleAlerts: Readonly<Record<string, RuleAlert[]>> = {};
const ruleListeners = new Set<() => void>();

/** Records a rule's priority alert; the stream's entry when it has one (the caller sounds it). */
export function applyRuleAlert(a: RuleAlert): StreamAlert | undefined {
  ruleAlerts = { ...ruleAlerts, [a.requestId]: [a, ...(ruleAlerts[a.requestId] ?? [])].slice(0, 5) };
  for (const l of ruleListeners) l();
  return currentBook().entries.find((e) => e.key === a.requestId);
}

export function useRuleAlerts(requestId: string): readonly RuleAlert[] {
  const all = useSyncExternalStore(
    (l) => (ruleListeners.add(l), () => void ruleListeners.delete(l)),
    () => ruleAlerts,
    () => ruleAlerts,
  );
  return all[requestId] ?? [];
}
