// Typed client for any service that speaks the v4 contract (ours or the vendor's), usable outside the
// dashboard (docs/api.md "Typed client"). Browser-safe; the dashboard uses it server-side so the accessKey never
// reaches the browser. Receivers verify signed callbacks with lib/webhooks.ts.
import type { AudioStreamRequestInput, AudioStreamResponse } from "./contract/audiostream";
import type { VideoFileRequestInput, VideoFileResponse } from "./contract/video";
import type { VideoQueryResponse } from "./contract/video-result";
import type { CloseStreamResponse, VideoStreamRequestInput, VideoStreamResponse } from "./contract/videostream";

export { verifyWebhook, type WebhookHeaders } from "./webhooks";

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

/** A request body without the accessKey (the client adds it). */
type Body<T> = Omit<T, "accessKey">;

/**
 * One method per v4 endpoint; the accessKey is added to every body. Every answer is a business envelope
 * (HTTP 200; `code` 1100 success, 1101 still processing, 1901 limit, 1902 invalid, 1904 stream limit,
 * 1905 unmoderatable, 9101 unknown key — see docs/api.md §1.3); a transport failure throws ServiceUnreachableError.
 *
 * ```ts
 * const svc = createModerationClient({ baseUrl: "http://localhost:3000", accessKey: process.env.KEY! });
 * const ack = await svc.video({ appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "v1", url } });
 * const result = await svc.videoQuery("v1"); // code 1101 until done, then 1100 with frames
 * ```
 */
export function createModerationClient(o: ModerationClientOptions) {
  const f = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, "");
  async function call<T extends object = Envelope>(path: string, body: object, timeoutMs = o.timeoutMs ?? 7000): Promise<T & Envelope> {
    let res: Response;
    try {
      res = await f(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, accessKey: o.accessKey }),
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
    return json as T & Envelope;
  }
  return {
    baseUrl: base,
    /** POST /video/v4: submit a video file (result by callback and Query). */
    video: (body: Body<VideoFileRequestInput>) => call<VideoFileResponse>("/video/v4", body),
    /** POST /video/query/v4: 1101 while processing, then the result (1100) or its failure (1905, …). */
    videoQuery: (btId: string) => call<VideoQueryResponse>("/video/query/v4", { btId }),
    /** POST /videostream/v4: start moderating a live video stream. */
    videostream: (body: Body<VideoStreamRequestInput>) => call<VideoStreamResponse>("/videostream/v4", body),
    /** POST /finish_videostream/v4 */
    finishVideostream: (requestId: string) => call<CloseStreamResponse>("/finish_videostream/v4", { requestId }),
    /** POST /audiostream/v4: start moderating a live audio stream. */
    audiostream: (body: Body<AudioStreamRequestInput>) => call<AudioStreamResponse>("/audiostream/v4", body),
    /** POST /finish_audiostream/v4 */
    finishAudiostream: (requestId: string) => call<CloseStreamResponse>("/finish_audiostream/v4", { requestId }),
  };
}
