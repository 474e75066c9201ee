import type { FileSubmitInput } from "../../lib/dashboard-api";

/** The dashboard's form → a /video/v4 body (the accessKey is added by the client). */
export function toVideoRequest(input: FileSubmitInput, btId: string, callback: string): { ok: true; body: Record<string, unknown> } | { ok: false; error: string } {
  const data: Record<string, unknown> = { btId, tokenId: input.tokenId?.trim() || "dashboard", url: input.url.trim(), returnAllImg: input.returnAllImg ? 1 : 0, returnAllAudio: input.returnAllAudio ? 1 : 0 };
  switch (input.captureMode) {
    case "detectFrequency":
      data.screenshotType = 0;
      data.detectFrequency = input.captureValue ?? 5;
      break;
    case "checkFrameCount":
      if (!input.captureValue) return { ok: false, error: "frame count is required" };
      data.screenshotType = 2;
      data.checkFrameCount = input.captureValue;
      break;
    case "advancedFrequency":
      if (!input.advancedFrequency) return { ok: false, error: "duration points and frequencies are required" };
      data.screenshotType = 1;
      data.advancedFrequency = input.advancedFrequency;
      break;
    case "keyframes":
      data.screenshotType = 3;
      break;
  }
  if (input.title?.trim()) data.videoTitle = input.title.trim().slice(0, 128);
  if (input.imgTypes.length === 0) return { ok: false, error: "choose at least one image type" };
  const imgType = input.imgTypes.join("_");
  const audioType = input.audioTypes.length ? input.audioTypes.join("_") : "NONE";
  return { ok: true, body: { appId: "default", eventId: "video", imgType, audioType, callback, acceptLang: "en", data } };
}
