import type http from "node:http";
import type { z } from "zod";
import { Code, codeMessage } from "../../lib/contract/codes";
import { metrics } from "../metrics";
import { describeZodError } from "../../lib/contract/errors";
import { VideoFileRequest, VideoQueryRequest } from "../../lib/contract/video";
import { VideoStreamCloseRequest, VideoStreamRequest } from "../../lib/contract/videostream";
import { AudioStreamCloseRequest, AudioStreamRequest } from "../../lib/contract/audiostream";
import { closeStream, submitStream } from "../task/stream-submit";
import type { StreamRequest } from "../task/stream-task";
import { buildOpenApi } from "../../lib/contract/openapi";
import type { Engine } from "../engine-api";
import { ApiError, invalid, noPermission } from "../task/errors";
import { newRequestId } from "../task/ids";
import { queryVideoFile, submitVideoFile, type VideoFileRequest as VideoFileTaskRequest } from "../task/video-file";
import { RateLimiter } from "../service/rate-limit";
import { BodyError, readJson, unstorable } from "./body";
import { clientIp } from "../service/client-ip";
import { addressGroup } from "../net/address-group";
import { DASHBOARD_PRINCIPAL } from "../service/principals";
import { plainHost } from "../net/host-header";
import { isUnavailable, UNAVAILABLE_RETRY_SEC } from "../store/unavailable";

type Verb<S extends z.ZodType> = (engine: Engine, input: z.output<S>, keyId: string, baseUrl: string) => Promise<object>;

interface Route<S extends z.ZodType = z.ZodType> {
  schema: S;
  verb: Verb<S>;
}

const route = <S extends z.ZodType>(schema: S, verb: Verb<S>): Route => ({ schema, verb: verb as Verb<z.ZodType> });

/** The six v4 endpoints; each answers HTTP 200 with a business code (docs/api.md §1.1). */
const ROUTES: Record<string, Route> = {
  "/video/v4": route(VideoFileRequest, (e, input, keyId, baseUrl) => submitVideoFile(e.ctx, input as unknown as VideoFileTaskRequest, keyId, baseUrl, (id) => e.files.enqueue(id), () => fileQueueFull(e))),
  "/video/query/v4": route(VideoQueryRequest, (e, input, keyId) => queryVideoFile(e.ctx, input as { btId: string }, keyId)),
  "/videostream/v4": route(VideoStreamRequest, (e, input, keyId, baseUrl) => submitStream(e.ctx, e.streams, "videostream", input as unknown as StreamTaskRequest, keyId, baseUrl)),
  "/finish_videostream/v4": route(VideoStreamCloseRequest, (e, input, keyId) => closeStream(e.ctx, e.streams, "videostream", input.requestId, keyId)),
  "/audiostream/v4": route(AudioStreamRequest, (e, input, keyId, baseUrl) => submitStream(e.ctx, e.streams, "audiostream", input as unknown as StreamTaskRequest, keyId, baseUrl)),
  "/finish_audiostream/v4": route(AudioStreamCloseRequest, (e, input, keyId) => closeStream(e.ctx, e.streams, "audiostream", input.requestId, keyId)),
};

type StreamTaskRequest = StreamRequest & { appId: string; eventId: string };

export const SERVICE_PATHS = ["/videostream/v4", "/finish_videostream/v4", "/audiostream/v4", "/finish_audiostream/v4", "/video/v4", "/video/query/v4"];

export function registerServiceRoute(path: string, r: Route): void {
  ROUTES[path] = r;
}
export { route };

function send(res: http.ServerResponse, status: number, body: unknown, extra: http.OutgoingHttpHeaders = {}, endpoint?: string) {
  if (endpoint) metrics().requests.inc({ endpoint, code: String((body as { code?: unknown }).code ?? "") });
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store", ...extra });
  res.end(text);
}

/** Per-engine limiters (docs/security.md "Limits"): requests per accessKey, failed accessKey checks per client address. */
const limiters = new WeakMap<Engine, { perKey: RateLimiter; authFails: RateLimiter }>();
function limitersOf(engine: Engine) {
  let l = limiters.get(engine);
  if (!l) {
    const c = engine.ctx.config.limits;
    l = { perKey: new RateLimiter(c.ratePerMinute, c.rateBurst), authFails: new RateLimiter(c.authFailPerMinute) };
    limiters.set(engine, l);
  }
  return l;
}

/** 1901 with the reason; `retry-after` (seconds) is a hint beyond the contract. */
const qpsLimit = (why: string, retryAfterSec: number) => Object.assign(new ApiError(Code.QPS_LIMIT, `${codeMessage(Code.QPS_LIMIT)}: ${why}; retry in ${retryAfterSec} s`), { retryAfterSec });

/** FILE_QUEUE_MAX: files accepted but not yet processing. */
async function fileQueueFull(e: Engine): Promise<string | null> {
  const max = e.ctx.config.limits.fileQueueMax;
  const refused = await e.files.refusal();
  if (refused) return refused;
  return max > 0 && e.files.waitingCount >= max ? `${e.files.waitingCount} files are already waiting to be processed (FILE_QUEUE_MAX ${max})` : null;
}

/** Handles the service's own paths; returns false for anything else (the dashboard's). */
export function handleService(engine: Engine, req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const url = new URL(req.url ?? "/", "http://x");
  const p = url.pathname;
  if (p.startsWith("/media/") && (req.method === "GET" || req.method === "HEAD")) {
    engine.ctx.media.serve(req, res);
    return true;
  }
  if (p === "/openapi.json" && req.method === "GET") {
    send(res, 200, buildOpenApi({ serverUrl: engine.ctx.config.publicBaseUrl }));
    return true;
  }
  if (p === "/capabilities/v4" && (req.method === "GET" || req.method === "POST")) {
    send(res, 200, { code: Code.SUCCESS, message: codeMessage(Code.SUCCESS), capabilities: engine.ctx.capabilities({ counts: false }) });
    return true;
  }
  if (!SERVICE_PATHS.includes(p)) return false;
  if (req.method !== "POST") {
    res.setHeader("allow", "POST");
    send(res, 405, { code: Code.INVALID_PARAMS, message: `${codeMessage(Code.INVALID_PARAMS)}: use POST`, requestId: newRequestId() }, {}, p);
    return true;
  }
  void answer(engine, ROUTES[p], req, res);
  return true;
}

async function answer(engine: Engine, r: Route | undefined, req: http.IncomingMessage, res: http.ServerResponse) {
  // a body left unread (too large, or refused before reading) ends the connection after the answer
  let unread = false;
  try {
    if (!r) throw new ApiError(Code.SERVICE_FAILURE, `${codeMessage(Code.SERVICE_FAILURE)}: this endpoint is not available in this build`);
    const { perKey, authFails } = limitersOf(engine);
    // an IPv6 client's whole /64 is one address here (one host usually holds all of it)
    const address = addressGroup(clientIp(req, engine.ctx.config.trustProxy));
    if (authFails.exhausted(address)) {
      unread = true;
      throw qpsLimit(`too many requests with an unknown accessKey from this address`, authFails.retryAfterSec(address));
    }
    // anything refused before its accessKey is known (unreadable, too large, too deep, malformed, keyless, unknown key)
    // spends its address's budget, never a real key's
    const unauthenticated = (err: ApiError): never => {
      if (!authFails.take(address)) throw qpsLimit(`too many requests with an unknown accessKey from this address`, authFails.retryAfterSec(address));
      throw err;
    };
    const raw = await readJson(req, engine.ctx.config.limits.bodyMaxBytes).catch((err) => {
      if (err instanceof BodyError) {
        unread = err.tooLarge;
        return unauthenticated(invalid(err.message));
      }
      throw err;
    });
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return unauthenticated(invalid("body must be a JSON object"));
    const key = (raw as { accessKey?: unknown }).accessKey;
    if (typeof key !== "string" || key === "") return unauthenticated(invalid("accessKey is required"));
    const keyId = engine.accessKeys.check(key);
    if (!keyId) return unauthenticated(noPermission());
    if (!perKey.take(keyId)) throw qpsLimit(`more than ${perKey.perMinute} requests a minute for this accessKey`, perKey.retryAfterSec(keyId));
    send(res, 200, await run(engine, r, raw, keyId, baseUrlOf(engine, req)), {}, endpointOf(req));
  } catch (err) {
    if (err instanceof ApiError) {
      const extra: http.OutgoingHttpHeaders = unread ? { connection: "close" } : {};
      const retry = (err as { retryAfterSec?: number }).retryAfterSec;
      if (retry) extra["retry-after"] = String(retry);
      return send(res, 200, { code: err.code, message: err.message, requestId: newRequestId() }, extra, endpointOf(req));
    }
    if (isUnavailable(err)) {
      engine.ctx.log(`service unavailable on ${req.url}: ${(err as Error).message}`);
      return send(res, 200, { code: Code.SERVICE_FAILURE, message: UNAVAILABLE_MESSAGE, requestId: newRequestId() }, { "retry-after": String(UNAVAILABLE_RETRY_SEC) }, endpointOf(req));
    }
    engine.ctx.log(`service error on ${req.url}: ${(err as Error).stack ?? err}`);
    send(res, 200, { code: Code.SERVICE_FAILURE, message: codeMessage(Code.SERVICE_FAILURE), requestId: newRequestId() }, {}, endpointOf(req));
  }
}

/** 1903 when the store or queue cannot be reached: nothing was accepted, the same request can be sent again. */
const UNAVAILABLE_MESSAGE = `${codeMessage(Code.SERVICE_FAILURE)}: the store or queue is temporarily unavailable (PostgreSQL/Redis unreachable); nothing was accepted, retry in ${UNAVAILABLE_RETRY_SEC} s`;

/** The v4 path a request was answered on (one of SERVICE_PATHS: the label set stays bounded). */
const endpointOf = (req: http.IncomingMessage) => new URL(req.url ?? "/", "http://x").pathname;

/** Contract validation, then the verb, for one principal (an accessKey's id, or the dashboard's). */
async function run(engine: Engine, r: Route, raw: object, keyId: string, baseUrl: string): Promise<object> {
  const refused = unstorable(raw);
  if (refused) throw invalid(refused);
  const parsed = r.schema.safeParse(raw);
  if (!parsed.success) throw invalid(describeZodError(parsed.error).replace(/^invalid parameter\s*/i, ""));
  return r.verb(engine, parsed.data, keyId, baseUrl);
}

/**
 * The embedded dashboard's calls: in process, as its own principal (DASHBOARD_PRINCIPAL), never over the
 * public port. No accessKey, no public rate budget; its tasks are invisible to every public accessKey.
 * Answers exactly what the HTTP endpoint would (business codes, never a throw).
 */
export async function callInProcess(engine: Engine, path: string, raw: unknown, baseUrl: string): Promise<object> {
  try {
    const r = SERVICE_PATHS.includes(path) ? ROUTES[path] : undefined;
    if (!r) throw invalid(`no such endpoint ${path}`);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw invalid("body must be a JSON object");
    // the contract requires an accessKey field: the principal's name stands in (it is never checked or stored)
    return await run(engine, r, { ...raw, accessKey: DASHBOARD_PRINCIPAL }, DASHBOARD_PRINCIPAL, baseUrl);
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, message: err.message, requestId: newRequestId() };
    if (isUnavailable(err)) return { code: Code.SERVICE_FAILURE, message: UNAVAILABLE_MESSAGE, requestId: newRequestId() };
    engine.ctx.log(`service error on ${path} (dashboard): ${(err as Error).stack ?? err}`);
    return { code: Code.SERVICE_FAILURE, message: codeMessage(Code.SERVICE_FAILURE), requestId: newRequestId() };
  }
}

/**
 * Base URL for links this server hands out (imgUrl, audioUrl): PUBLIC_BASE_URL, or the request's Host when it is
 * exactly host[:port] (the server refuses any other before this; a missing one is this server's loopback name).
 */
export function baseUrlOf(engine: Engine, req: http.IncomingMessage): string {
  if (engine.ctx.config.publicBaseUrl) return engine.ctx.config.publicBaseUrl;
  const given = req.headers.host;
  const host = given !== undefined && plainHost(given) ? given : `127.0.0.1:${engine.ctx.config.port}`;
  const proto = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  return `${proto}://${host}`;
}
