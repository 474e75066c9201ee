import { and, desc, eq } from "drizzle-orm";
import { Code, codeMessage } from "../../lib/contract/codes";
import { tasks, type TaskRow } from "../store/schema";
import type { EngineContext } from "./context";
import { ApiError, invalid } from "./errors";
import { newRequestId } from "./ids";
import { requireOutboxRoom } from "./outbox-policy";
import { checkCallbackTarget, checkMediaSource, requireAllowed } from "./url-policy";
import { requireDiskRoom } from "../store/disk-guard";

/** The normalised /video/v4 request fields the pipeline reads (the zod contract guarantees them). */
export interface VideoFileRequest {
  accessKey: string;
  appId: string;
  eventId: string;
  imgType?: string;
  imgBusinessType?: string;
  audioType?: string;
  audioBusinessType?: string;
  callback?: string;
  acceptLang?: "zh" | "en";
  data: {
    btId: string;
    tokenId?: string;
    url: string;
    screenshotType?: 0 | 1 | 2 | 3;
    detectFrequency?: number;
    advancedFrequency?: { durationPoints: number[]; frequencies: number[] };
    checkFrameCount?: number;
    audioDetectStep?: number;
    returnAllImg?: number;
    returnAllAudio?: number;
    extra?: { passThrough?: Record<string, unknown> };
    [k: string]: unknown;
  };
}

export interface VideoFileAck {
  code: number;
  message: string;
  requestId: string;
  btId: string;
  detail?: { errorCode: number; dupRequestId: string };
}

/** Accepts a file for moderation: persists the task first, then the runner picks it up. */
export async function submitVideoFile(ctx: EngineContext, req: VideoFileRequest, keyId: string, baseUrl: string, onQueued: (requestId: string) => void | Promise<void>, queueFull: () => string | null | Promise<string | null> = () => null): Promise<VideoFileAck> {
  await requireAllowed("data.url", () => checkMediaSource(ctx, req.data.url, ["http:", "https:"]));
  if (req.callback) await requireAllowed("callback", () => checkCallbackTarget(ctx, req.callback!));

  const running = await findByBtId(ctx, keyId, req.data.btId);
  if (running && (running.status === "queued" || running.status === "processing")) {
    // Decision (docs/api.md "Decisions where the vendor is silent"): a btId still in progress is not started twice.
    return { code: Code.SUCCESS, message: codeMessage(Code.SUCCESS), requestId: running.requestId, btId: req.data.btId, detail: { errorCode: 1001, dupRequestId: running.requestId } };
  }
  const full = await queueFull();
  if (full) throw new ApiError(Code.QPS_LIMIT, `${codeMessage(Code.QPS_LIMIT)}: ${full}`);
  await requireOutboxRoom(ctx, keyId);
  await requireDiskRoom(ctx.config.dataDir);
  const now = new Date();
  const requestId = newRequestId();
  const { accessKey: _secret, ...stored } = req;
  await ctx.store.db.insert(tasks).values({
    requestId,
    kind: "video",
    keyId,
    appId: req.appId,
    eventId: req.eventId,
    btId: req.data.btId,
    status: "queued",
    request: stored as Record<string, unknown>,
    progress: { framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0 },
    baseUrl,
    createdAt: now,
    updatedAt: now,
    expiresAt: new Date(now.getTime() + ctx.config.retentionHours * 3600_000),
  });
  await onQueued(requestId);
  return { code: Code.SUCCESS, message: codeMessage(Code.SUCCESS), requestId, btId: req.data.btId };
}

async function findByBtId(ctx: EngineContext, keyId: string, btId: string): Promise<TaskRow | undefined> {
  const [row] = await ctx.store.db
    .select()
    .from(tasks)
    .where(and(eq(tasks.kind, "video"), eq(tasks.keyId, keyId), eq(tasks.btId, btId)))
    .orderBy(desc(tasks.createdAt))
    .limit(1);
  return row;
}

/** /video/query/v4: 1101 while processing, the stored result (without passThrough) when done. */
export async function queryVideoFile(ctx: EngineContext, req: { btId: string }, keyId: string): Promise<Record<string, unknown>> {
  const task = await findByBtId(ctx, keyId, req.btId);
  if (!task || task.expiresAt.getTime() < Date.now()) throw invalid(`btId ${JSON.stringify(req.btId)} not found (unknown, or older than the ${ctx.config.retentionHours} h retention)`);
  if (!task.result) return { code: Code.PROCESSING, message: codeMessage(Code.PROCESSING), requestId: task.requestId, btId: req.btId };
  return withoutPassThrough(task.result);
}

export function withoutPassThrough(result: Record<string, unknown>): Record<string, unknown> {
  const aux = result.auxInfo as Record<string, unknown> | undefined;
  if (!aux || !("passThrough" in aux)) return result;
  const { passThrough: _p, ...rest } = aux;
  return { ...result, auxInfo: rest };
}
