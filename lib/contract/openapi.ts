// OpenAPI 3.1 document generated from the zod contract (zod 4 native JSON Schema, draft 2020-12).
import { z } from "zod";
import { AudioStreamCallback } from "./audiostream-callbacks";
import { AudioStreamCloseRequest, AudioStreamCloseResponse, AudioStreamRequest, AudioStreamResponse } from "./audiostream";
import { VideoFileRequest, VideoFileResponse, VideoQueryRequest } from "./video";
import { VideoFileResult, VideoQueryResponse } from "./video-result";
import { VideoStreamAudioCallback, VideoStreamImgCallback } from "./videostream-callbacks";
import { VideoStreamCloseRequest, VideoStreamCloseResponse, VideoStreamRequest, VideoStreamResponse } from "./videostream";

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

/** JSON Schema for one side of a zod schema; never throws (falls back to an unconstrained schema). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
    return rest;
  } catch {
    return {};
  }
}

const json = (schema: Record<string, unknown>) => ({ "application/json": { schema } });

export function buildOpenApi(opts: { serverUrl?: string } = {}): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const e of ENDPOINTS) {
    paths[e.path] = {
      post: {
        operationId: e.operationId,
        summary: e.summary,
        description: "Body is parsed as JSON whatever the Content-Type; every handled request answers HTTP 200 with the business `code` in the body.",
        // Requests are documented as accepted (input side); answers as emitted (output side).
        requestBody: { required: true, content: json(jsonSchemaOf(e.request, "input")) },
        responses: { "200": { description: "Business result; branch on `code`", content: json(jsonSchemaOf(e.response, "output")) } },
      },
    };
  }
  const webhooks: Record<string, unknown> = {};
  for (const [name, w] of Object.entries(WEBHOOKS)) {
    webhooks[name] = {
      post: {
        summary: w.summary,
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
      description: "Video stream, audio stream and video file moderation (vendor v4 contract).",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: opts.serverUrl ?? "/" }],
    paths,
    webhooks,
  };
}
