"use client";

import { useSyncExternalStore } from "react";

// A page's own place for the live alerts dock: the Review page renders one above its queue, so alerts sit in the
// page's flow there and never over its decision buttons. One slot at a time.
let slot: HTMLElement | null = null;
const listeners = new Set<() => void>();

const setSlot = (el: HTMLElement | null) => {
  if (slot === el) return;
  slot = el;
  for (const l of listeners) l();
};

export function useDockSlot(): HTMLElement | null {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => void listeners.delete(l)),
    () => slot,
    () => null,
  );
}

export default function DockSlot() {
  return <div ref={setSlot} data-testid="alert-dock-slot" />;
}
