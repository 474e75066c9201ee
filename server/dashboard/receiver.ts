import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { RiskLevel } from "../../lib/dashboard-api";
import type { FileProgressEvent } from "../../lib/events";
import { VideoFileCallback } from "../../lib/contract/video";
import { describeZodError } from "../../lib/contract/errors";
import { unstorable } from "../../lib/contract/storable";
import { verifyWebhook, type HeaderSource } from "../callback/signature";
import type { Db } from "../store/db";
import { dashboardFiles, receivedCallbacks } from "../store/schema";
import { feedIncidents } from "../incidents/feed";

/** Raw body → JSON → contract schema; a 400 answer naming the problem otherwise. */
export function parseCallback(schema: z.ZodType, raw: string): { ok: true; json: unknown; data: unknown } | { ok: false; answer: ReceiverAnswer } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, answer: { status: 400, body: { ok: false, error: "malformed JSON" } } };
  }
  const unfit = unstorable(json); // e.g. a NUL character, which the store would refuse with an error
  if (unfit) return { ok: false, answer: { status: 400, body: { ok: false, error: unfit } } };
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, answer: { status: 400, body: { ok: false, error: describeZodError(parsed.error) } } };
  return { ok: true, json, data: parsed.data };
}

export interface ReceiverAnswer {
  status: number;
  body: { ok: boolean; error?: string; duplicate?: boolean };
}

/**
 * With a signing secret configured for the service (embedded: CALLBACK_SIGNING_SECRET / this key's entry in
 * CALLBACK_SIGNING_SECRETS; remote: SERVICE_SIGNING_SECRET) a callback must carry a valid, fresh Standard
 * Webhooks signature over the raw body: 401 otherwise. Without one, the per-task URL secret alone vouches.
 */
export function checkSignature(secret: string | null, raw: string, headers: HeaderSource): ReceiverAnswer | null {
  if (!secret) return null;
  const v = verifyWebhook(secret, headers, Buffer.from(raw, "utf8"));
  return v.ok ? null : { status: 401, body: { ok: false, error: `signature check failed: ${v.error}` } };
}

/**
 * The dashboard's receiver for video-file results. The signature (when configured) and the per-task secret
 * in the URL prove the sender; the body must match the contract; a repeated webhook-id is acknowledged once.
 */
export async function receiveFileCallback(deps: { db: Db; publish: (e: FileProgressEvent) => void; signingSecret: string | null }, tokenHash: string, raw: string, headers: HeaderSource): Promise<ReceiverAnswer> {
  const refused = checkSignature(deps.signingSecret, raw, headers);
  if (refused) return refused;
  const deliveryId = headers.get("webhook-id");
  const [file] = await deps.db.select().from(dashboardFiles).where(eq(dashboardFiles.receiverToken, tokenHash)).limit(1);
  if (!file) return { status: 404, body: { ok: false, error: "unknown receiver" } };
  const parsed = parseCallback(VideoFileCallback, raw);
  if (!parsed.ok) return parsed.answer;
  const json = parsed.json;
  const body = parsed.data as { requestId: string; code: number; riskLevel?: RiskLevel };
  if (body.requestId !== file.requestId) return { status: 400, body: { ok: false, error: "requestId does not match this receiver" } };
  if (deliveryId) {
    const [seen] = await deps.db.select({ id: receivedCallbacks.id }).from(receivedCallbacks).where(and(eq(receivedCallbacks.deliveryId, deliveryId), eq(receivedCallbacks.requestId, file.requestId))).limit(1);
    if (seen) return { status: 200, body: { ok: true, duplicate: true } };
  }
  const now = new Date();
  // the unique (request_id, delivery_id) index settles two copies arriving at once: the second is a duplicate
  const stored = await deps.db.insert(receivedCallbacks).values({ deliveryId, kind: "video", requestId: file.requestId, receivedAt: now, body: json as Record<string, unknown> }).onConflictDoNothing().returning({ id: receivedCallbacks.id });
  if (stored.length === 0) return { status: 200, body: { ok: true, duplicate: true } };
  const done = body.code === 1100;
  await deps.db
    .update(dashboardFiles)
    .set({ status: done ? "done" : "failed", code: body.code, riskLevel: body.riskLevel ?? null, callbackReceivedAt: now })
    .where(eq(dashboardFiles.requestId, file.requestId));
  if (done) await feedIncidents(deps.db, { kind: "file", requestId: file.requestId, body: json as Record<string, unknown> });
  deps.publish({ requestId: file.requestId, btId: file.btId, status: done ? "done" : "failed", framesDone: file.framesTotal, framesTotal: file.framesTotal, segmentsDone: 0, segmentsTotal: 0, riskLevel: body.riskLevel, code: body.code });
  return { status: 200, body: { ok: true } };
}
