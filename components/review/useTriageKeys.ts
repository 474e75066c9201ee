"use client";

import { useEffect, useRef } from "react";

/**
 * Single-key shortcuts on the whole page. Typing in a field, holding a modifier, or pressing Enter/Space on a
 * focused button or link (their own action) never triggers one.
 */
export function useTriageKeys(map: Record<string, () => void>): void {
  const ref = useRef(map);
  useEffect(() => {
    ref.current = map;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
      if (t && ["BUTTON", "A"].includes(t.tagName) && (e.key === "Enter" || e.key === " ")) return;
      const action = ref.current[e.key];
      if (!action) return;
      e.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
