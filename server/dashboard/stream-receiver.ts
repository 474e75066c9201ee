import { eq, sql } from "drizzle-orm";
import { VideoStreamCallback } from "../../lib/contract/videostream-callbacks";
import { AudioStreamCallback } from "../../lib/contract/audiostream-callbacks";
import type { StreamEvent } from "../../lib/dashboard-api";
import { worstRiskLevel, type RiskLevel } from "../../lib/contract/taxonomy";
import { nextRisk, resultFact } from "../../lib/stream-state";
import { dashboardStreams, receivedCallbacks } from "../store/schema";
import type { HeaderSource } from "../callback/signature";
import { checkSignature, parseCallback, type ReceiverAnswer } from "./receiver";
import { feedIncidents } from "../incidents/feed";
import type { StreamRow, StreamsDeps } from "./streams";
import { publishSummarySoon } from "./summary-throttle";

/**
 * Receiver for live results: a valid signature when a secret is configured (checkSignature), the per-stream
 * secret in the URL, a body valid under the contract and belonging to that stream; stored once per
 * webhook-id, then fanned out to the stream's room.
 */
export async function receiveStreamCallback(d: Pick<StreamsDeps, "db" | "publishEvent" | "publishSummary" | "signingSecret">, tokenHash: string, raw: string, headers: HeaderSource): Promise<ReceiverAnswer> {
  const refused = checkSignature(d.signingSecret ?? null, raw, headers);
  if (refused) return refused;
  const [stream] = await d.db.select().from(dashboardStreams).where(eq(dashboardStreams.receiverToken, tokenHash)).limit(1);
  if (!stream) return { status: 404, body: { ok: false, error: "unknown receiver" } };
  return acceptStreamCallback(d, stream, raw, headers.get("webhook-id"));
}

/**
 * A callback of a known stream (the receiver above, or the mirror of an API stream: server/dashboard/api-tasks.ts):
 * validated under the contract, stored once per delivery id, counted, fanned out, fed to incidents.
 */
export async function acceptStreamCallback(d: Pick<StreamsDeps, "db" | "publishEvent" | "publishSummary">, stream: StreamRow, raw: string, deliveryId: string | null): Promise<ReceiverAnswer> {
  const parsed = parseCallback(stream.kind === "video" ? VideoStreamCallback : AudioStreamCallback, raw);
  if (!parsed.ok) return parsed.answer;
  const body = parsed.json as Record<string, unknown>;
  const rid = String(body.requestId ?? "");
  if (rid !== stream.requestId && !rid.startsWith(`${stream.requestId}_`)) return { status: 400, body: { ok: false, error: "requestId does not belong to this stream" } };

  const kind: StreamEvent["kind"] = body.statCode === 1 ? "end" : body.contentType === 1 ? "frame" : "audio";
  const now = new Date();
  // the unique (request_id, delivery_id) index settles a delivery seen before, or two copies arriving at once
  const [saved] = await d.db.insert(receivedCallbacks).values({ deliveryId, kind, requestId: stream.requestId, receivedAt: now, body }).onConflictDoNothing().returning({ id: receivedCallbacks.id });
  if (!saved) return { status: 200, body: { ok: true, duplicate: true } };

  const detail = (body.frameDetail ?? body.audioDetail) as { riskLevel?: string; imgUrl?: unknown } | undefined;
  const frameUrl = kind === "frame" && typeof detail?.imgUrl === "string" && detail.imgUrl !== "" ? detail.imgUrl : null;
  if (kind === "end") {
    const aux = (body.auxInfo ?? {}) as { errorCode?: number };
    await d.db
      .update(dashboardStreams)
      .set({ status: "ended", endedAt: stream.endedAt ?? now, endErrorCode: aux.errorCode ?? stream.endErrorCode, endReason: aux.errorCode ? "pull failed" : (stream.endReason ?? "ended"), ...(typeof body.riskLevel === "string" ? { worstRisk: maxRisk(stream.worstRisk, body.riskLevel) } : {}) })
      .where(eq(dashboardStreams.requestId, stream.requestId));
  } else if (detail?.riskLevel) {
    // a frame the detectors skipped (detectType 2) is counted apart and moves neither "now" nor worst
    const fact = resultFact(kind, body);
    const risk = nextRisk({ currentRisk: stream.currentRisk as RiskLevel | null, worstRisk: stream.worstRisk as RiskLevel | null }, fact);
    const unchecked = fact.kind === "frame" && !fact.checked;
    await d.db
      .update(dashboardStreams)
      .set({
        ...(unchecked ? {} : { currentRisk: risk.currentRisk, worstRisk: risk.worstRisk }),
        lastResultAt: now,
        ...(frameUrl ? { lastFrameUrl: frameUrl } : {}),
        ...(kind === "frame" ? { frames: sql`${dashboardStreams.frames} + 1` } : { segments: sql`${dashboardStreams.segments} + 1` }),
        ...(kind !== "frame" ? {} : unchecked ? { framesNotChecked: sql`${dashboardStreams.framesNotChecked} + 1` } : { framesChecked: sql`${dashboardStreams.framesChecked} + 1` }),
      })
      .where(eq(dashboardStreams.requestId, stream.requestId));
  }
  d.publishEvent({ id: saved.id, requestId: stream.requestId, kind, receivedAt: now.toISOString(), body });
  await feedIncidents(d.db, { kind: "stream", requestId: stream.requestId, callbackId: saved.id, receivedAt: now, body });
  await publishSummarySoon(d, stream.requestId, { final: kind === "end" });
  return { status: 200, body: { ok: true } };
}

const maxRisk = (a: string | null, b: string) => (a ? worstRiskLevel(a as RiskLevel, b as RiskLevel) : b);
