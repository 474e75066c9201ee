"use client";

import { useSyncExternalStore } from "react";
import {
  ALERT_SETTINGS_KEY, ALERTED_IDS_KEY, DEFAULT_ALERT_SETTINGS, EMPTY_BOOK, dismiss, onIncident, parseAlertSettings, parseRaised, withBaseline,
  type AlertBook, type AlertEffect, type AlertSettings,
} from "@/lib/alerts";
import type { Incident } from "@/lib/incidents";

// One store per tab, shared by the toast stack (app layout) and the bell in the top bar.
let settings: AlertSettings | null = null;
let book: AlertBook | null = null;
const listeners = new Set<() => void>();

const emit = () => {
  for (const l of listeners) l();
};

function storage(kind: "local" | "session"): Storage | null {
  try {
    return kind === "local" ? window.localStorage : window.sessionStorage;
  } catch {
    return null; // storage disabled: settings and memory last for this page only
  }
}

function currentSettings(): AlertSettings {
  settings ??= parseAlertSettings(storage("local")?.getItem(ALERT_SETTINGS_KEY) ?? null);
  return settings;
}

function currentBook(): AlertBook {
  book ??= { ...EMPTY_BOOK, raised: parseRaised(storage("session")?.getItem(ALERTED_IDS_KEY) ?? null) };
  return book;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // another tab changed the settings
  const onStorage = (e: StorageEvent) => {
    if (e.key !== ALERT_SETTINGS_KEY) return;
    settings = parseAlertSettings(e.newValue);
    listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function useAlertSettings(): AlertSettings {
  return useSyncExternalStore(subscribe, currentSettings, () => DEFAULT_ALERT_SETTINGS);
}

export function setAlertSettings(patch: Partial<AlertSettings>): void {
  settings = { ...currentSettings(), ...patch };
  storage("local")?.setItem(ALERT_SETTINGS_KEY, JSON.stringify(settings));
  emit();
}

export function useAlertBook(): AlertBook {
  return useSyncExternalStore(subscribe, currentBook, () => EMPTY_BOOK);
}

export function getAlertSettings(): AlertSettings {
  return currentSettings();
}

export function applyIncident(i: Incident): AlertEffect {
  const before = currentBook();
  const step = onIncident(before, i, Date.now());
  book = step.book;
  if (book.raised !== before.raised) storage("session")?.setItem(ALERTED_IDS_KEY, JSON.stringify(book.raised));
  // what the tab knows changes with every event; only alerts are drawn
  if (step.effect !== "none") emit();
  return step.effect;
}

export function applyBaseline(incidents: readonly Incident[]): void {
  book = withBaseline(currentBook(), incidents);
  emit();
}

export function dismissAlert(id: string): void {
  book = dismiss(currentBook(), id);
  emit();
}
