import { z } from "zod";

/** An end user's id as the contract's tokenId (empty: none). */
const EndUser = z
  .string()
  .trim()
  .max(64)
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), "no control characters")
  .optional();

/** Validation of the dashboard's own submit form (app/api/files POST). */
export const FileSubmitInput = z.object({
  url: z.string().trim().min(1, "video URL is required").max(600),
  captureMode: z.enum(["detectFrequency", "checkFrameCount", "advancedFrequency", "keyframes"]),
  captureValue: z.number().int().min(1).max(7200).optional(),
  advancedFrequency: z.object({ durationPoints: z.array(z.number().int().positive()).max(5), frequencies: z.array(z.number().int().min(1).max(60)).max(6) }).optional(),
  imgTypes: z.array(z.string().max(32)).max(16),
  audioTypes: z.array(z.string().max(32)).max(16),
  callback: z.string().trim().max(500).optional(),
  returnAllImg: z.boolean(),
  returnAllAudio: z.boolean(),
  title: z.string().max(128).optional(),
  /** the end user (contract tokenId) the video belongs to; the incident detail lists that user's history */
  tokenId: EndUser,
});

/** Validation of the dashboard's stream start form (app/api/streams POST). */
export const StreamStartInput = z.object({
  kind: z.enum(["video", "audio"]),
  url: z.string().trim().min(1, "stream URL is required").max(600),
  /** NORMAL (default): rtmp/http-flv/hls; WEBRTC: `url` is a WHEP endpoint */
  streamType: z.enum(["NORMAL", "WEBRTC"]).optional(),
  title: z.string().max(64).optional(),
  /** the end user (contract tokenId) the stream belongs to; the incident detail lists that user's history */
  tokenId: EndUser,
  detectFrequency: z.number().int().min(1).max(60).optional(),
  imgTypes: z.array(z.string().max(32)).max(16),
  audioTypes: z.array(z.string().max(32)).max(16),
  returnAllImg: z.boolean(),
  returnAllText: z.boolean(),
  returnFinishInfo: z.boolean(),
  detectStep: z.number().int().min(1).max(100).optional(),
  audioDetectStep: z.number().int().min(1).max(36).optional(),
});
