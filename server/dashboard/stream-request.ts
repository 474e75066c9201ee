import crypto from "node:crypto";
import type { StreamStartInput } from "../../lib/dashboard-api";

/** The dashboard's start form → a /videostream/v4 or /audiostream/v4 body (accessKey added by the client). */
export function toStreamRequest(input: StreamStartInput, receiverUrl: string): { ok: true; body: Record<string, unknown> } | { ok: false; error: string } {
  // the dashboard always asks for the stream-end: a stream that ends by any cause (source gone, retries
  // exhausted, closed elsewhere) is then shown ended at once, with its reason
  const flags = { returnAllText: input.returnAllText ? 1 : 0, returnFinishInfo: 1 };
  const steps = { ...(input.audioDetectStep ? { audioDetectStep: input.audioDetectStep } : {}) };
  const audioTypes = input.audioTypes.filter((t) => t !== "NONE");
  if (input.kind === "audio") {
    if (audioTypes.length === 0) return { ok: false, error: "choose at least one audio type" };
    const btId = `dash-${crypto.randomBytes(6).toString("hex")}`;
    return {
      ok: true,
      body: { appId: "default", eventId: "AUDIOSTREAM", type: audioTypes.join("_"), callback: receiverUrl, acceptLang: "en", data: { btId, tokenId: input.tokenId?.trim() || "dashboard", streamType: input.streamType ?? "NORMAL", url: input.url.trim(), ...flags, ...steps, ...(input.title ? { liveTitle: input.title } : {}) } },
    };
  }
  if (input.imgTypes.length === 0) return { ok: false, error: "choose at least one image type" };
  return {
    ok: true,
    body: {
      appId: "default",
      eventId: "VIDEOSTREAM",
      imgType: input.imgTypes.join("_"),
      audioType: audioTypes.length ? audioTypes.join("_") : "NONE",
      imgCallback: receiverUrl,
      ...(audioTypes.length ? { audioCallback: receiverUrl } : {}),
      acceptLang: "en",
      data: {
        streamType: input.streamType ?? "NORMAL",
        url: input.url.trim(),
        tokenId: input.tokenId?.trim() || "dashboard",
        detectFrequency: input.detectFrequency ?? 3,
        returnAllImg: input.returnAllImg ? 1 : 0,
        ...flags,
        ...steps,
        ...(input.detectStep ? { detectStep: input.detectStep } : {}),
        ...(input.title ? { streamName: input.title.slice(0, 64) } : {}),
      },
    },
  };
}
