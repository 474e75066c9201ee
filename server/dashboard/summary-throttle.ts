// A stream's summary (wall card: counts, now, worst, the last-minute window) goes out at most every SUMMARY_EVERY_MS:
// at a high callback rate the window query would otherwise run for every callback and become the receiver's cost.
// The first callback after a quiet spell publishes at once; those that follow within the interval are covered by
// one trailing publish at its end, so the last state always reaches the browsers.
import type { StreamSummary } from "../../lib/dashboard-api";
import type { Db } from "../store/db";
import { loadSummary } from "./stream-window";

export const SUMMARY_EVERY_MS = 250;

interface Deps {
  db: Db;
  publishSummary: (s: StreamSummary) => void;
}

interface Pace {
  last: number;
  timer: NodeJS.Timeout | null;
}

/** Per publisher (one per dashboard), per stream. */
const paces = new WeakMap<Deps["publishSummary"], Map<string, Pace>>();

async function publishNow(d: Deps, requestId: string): Promise<void> {
  const fresh = await loadSummary(d.db, requestId, new Date());
  if (fresh) d.publishSummary(fresh);
}

/** `final` (the stream ended): published at once, and the stream's pacing is forgotten. */
export async function publishSummarySoon(d: Deps, requestId: string, o: { final?: boolean } = {}): Promise<void> {
  let byStream = paces.get(d.publishSummary);
  if (!byStream) paces.set(d.publishSummary, (byStream = new Map()));
  const pace = byStream.get(requestId) ?? { last: 0, timer: null };
  const since = Date.now() - pace.last;
  if (o.final) {
    if (pace.timer) clearTimeout(pace.timer);
    byStream.delete(requestId);
    return publishNow(d, requestId);
  }
  byStream.set(requestId, pace);
  if (pace.timer) return; // a trailing publish is due: it will carry this callback too
  if (since >= SUMMARY_EVERY_MS) {
    pace.last = Date.now();
    return publishNow(d, requestId);
  }
  pace.timer = setTimeout(() => {
    pace.timer = null;
    pace.last = Date.now();
    void publishNow(d, requestId).catch(() => undefined);
  }, SUMMARY_EVERY_MS - since);
  pace.timer.unref?.();
}
