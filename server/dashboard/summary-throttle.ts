// A stream's summary (wall card: counts, now, worst, the last-minute window) goes out at most every SUMMARY_EVERY_MS:
// at a high callback rate the window query would otherwise run for every callback and become the receiver's cost.
// The first callback after a quiet spell publishes at once and opens a window; callbacks inside it are covered by one
// publish at its end (which opens the next), so the last state always reaches the browsers. A window that saw
// nothing closes and leaves nothing behind.
import type { StreamSummary } from "../../lib/dashboard-api";
import type { Db } from "../store/db";
import { loadSummary } from "./stream-window";

export const SUMMARY_EVERY_MS = 250;

interface Deps {
  db: Db;
  publishSummary: (s: StreamSummary) => void;
}

interface Window {
  timer: NodeJS.Timeout;
  /** a callback came inside the window: its end publishes */
  dirty: boolean;
}

/** Open windows per publisher (one per dashboard), per stream. */
const windows = new WeakMap<Deps["publishSummary"], Map<string, Window>>();

async function publishNow(d: Deps, requestId: string): Promise<void> {
  const fresh = await loadSummary(d.db, requestId, new Date());
  if (fresh) d.publishSummary(fresh);
}

function open(d: Deps, byStream: Map<string, Window>, requestId: string): void {
  const w: Window = {
    dirty: false,
    timer: setTimeout(() => {
      byStream.delete(requestId);
      if (!w.dirty) return;
      open(d, byStream, requestId);
      void publishNow(d, requestId).catch(() => undefined);
    }, SUMMARY_EVERY_MS),
  };
  w.timer.unref?.();
  byStream.set(requestId, w);
}

/** `final` (the stream ended): published at once, and any open window is closed. */
export async function publishSummarySoon(d: Deps, requestId: string, o: { final?: boolean } = {}): Promise<void> {
  let byStream = windows.get(d.publishSummary);
  if (!byStream) windows.set(d.publishSummary, (byStream = new Map()));
  const w = byStream.get(requestId);
  if (o.final) {
    if (w) clearTimeout(w.timer);
    byStream.delete(requestId);
    return publishNow(d, requestId);
  }
  if (w) {
    w.dirty = true;
    return;
  }
  open(d, byStream, requestId);
  return publishNow(d, requestId);
}
