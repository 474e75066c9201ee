import { eq } from "drizzle-orm";
import { VideoStreamCallback } from "../../lib/contract/videostream-callbacks";
import { AudioStreamCallback } from "../../lib/contract/audiostream-callbacks";
import type { StreamEvent } from "../../lib/dashboard-api";
import type { Db } from "../store/db";
import { dashboardStreams } from "../store/schema";
import { storeCallback } from "./callback-batch";
import type { HeaderSource } from "../callback/signature";
import { checkSignature, parseCallback, type ReceiverAnswer } from "./receiver";
import { feedIncidents } from "../incidents/feed";
import type { StreamRow, StreamsDeps } from "./stream-row";
import { publishSummarySoon } from "./summary-throttle";

/**
 * Receiver for live results: a valid signature when a secret is configured (checkSignature), the per-stream
 * secret in the URL, a body valid under the contract and belonging to that stream; stored once per
 * webhook-id, then fanned out to the stream's room.
 */
export async function receiveStreamCallback(d: Pick<StreamsDeps, "db" | "publishEvent" | "publishSummary" | "signingSecret">, tokenHash: string, raw: string, headers: HeaderSource): Promise<ReceiverAnswer> {
  const refused = checkSignature(d.signingSecret ?? null, raw, headers);
  if (refused) return refused;
  const stream = await streamOfToken(d.db, tokenHash);
  if (!stream) return { status: 404, body: { ok: false, error: "unknown receiver" } };
  const answer = await acceptStreamCallback(d, stream, raw, headers.get("webhook-id"));
  if (answer.status === 404) tokens.get(d.db)?.delete(tokenHash);
  return answer;
}

type StreamIdentity = Pick<StreamRow, "requestId" | "kind">;

/** A receiver token names one stream for good (set once at its start), so the lookup is remembered; a row removed since answers 404 from the store and is forgotten. */
const tokens = new WeakMap<Db, Map<string, StreamIdentity>>();
const TOKENS_KEPT = 5000;

async function streamOfToken(db: Db, tokenHash: string): Promise<StreamIdentity | null> {
  let known = tokens.get(db);
  if (!known) tokens.set(db, (known = new Map()));
  const hit = known.get(tokenHash);
  if (hit) return hit;
  const [row] = await db.select({ requestId: dashboardStreams.requestId, kind: dashboardStreams.kind }).from(dashboardStreams).where(eq(dashboardStreams.receiverToken, tokenHash)).limit(1);
  if (!row) return null;
  if (known.size >= TOKENS_KEPT) known.delete(known.keys().next().value!);
  known.set(tokenHash, row);
  return row;
}

/**
 * A callback of a known stream (the receiver above, or the mirror of an API stream: server/dashboard/api-tasks.ts):
 * validated under the contract, stored once per delivery id, counted, fanned out, fed to incidents.
 */
export async function acceptStreamCallback(d: Pick<StreamsDeps, "db" | "publishEvent" | "publishSummary">, stream: StreamIdentity, raw: string, deliveryId: string | null): Promise<ReceiverAnswer> {
  const parsed = parseCallback(stream.kind === "video" ? VideoStreamCallback : AudioStreamCallback, raw);
  if (!parsed.ok) return parsed.answer;
  const body = parsed.json as Record<string, unknown>;
  const rid = String(body.requestId ?? "");
  if (rid !== stream.requestId && !rid.startsWith(`${stream.requestId}_`)) return { status: 400, body: { ok: false, error: "requestId does not belong to this stream" } };

  const kind: StreamEvent["kind"] = body.statCode === 1 ? "end" : body.contentType === 1 ? "frame" : "audio";
  const now = new Date();
  const stored = await storeCallback(d.db, { requestId: stream.requestId, kind, body, deliveryId, receivedAt: now });
  if ("gone" in stored) return { status: 404, body: { ok: false, error: "unknown receiver" } };
  if ("duplicate" in stored) return { status: 200, body: { ok: true, duplicate: true } };
  d.publishEvent({ id: stored.id, requestId: stream.requestId, kind, receivedAt: now.toISOString(), body });
  await feedIncidents(d.db, { kind: "stream", requestId: stream.requestId, callbackId: stored.id, receivedAt: now, body });
  await publishSummarySoon(d, stream.requestId, { final: kind === "end" });
  return { status: 200, body: { ok: true } };
}

