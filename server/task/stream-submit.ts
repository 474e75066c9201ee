import { and, eq } from "drizzle-orm";
import { Code, codeMessage, DUPLICATE_STREAM_ERROR_CODE } from "../../lib/contract/codes";
import { MissingConnectorError, streamSourceFor } from "../ingest/stream-source";
import { tasks } from "../store/schema";
import type { EngineContext } from "./context";
import { invalid, tooMany } from "./errors";
import { newRequestId } from "./ids";
import { streamIdentity } from "./stream-identity";
import type { StreamRunner } from "./stream-runner";
import { initialStreamState, type StreamRequest } from "./stream-task";
import { requireOutboxRoom } from "./outbox-policy";
import { DASHBOARD_PRINCIPAL } from "../service/principals";
import { checkCallbackTarget, checkMediaSource, requireAllowed } from "./url-policy";
import { closeElsewhere, clusterFull, runningCount, runningDuplicate } from "../scale/stream-leases";
import { requireDiskRoom } from "../store/disk-guard";
import { splitSourceSecrets } from "./source-secrets";

type Product = "videostream" | "audiostream";

const STREAM_PROTOCOLS = ["rtmp:", "rtmps:", "http:", "https:"];

/** /videostream/v4 and /audiostream/v4: validate what the schema cannot, dedupe, limit, persist, start. */
export async function submitStream(ctx: EngineContext, runner: StreamRunner, product: Product, req: StreamRequest & { accessKey?: string; appId: string; eventId: string }, keyId: string, baseUrl: string) {
  const data = req.data;
  try {
    streamSourceFor(data, null);
  } catch (err) {
    if (err instanceof MissingConnectorError) throw invalid(err.message);
    throw err;
  }
  if (String(data.streamType ?? "NORMAL") === "NORMAL") await requireAllowed("data.url", () => checkMediaSource(ctx, String(data.url), STREAM_PROTOCOLS));
  if (data.streamType === "WEBRTC") await requireAllowed("data.url", () => checkMediaSource(ctx, String(data.url), ["http:", "https:"]));
  for (const field of ["imgCallback", "audioCallback", "callback"] as const) {
    const url = req[field];
    if (url) await requireAllowed(field, () => checkCallbackTarget(ctx, url));
  }

  const identity = streamIdentity(data);
  // scaled mode: the streams run on the workers, so the store (not this process) says what runs
  const scaled = ctx.config.scale.on;
  const dup = scaled ? await runningDuplicate(ctx, product, keyId, identity) : runner.findDuplicate(product, keyId, identity);
  if (dup) return { code: Code.SUCCESS, message: codeMessage(Code.SUCCESS), requestId: dup, detail: { errorCode: DUPLICATE_STREAM_ERROR_CODE, dupRequestId: dup } };
  const dashboard = keyId === DASHBOARD_PRINCIPAL;
  const max = dashboard ? ctx.config.dashboardMaxStreams : ctx.config.maxConcurrentStreams;
  if ((scaled ? await runningCount(ctx, keyId) : runner.countFor(keyId)) >= max) throw tooMany(product, dashboard ? `at most ${max} concurrent dashboard streams (DASHBOARD_MAX_STREAMS)` : `at most ${max} concurrent streams per accessKey`);
  if (scaled) {
    const full = await clusterFull(ctx);
    if (full) throw tooMany(product, `the service is at capacity: ${full}; try again later`);
  } else requireCapacity(ctx, runner, product);
  await requireOutboxRoom(ctx, keyId);
  await requireDiskRoom(ctx.config.dataDir);

  const now = new Date();
  const requestId = newRequestId();
  const { accessKey: _secret, ...unsecret } = req;
  // the WHEP bearer (data.headers) is kept apart: the stored request, echoed in requestParams, reads `Bearer ***`
  const { stored, secrets } = splitSourceSecrets(unsecret);
  const [row] = await ctx.store.db
    .insert(tasks)
    .values({
      requestId,
      kind: product,
      keyId,
      appId: req.appId,
      eventId: req.eventId,
      btId: data.btId ? String(data.btId) : null,
      status: "running",
      request: stored as Record<string, unknown>,
      secrets,
      progress: { framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0 },
      baseUrl,
      identity,
      state: initialStreamState(),
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + ctx.config.retentionHours * 3600_000),
    })
    .returning();
  // scaled mode: the least loaded worker with room claims it within a tick (server/scale/stream-leases.ts)
  if (!scaled) runner.start(row);
  return { code: Code.SUCCESS, message: codeMessage(Code.SUCCESS, "en", product), requestId };
}

/**
 * The service says when it is full rather than accept a stream it would leave unchecked or check late: past
 * STREAM_CAPACITY streams on this process, or while detection is behind (within STREAM_ADMISSION_WINDOW_SEC a running
 * stream had a frame or segment called back not checked for want of detector time, or checked more than
 * STREAM_ADMISSION_LAG_SEC after its capture), a new stream is refused with 1904 (video) / 1901 (audio) and the reason.
 */
function requireCapacity(ctx: EngineContext, runner: StreamRunner, product: Product): void {
  const cap = ctx.config.streamCapacity;
  if (cap > 0 && runner.active >= cap) throw tooMany(product, `the service is at capacity: it runs ${runner.active} streams, its limit (STREAM_CAPACITY ${cap}); try again later`);
  const windowSec = ctx.config.streamAdmissionWindowSec;
  const behind = windowSec > 0 ? runner.behind(windowSec * 1000) : 0;
  const lag = ctx.config.streamAdmissionLagSec;
  const late = lag > 0 ? `, or checked more than ${lag} s after capture,` : "";
  if (behind > 0) throw tooMany(product, `the service is at capacity: detection is behind on ${behind} of ${runner.active} running streams (frames called back not checked${late} in the last ${windowSec} s); try again later`);
}

/** /finish_videostream/v4 and /finish_audiostream/v4. */
export async function closeStream(ctx: EngineContext, runner: StreamRunner, product: Product, requestId: string, keyId: string) {
  const [row] = await ctx.store.db
    .select({ status: tasks.status })
    .from(tasks)
    .where(and(eq(tasks.requestId, requestId), eq(tasks.kind, product), eq(tasks.keyId, keyId)))
    .limit(1);
  if (!row) throw invalid(`requestId ${JSON.stringify(requestId)} is not a ${product} task of this accessKey`);
  // an already-ended task answers 1100 and sends no second stream-end (docs/api.md §2.2)
  // a running task this process does not run yet (Close right after a restart) is ended by the runner too, with its stream-end
  if (row.status === "running") await (ctx.config.scale.on && !runner.isRunning(requestId) ? closeElsewhere(ctx, runner, requestId) : runner.close(requestId));
  return { code: Code.SUCCESS, message: codeMessage(Code.SUCCESS, "en", product), requestId: newRequestId() };
}
