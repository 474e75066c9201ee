import type { ApiError } from "@/lib/dashboard-api";
import { CSRF_COOKIE, CSRF_HEADER } from "@/lib/roles";

/** A failed dashboard API call, carrying the ApiError body's message and optional service code. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isApiError(body: unknown): body is ApiError {
  return typeof body === "object" && body !== null && typeof (body as ApiError).error === "string";
}

function toError(res: Response, body: unknown): ApiRequestError {
  if (isApiError(body)) return new ApiRequestError(body.error, res.status, body.code);
  const detail = typeof body === "string" && body.length < 200 ? `: ${body}` : "";
  return new ApiRequestError(`HTTP ${res.status}${detail}`, res.status);
}


function csrfHeader(): Record<string, string> {
  if (typeof document === "undefined") return {};
  const m = document.cookie.match(new RegExp(`(?:^|;\\s*)${CSRF_COOKIE}=([^;]+)`));
  return m ? { [CSRF_HEADER]: decodeURIComponent(m[1]) } : {};
}

/**
 * Every dashboard request goes through here (or apiJson/apiForm): it adds the CSRF header to
 * state-changing methods, so no component builds its own fetch.
 */
export function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  const headers = new Headers(init.headers);
  if (method !== "GET" && method !== "HEAD") for (const [k, v] of Object.entries(csrfHeader())) headers.set(k, v);
  return fetch(path, { cache: "no-store", ...init, method, headers });
}

/** GET/POST JSON against the dashboard's own API; non-2xx or an ApiError body throws ApiRequestError. */
export async function apiJson<T>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<T> {
  const res = await apiFetch(path, {
    method: init?.method ?? "GET",
    headers: init?.body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init?.signal,
  });
  const body = await readBody(res);
  if (!res.ok || isApiError(body)) throw toError(res, body);
  return body as T;
}

/** POST a multipart form (uploads); same error handling as apiJson. */
export async function apiForm<T>(path: string, form: FormData, method = "POST"): Promise<T> {
  const res = await apiFetch(path, { method, body: form, headers: { accept: "application/json" } });
  const body = await readBody(res);
  if (!res.ok || isApiError(body)) throw toError(res, body);
  return body as T;
}

/**
 * GET a body that carries its own business `code` (the v4 query envelope): returned whatever the
 * HTTP status, as long as it has a numeric code; anything else throws.
 */
export async function apiEnvelope<T extends { code: number }>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { headers: { accept: "application/json" }, signal, cache: "no-store" });
  const body = await readBody(res);
  if (isApiError(body)) throw toError(res, body);
  if (typeof body === "object" && body !== null && typeof (body as { code?: unknown }).code === "number") {
    return body as T;
  }
  throw toError(res, body);
}
