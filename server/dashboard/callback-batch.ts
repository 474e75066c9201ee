// Group commit for live callbacks. Every store call costs about the same whatever it carries (PGlite: a few ms each,
// rows or not; PostgreSQL: a round trip), so the callbacks that arrive while a batch is being written are written
// together by the next one: one transaction holding the streams' rows, one multi-row insert (the unique
// (request_id, delivery_id) index settles repeats, within the batch too) and one update per stream. Alone, a
// callback is a batch of one and waits for nothing; under load the cost per callback falls with the batch size.
// A callback is answered only once its batch committed, so an answered callback is always stored.
import { eq, inArray, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { worstRiskLevel, type RiskLevel } from "../../lib/contract/taxonomy";
import type { StreamEvent } from "../../lib/dashboard-api";
import { nextRisk, resultFact } from "../../lib/stream-state";
import type { Db } from "../store/db";
import { dashboardStreams, receivedCallbacks } from "../store/schema";
import type { StreamRow } from "./stream-row";

export interface AcceptedCallback {
  requestId: string;
  kind: StreamEvent["kind"];
  body: Record<string, unknown>;
  deliveryId: string | null;
  receivedAt: Date;
}

/** stored: its row id; duplicate: a delivery seen before; gone: the stream's row no longer exists. */
export type Stored = { id: number } | { duplicate: true } | { gone: true };

/** Enough for hundreds of callbacks/s without one transaction growing without bound. */
const MAX_BATCH = 200;

interface Pending {
  item: AcceptedCallback;
  resolve: (s: Stored) => void;
  reject: (e: unknown) => void;
}

class CallbackBatcher {
  private queue: Pending[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  store(item: AcceptedCallback): Promise<Stored> {
    return new Promise<Stored>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // callbacks that arrived in the same turn of the event loop join this first batch
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const out = await writeBatch(this.db, batch.map((p) => p.item));
        batch.forEach((p, i) => p.resolve(out[i]));
      } catch (e) {
        batch.forEach((p) => p.reject(e));
      }
    }
    this.writing = false;
  }
}

const batchers = new WeakMap<Db, CallbackBatcher>();

/** Stores one accepted callback with the others of its batch; resolves once they are committed. */
export function storeCallback(db: Db, item: AcceptedCallback): Promise<Stored> {
  let b = batchers.get(db);
  if (!b) batchers.set(db, (b = new CallbackBatcher(db)));
  return b.store(item);
}

async function writeBatch(db: Db, items: readonly AcceptedCallback[]): Promise<Stored[]> {
  return db.transaction(async (tx) => {
    const ids = [...new Set(items.map((i) => i.requestId))];
    const streams = new Map((await tx.select().from(dashboardStreams).where(inArray(dashboardStreams.requestId, ids))).map((s) => [s.requestId, s]));
    const live = items.filter((i) => streams.has(i.requestId));
    const rows = live.length === 0 ? [] : await tx
      .insert(receivedCallbacks)
      .values(live.map((i) => ({ deliveryId: i.deliveryId, kind: i.kind, requestId: i.requestId, receivedAt: i.receivedAt, body: i.body })))
      .onConflictDoNothing()
      .returning({ id: receivedCallbacks.id, requestId: receivedCallbacks.requestId, deliveryId: receivedCallbacks.deliveryId });
    // ids follow the order of the values; a row skipped as a repeat is simply absent
    rows.sort((a, b) => a.id - b.id);
    let next = 0;
    const out: Stored[] = items.map((i) => {
      if (!streams.has(i.requestId)) return { gone: true };
      const r = rows[next];
      if (r && r.requestId === i.requestId && r.deliveryId === i.deliveryId) {
        next++;
        return { id: r.id };
      }
      return { duplicate: true };
    });
    for (const [requestId, stream] of streams) {
      const saved = items.filter((i, k) => i.requestId === requestId && "id" in out[k]);
      const set = streamUpdate(stream, saved);
      if (set) await tx.update(dashboardStreams).set(set).where(eq(dashboardStreams.requestId, requestId));
    }
    return out;
  });
}

type StreamSet = PgUpdateSetSource<typeof dashboardStreams>;

/** A stream-end saying nothing was checked when no checked result reached us: none pulled, or all were to be sent. */
function nothingChecked(end: Record<string, unknown>): boolean {
  if (end.pullStreamSuccess === false) return true;
  const detail = end.detail as { requestParams?: Record<string, unknown> } | undefined;
  const params = (detail?.requestParams ?? end.requestParams) as Record<string, unknown> | undefined;
  return end.contentType === 1 ? params?.returnAllImg === 1 : params?.returnAllText === 1;
}

/** The stream row after `saved` (in order): counts as increments, so writers elsewhere (other nodes) add up. */
export function streamUpdate(stream: StreamRow, saved: readonly AcceptedCallback[]): StreamSet | null {
  if (saved.length === 0) return null;
  const s = { ...stream };
  const n = { frames: 0, segments: 0, framesChecked: 0, framesNotChecked: 0 };
  let results = false;
  let ended = false;
  for (const c of saved) {
    const detail = (c.body.frameDetail ?? c.body.audioDetail) as { riskLevel?: string; imgUrl?: unknown } | undefined;
    if (c.kind === "end") {
      const aux = (c.body.auxInfo ?? {}) as { errorCode?: number };
      ended = true;
      s.status = "ended";
      s.endedAt = s.endedAt ?? c.receivedAt;
      s.endErrorCode = aux.errorCode ?? s.endErrorCode;
      s.endReason = aux.errorCode ? "pull failed" : (s.endReason ?? "ended");
      // the stream-end's verdict is the worst over what was checked: a PASS never stands for a stream of which
      // nothing was checked (no frame pulled; or every result was to be called back and none checked came), its
      // worst stays "no results"; with returnAllImg / returnAllText off, checked PASS results are never sent, so
      // the stream-end's PASS is the only word on them and stands
      if (typeof c.body.riskLevel === "string" && (s.worstRisk || c.body.riskLevel !== "PASS" || !nothingChecked(c.body))) s.worstRisk = s.worstRisk ? worstRiskLevel(s.worstRisk as RiskLevel, c.body.riskLevel as RiskLevel) : c.body.riskLevel;
      continue;
    }
    if (!detail?.riskLevel) continue;
    // a frame or segment the detectors did not check (detectType 2) moves neither "now" nor worst
    const fact = resultFact(c.kind, c.body);
    const unchecked = !fact.checked;
    if (!unchecked) {
      const risk = nextRisk({ currentRisk: s.currentRisk as RiskLevel | null, worstRisk: s.worstRisk as RiskLevel | null }, fact);
      s.currentRisk = risk.currentRisk;
      s.worstRisk = risk.worstRisk;
    }
    results = true;
    s.lastResultAt = c.receivedAt;
    if (c.kind === "frame" && typeof detail.imgUrl === "string" && detail.imgUrl !== "") s.lastFrameUrl = detail.imgUrl;
    if (c.kind === "frame") {
      n.frames++;
      if (unchecked) n.framesNotChecked++;
      else n.framesChecked++;
    } else n.segments++;
  }
  if (!results && !ended) return null;
  const add = (col: (typeof dashboardStreams)[keyof typeof n], k: keyof typeof n) => (n[k] ? { [k]: sql`${col} + ${n[k]}` } : {});
  return {
    ...(results ? { currentRisk: s.currentRisk, lastResultAt: s.lastResultAt, lastFrameUrl: s.lastFrameUrl } : {}),
    ...(ended ? { status: s.status, endedAt: s.endedAt, endErrorCode: s.endErrorCode, endReason: s.endReason } : {}),
    worstRisk: s.worstRisk,
    ...add(dashboardStreams.frames, "frames"),
    ...add(dashboardStreams.segments, "segments"),
    ...add(dashboardStreams.framesChecked, "framesChecked"),
    ...add(dashboardStreams.framesNotChecked, "framesNotChecked"),
  };
}
