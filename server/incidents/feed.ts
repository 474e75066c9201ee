import type { Db } from "../store/db";

/**
 * The hook the dashboard's receivers call for every callback they accepted. The custom server registers the
 * incidents module of its store here (server/app.ts); with none registered (no dashboard) it does nothing.
 * Keyed by the store, so several apps in one process (tests) each feed their own.
 */
export type IncidentFeedInput =
  | { kind: "stream"; requestId: string; callbackId?: number; receivedAt: Date; body: Record<string, unknown> }
  | { kind: "file"; requestId: string; body: Record<string, unknown> };
export type IncidentFeed = (input: IncidentFeedInput) => Promise<void>;

const KEY = Symbol.for("moderation-platform.incident-feeds");
type Holder = { [KEY]?: WeakMap<object, IncidentFeed> };

function feeds(): WeakMap<object, IncidentFeed> {
  const g = globalThis as Holder;
  g[KEY] ??= new WeakMap();
  return g[KEY];
}

export function registerIncidentFeed(db: Db, feed: IncidentFeed): void {
  feeds().set(db, feed);
}

/** Never throws: an incident problem must not turn an accepted callback into an error. */
export function feedIncidents(db: Db, input: IncidentFeedInput): Promise<void> {
  return feeds().get(db)?.(input) ?? Promise.resolve();
}
