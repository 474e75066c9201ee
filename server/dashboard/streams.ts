import crypto from "node:crypto";
import { and, desc, eq, gt, lt } from "drizzle-orm";
import type { StreamDetail, StreamEvent, StreamStartInput, StreamSummary } from "../../lib/dashboard-api";
import type { HeaderSource } from "../callback/signature";
import { dashboardStreams, receivedCallbacks } from "../store/schema";
import { hashToken } from "./tokens";
import { receiveStreamCallback } from "./stream-receiver";
import { summariesOf } from "./stream-window";
import { toStreamRequest } from "./stream-request";
import { toSummary, type StartAnswer, type StreamRow, type StreamsDeps } from "./stream-row";

export { toSummary, type StartAnswer, type StreamRow, type StreamsDeps };

/** The dashboard's live part, server side: start/close through the v4 client, the wall, timelines. */
export function createStreamsDashboard(d: StreamsDeps) {
  const load = async (requestId: string) => (await d.db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, requestId)).limit(1))[0];
  return {
    async list(): Promise<StreamSummary[]> {
      const rows = await d.db.select().from(dashboardStreams).orderBy(desc(dashboardStreams.startedAt)).limit(200);
      return summariesOf(d.db, rows);
    },

    async start(input: StreamStartInput): Promise<StartAnswer> {
      const token = crypto.randomBytes(24).toString("base64url");
      const built = toStreamRequest(input, `${d.receiverOrigin}/api/receiver/stream/${token}`);
      if (!built.ok) return built;
      // the body was built from the form (toStreamRequest); the service validates it against the contract
      const call = input.kind === "video" ? () => d.client.videostream(built.body as never) : () => d.client.audiostream(built.body as never);
      const ack = await call().catch((err: Error) => ({ code: -1, message: err.message, requestId: "" }) as Record<string, unknown>);
      const detail = ack.detail as { errorCode?: number; errorcode?: number; dupRequestId?: string } | undefined;
      if (detail?.dupRequestId) return { ok: false, code: detail.errorCode ?? detail.errorcode ?? 1001, dupRequestId: detail.dupRequestId, error: "this stream is already being moderated" };
      if (ack.code !== 1100) return { ok: false, code: (ack.code as number) > 0 ? (ack.code as number) : undefined, error: String(ack.message) };
      const row = { requestId: String(ack.requestId), kind: input.kind, url: input.url.trim(), title: input.title?.trim() || null, serviceBaseUrl: d.serviceBaseUrl, receiverToken: hashToken(token), status: "running" as const, startedAt: new Date(), detectStep: input.kind === "video" && input.detectStep ? input.detectStep : null, tokenId: input.tokenId?.trim() || null };
      await d.db.insert(dashboardStreams).values(row);
      const saved = await load(row.requestId);
      if (saved) d.publishSummary(toSummary(saved));
      return { ok: true, requestId: row.requestId };
    },

    /**
     * The stream and a page of its events (oldest first): the newest `limit`, or with `before` the `limit` events
     * just older than that id (the timeline loads a long stream's history page by page), or with `after` only
     * events with a higher id (gap fill). `hasOlder`: events older than this page exist.
     */
    async detail(requestId: string, opts: { after?: number; before?: number; limit?: number } = {}): Promise<(StreamDetail & { hasOlder: boolean }) | null> {
      const row = await load(requestId);
      if (!row) return null;
      const limit = opts.limit ?? 500;
      const mine = eq(receivedCallbacks.requestId, requestId);
      const where = opts.after !== undefined ? and(mine, gt(receivedCallbacks.id, opts.after)) : opts.before !== undefined ? and(mine, lt(receivedCallbacks.id, opts.before)) : mine;
      const events = (await d.db.select().from(receivedCallbacks).where(where).orderBy(desc(receivedCallbacks.id)).limit(limit)).reverse();
      const oldest = events[0]?.id;
      const hasOlder = opts.after === undefined && oldest !== undefined && (await d.db.select({ id: receivedCallbacks.id }).from(receivedCallbacks).where(and(mine, lt(receivedCallbacks.id, oldest))).limit(1)).length > 0;
      // the embedded service stamps imgTime in this process's local time, at the offset of the stream's start (a
      // remote service's zone is unknown here: the timeline then places results by when they were received)
      const utcOffsetMin = d.embedded ? -row.startedAt.getTimezoneOffset() : undefined;
      return { stream: (await summariesOf(d.db, [row]))[0], hasOlder, utcOffsetMin, events: events.map((e) => ({ id: e.id, requestId, kind: e.kind as StreamEvent["kind"], receivedAt: e.receivedAt.toISOString(), body: e.body })) };
    },

    /** `by`: the signed-in user who closed it ("closed by <user>" becomes the end reason; a rule writes its own first). */
    async close(requestId: string, by?: string): Promise<{ ok: true } | { ok: false; error: string; code?: number }> {
      const row = await load(requestId);
      if (!row) return { ok: false, error: "unknown stream" };
      // an API stream belongs to its accessKey: the dashboard's principal may not close it (and the engine would say 1902)
      if (row.origin === "api") return { ok: false, error: `started through the public API by "${row.keyName}": only that accessKey can close it` };
      // written before the close, so the stream-end that follows keeps it (server/dashboard/callback-batch.ts)
      const byUser = by && row.status === "running" && !row.endReason ? `closed by ${by}`.slice(0, 300) : null;
      if (byUser) await d.db.update(dashboardStreams).set({ endReason: byUser }).where(eq(dashboardStreams.requestId, requestId));
      const ack = await (row.kind === "video" ? d.client.finishVideostream : d.client.finishAudiostream)(requestId).catch((err: Error) => ({ code: -1, message: err.message }) as Record<string, unknown>);
      if (ack.code !== 1100) {
        if (byUser) await d.db.update(dashboardStreams).set({ endReason: null }).where(and(eq(dashboardStreams.requestId, requestId), eq(dashboardStreams.status, "running")));
        return { ok: false, error: String(ack.message), code: (ack.code as number) > 0 ? (ack.code as number) : undefined };
      }
      const fresh = await load(requestId);
      if (fresh && fresh.status === "running") {
        // without returnFinishInfo no stream-end arrives: record the close ourselves
        // a rule's close wrote its own reason first (server/rules/actions.ts): kept
        await d.db.update(dashboardStreams).set({ status: "ended", endedAt: new Date(), endReason: fresh.endReason ?? "closed" }).where(eq(dashboardStreams.requestId, requestId));
        const ended = await load(requestId);
        if (ended) d.publishSummary(toSummary(ended));
      }
      return { ok: true };
    },

    receive: (token: string, raw: string, headers: HeaderSource) => receiveStreamCallback(d, hashToken(token), raw, headers),
  };
}
