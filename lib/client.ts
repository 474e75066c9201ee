// Typed client for any service that speaks the v4 contract (ours or the vendor's).
// Browser-safe; the dashboard uses it server-side so the accessKey never reaches the browser.

export interface ModerationClientOptions {
  baseUrl: string;
  accessKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface Envelope {
  code: number;
  message: string;
  requestId: string;
  [k: string]: unknown;
}

export class ServiceUnreachableError extends Error {}

export type ModerationClient = ReturnType<typeof createModerationClient>;

/** One method per v4 endpoint; the accessKey is added to every body. */
export function createModerationClient(o: ModerationClientOptions) {
  const f = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, "");
  async function call(path: string, body: Record<string, unknown>, timeoutMs = o.timeoutMs ?? 7000): Promise<Envelope> {
    let res: Response;
    try {
      res = await f(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ accessKey: o.accessKey, ...body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new ServiceUnreachableError(`${base}${path}: ${(err as Error).message}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ServiceUnreachableError(`${base}${path}: HTTP ${res.status}, not JSON`);
    }
    if (typeof json !== "object" || json === null || typeof (json as Envelope).code !== "number") throw new ServiceUnreachableError(`${base}${path}: HTTP ${res.status}, no business code`);
    return json as Envelope;
  }
  return {
    baseUrl: base,
    video: (body: Record<string, unknown>) => call("/video/v4", body),
    videoQuery: (btId: string) => call("/video/query/v4", { btId }),
    videostream: (body: Record<string, unknown>) => call("/videostream/v4", body),
    finishVideostream: (requestId: string) => call("/finish_videostream/v4", { requestId }),
    audiostream: (body: Record<string, unknown>) => call("/audiostream/v4", body),
    finishAudiostream: (requestId: string) => call("/finish_audiostream/v4", { requestId }),
  };
}
