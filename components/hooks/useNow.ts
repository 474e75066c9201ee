"use client";

import { useSyncExternalStore } from "react";

// One interval for the whole tab, running only while something on screen shows elapsed time.
let now = 0;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(tick, 1_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Date.now(), refreshed every second; 0 during server render (callers show a placeholder). */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => 0);
}
