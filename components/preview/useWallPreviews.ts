"use client";

import { useCallback, useSyncExternalStore } from "react";

// The wall's "Live previews" switch, kept per browser: on by default; off shows each card's latest captured frame
// instead (less for a slow machine or network to carry with 16 streams on screen).
const KEY = "mp.wallPreviews";
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return window.localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

export function useWallPreviews(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribe, read, () => false);
  const set = useCallback((next: boolean) => {
    try {
      window.localStorage.setItem(KEY, next ? "on" : "off");
    } catch {
      // private mode without storage: the switch still works for this page
    }
    for (const l of listeners) l();
  }, []);
  return [on, set];
}
