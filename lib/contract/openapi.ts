// OpenAPI 3.1 document generated from the zod contract (zod 4 native JSON Schema, draft 2020-12).
//
// The zod schemas describe the vendor contract and are what requests and received callbacks are parsed with;
// this file only documents. What our server sends beyond the vendor contract (notAppliedTypes, imgText on
// stream frames, vadCode on file audio, hash-bank / gallery / known-audio matches, …) is added to the
// generated JSON Schema (openapi-extensions.ts), each field described as an extension (and named in
// `x-extension-fields`), so the document describes every field the server may send without changing what the
// contract schemas accept. Cross-field rules the zod refinements enforce (which JSON Schema cannot see) are added
// (openapi-rules.ts) as JSON Schema keywords where they can be stated exactly, and as text otherwise.
// openapi-schema.ts puts both into the generated JSON Schema.
import { z } from "zod";
import { AudioStreamCallback } from "./audiostream-callbacks";
import { AudioStreamCloseRequest, AudioStreamCloseResponse, AudioStreamRequest, AudioStreamResponse } from "./audiostream";
import { extensionFieldNames, jsonSchemaOf } from "./openapi-schema";
import { VideoFileRequest, VideoFileResponse, VideoQueryRequest } from "./video";
import { VideoFileResult, VideoQueryResponse } from "./video-result";
import { VideoStreamAudioCallback, VideoStreamImgCallback } from "./videostream-callbacks";
import { VideoStreamCloseRequest, VideoStreamCloseResponse, VideoStreamRequest, VideoStreamResponse } from "./videostream";

export { jsonSchemaOf } from "./openapi-schema";

export interface Endpoint {
  path: string;
  operationId: string;
  summary: string;
  request: z.ZodType;
  response: z.ZodType;
}

/** The six POST endpoints with their request and 200-answer schemas. */
export const ENDPOINTS: readonly Endpoint[] = [
  { path: "/videostream/v4", operationId: "openVideoStream", summary: "Open a video stream task", request: VideoStreamRequest, response: VideoStreamResponse },
  { path: "/finish_videostream/v4", operationId: "closeVideoStream", summary: "Close a video stream task", request: VideoStreamCloseRequest, response: VideoStreamCloseResponse },
  { path: "/audiostream/v4", operationId: "openAudioStream", summary: "Open an audio stream task", request: AudioStreamRequest, response: AudioStreamResponse },
  { path: "/finish_audiostream/v4", operationId: "closeAudioStream", summary: "Close an audio stream task", request: AudioStreamCloseRequest, response: AudioStreamCloseResponse },
  { path: "/video/v4", operationId: "submitVideo", summary: "Submit a video file", request: VideoFileRequest, response: VideoFileResponse },
  { path: "/video/query/v4", operationId: "queryVideo", summary: "Poll a video file result", request: VideoQueryRequest, response: VideoQueryResponse },
];

/** Bodies our service POSTs to client URLs. */
export const WEBHOOKS: Readonly<Record<string, { summary: string; schema: z.ZodType }>> = {
  videoStreamImgCallback: { summary: "Video stream frame results and image stream-end → imgCallback", schema: VideoStreamImgCallback },
  videoStreamAudioCallback: { summary: "Video stream audio segments and audio stream-end → audioCallback", schema: VideoStreamAudioCallback },
  audioStreamCallback: { summary: "Audio stream segments and stream-end → callback", schema: AudioStreamCallback },
  videoFileCallback: { summary: "Video file result → callback (same body as a 1100 query answer)", schema: VideoFileResult },
};

// ---------- the document ----------

const json = (schema: Record<string, unknown>) => ({ "application/json": { schema } });

/**
 * Request bodies: the service parses the body as JSON whatever the Content-Type. The vendor's PHP demo sends its JSON
 * as `application/x-www-form-urlencoded`, other demos as `text/plain` or with no Content-Type at all (the Lua demo):
 * listed so a gateway validating against this document lets real vendor clients through.
 */
const AS_JSON_TEXT = "The same JSON document as `application/json` (the body is parsed as JSON whatever the Content-Type; the vendor's PHP demo sends this content type). A request without any Content-Type is accepted the same way.";
const requestContent = (schema: Record<string, unknown>) => ({
  ...json(schema),
  "application/x-www-form-urlencoded": { schema: { description: AS_JSON_TEXT } },
  "text/plain": { schema: { description: AS_JSON_TEXT } },
});

/** The headers every callback carries (server/callback/dispatcher.ts, signer.ts). */
const WEBHOOK_HEADERS = [
  { name: "webhook-id", in: "header", required: true, description: "Delivery id (`msg_…`), the same on every retry of one callback: deduplicate on it. Standard Webhooks header, beyond the vendor contract.", schema: { type: "string" }, "x-extension": true },
  { name: "webhook-timestamp", in: "header", required: true, description: "Unix time in seconds of this attempt; reject signatures older than a few minutes. Standard Webhooks header, beyond the vendor contract.", schema: { type: "string", pattern: "^[0-9]+$" }, "x-extension": true },
  { name: "webhook-signature", in: "header", required: false, description: "`v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>` (see the `webhookSignature` security scheme). Sent when a signing secret is configured for the accessKey (CALLBACK_SIGNING_SECRETS) or globally (CALLBACK_SIGNING_SECRET). Beyond the vendor contract.", schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$" }, "x-extension": true },
  { name: "user-agent", in: "header", required: false, description: "`moderation-platform/1 callback`", schema: { type: "string" } },
];

const SIGNING = [
  "Callbacks are signed as in Standard Webhooks (https://www.standardwebhooks.com) when a signing secret is configured:",
  "`webhook-signature: v1,<base64(HMAC-SHA256(key, \"<webhook-id>.<webhook-timestamp>.<raw body>\"))>`.",
  "The key is the secret's UTF-8 bytes, or with a `whsec_` prefix the base64-decoded rest.",
  "Verify over the raw bytes received, accept any of the space-separated `v1,` signatures, compare in constant time,",
  "and refuse timestamps more than 5 minutes from now. Without a configured secret the header is absent.",
  "Beyond the vendor contract.",
].join(" ");

const RETRY_AFTER = { description: "Seconds to wait, sent with code 1901 (rate limits). Beyond the vendor contract.", schema: { type: "string", pattern: "^[0-9]+$" }, "x-extension": true };

/** `serverUrl` is PUBLIC_BASE_URL; null or absent gives a relative server (`/`): never derived from a request. */
export function buildOpenApi(opts: { serverUrl?: string | null } = {}): Record<string, unknown> {
  const serverUrl = opts.serverUrl ? opts.serverUrl.replace(/\/+$/, "") || "/" : "/";
  const paths: Record<string, unknown> = {};
  for (const e of ENDPOINTS) {
    paths[e.path] = {
      post: {
        operationId: e.operationId,
        summary: e.summary,
        description: "Body is parsed as JSON whatever the Content-Type; every handled request answers HTTP 200 with the business `code` in the body. The caller is identified by `accessKey` in the body (not an HTTP credential).",
        security: [],
        // Requests are documented as accepted (input side); answers as emitted (output side).
        requestBody: { required: true, content: requestContent(jsonSchemaOf(e.request, "input")) },
        responses: {
          "200": {
            description: "Business result; branch on `code`. Errors of any code carry only `code`, `message` and `requestId`.",
            headers: { "retry-after": RETRY_AFTER },
            content: json(jsonSchemaOf(e.response, "output")),
          },
        },
      },
    };
  }
  const webhooks: Record<string, unknown> = {};
  for (const [name, w] of Object.entries(WEBHOOKS)) {
    webhooks[name] = {
      post: {
        operationId: name,
        summary: w.summary,
        description: "POSTed as `application/json` to the URL given in the request; retried until the receiver answers exactly HTTP 200.",
        parameters: WEBHOOK_HEADERS,
        // signed when a secret is configured, unsigned otherwise
        security: [{ webhookSignature: [] }, {}],
        requestBody: { required: true, content: json(jsonSchemaOf(w.schema, "output")) },
        responses: { "200": { description: "Delivery acknowledged (exactly HTTP 200; anything else is retried)" } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Moderation API v4",
      version: "4",
      description: [
        "Video stream, audio stream and video file moderation (vendor v4 contract).",
        "Fields described as an extension (named in `x-extension-fields`) and headers marked `x-extension: true` are beyond the vendor contract: clients written for the vendor can ignore them. Schemas carry no `x-` keywords, so strict validators (Ajv's default) compile them.",
        "Schema keywords the zod contract cannot express natively are added from its refinements; each object's description lists its cross-field rules as text.",
        "Request bodies are parsed as JSON whatever the Content-Type (application/json, application/x-www-form-urlencoded, text/plain or none).",
      ].join(" "),
    },
    "x-extension-fields": extensionFieldNames(),
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: serverUrl }],
    paths,
    webhooks,
    components: {
      securitySchemes: {
        webhookSignature: { type: "apiKey", in: "header", name: "webhook-signature", description: SIGNING },
      },
    },
  };
}
