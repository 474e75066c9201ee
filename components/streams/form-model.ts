// The "Start a stream" form: state, defaults and validation into the POST /api/streams body.
import type { StreamKind, StreamStartInput } from "@/lib/dashboard-api";
import { AUDIOSTREAM_TYPES } from "@/lib/contract/taxonomy";
import { FORM_AUDIO_TYPES } from "@/components/files/form-model";

export { FORM_IMG_TYPES, toggleAudioType } from "@/components/files/form-model";
/** Video streams: audioType values, NONE first (frames only). */
export const VIDEO_AUDIO_TYPES: readonly string[] = FORM_AUDIO_TYPES;
/** Audio streams: the `type` values (no NONE: an audio stream without audio detection means nothing). */
export const AUDIO_STREAM_TYPES: readonly string[] = AUDIOSTREAM_TYPES;

export const STREAM_URL_HINT = "rtmp(s)://…, http(s)://….flv or ….m3u8";

/** Where the stream comes from: a media URL (NORMAL) or a WHEP endpoint pulled over WebRTC (WEBRTC). */
export type StreamSource = "url" | "whep";

export const WHEP_URL_HINT = "http(s)://…/whep/… — a WHEP endpoint (this server's ingest plays WHIP publishes back there)";

export interface StreamFormState {
  kind: StreamKind;
  source: StreamSource;
  url: string;
  title: string;
  tokenId: string;
  /** seconds between captured frames (video) */
  interval: string;
  videoAudioTypes: string[];
  audioStreamTypes: string[];
  returnAllImg: boolean;
  returnAllText: boolean;
  returnFinishInfo: boolean;
  detectStep: string;
  audioDetectStep: string;
}

// Everything returned and the end reported by default, so the timeline is lively and ends visibly.
export const INITIAL_STREAM_FORM: StreamFormState = {
  kind: "video",
  source: "url",
  url: "",
  title: "",
  tokenId: "",
  interval: "3",
  videoAudioTypes: ["NONE"],
  audioStreamTypes: ["POLITY", "EROTIC", "ADVERT"],
  returnAllImg: true,
  returnAllText: true,
  returnFinishInfo: true,
  detectStep: "",
  audioDetectStep: "",
};

function wholeNumber(s: string): number | null {
  const t = s.trim();
  return /^\d+$/.test(t) ? Number(t) : null;
}

/** Blank → undefined; otherwise a whole number within [min, max] or an error message. */
function optionalStep(raw: string, name: string, min: number, max: number): number | undefined | string {
  if (raw.trim() === "") return undefined;
  const n = wholeNumber(raw);
  return n !== null && n >= min && n <= max ? n : `${name} must be a whole number, ${min}–${max === Infinity ? "∞" : max}.`;
}

const STREAM_PROTOCOLS = new Set(["rtmp:", "rtmps:", "http:", "https:"]);

function urlError(raw: string, source: StreamSource): string | null {
  if (raw === "") return source === "whep" ? "Enter the WHEP endpoint URL." : "Enter the stream URL.";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `Not a URL. Expected ${source === "whep" ? "http(s)://… (a WHEP endpoint)" : STREAM_URL_HINT}.`;
  }
  if (source === "whep") return url.protocol === "http:" || url.protocol === "https:" ? null : `A WHEP endpoint is an http(s) URL, not ${url.protocol}`;
  return STREAM_PROTOCOLS.has(url.protocol) ? null : `Unsupported protocol ${url.protocol} — use rtmp, rtmps, http-flv or hls.`;
}

export function audioEnabled(s: StreamFormState): boolean {
  return s.kind === "audio" || s.videoAudioTypes.some((t) => t !== "NONE");
}

type Built = { input: StreamStartInput; error?: undefined } | { input?: undefined; error: string };

/** Validate the form and shape the POST /api/streams body; the server re-validates everything. */
export function buildStreamInput(s: StreamFormState, imgTypes: string[]): Built {
  const url = s.url.trim();
  const bad = urlError(url, s.source);
  if (bad !== null) return { error: bad };
  const title = s.title.trim();
  const audioStep = audioEnabled(s) ? optionalStep(s.audioDetectStep, "Audio detect step", 1, 36) : undefined;
  if (typeof audioStep === "string") return { error: audioStep };
  const common = {
    url,
    ...(s.source === "whep" ? { streamType: "WEBRTC" as const } : {}),
    returnAllText: s.returnAllText,
    returnFinishInfo: s.returnFinishInfo,
    ...(title !== "" ? { title } : {}),
    ...(s.tokenId.trim() !== "" ? { tokenId: s.tokenId.trim() } : {}),
    ...(audioStep !== undefined ? { audioDetectStep: audioStep } : {}),
  };
  if (s.kind === "audio") {
    if (s.audioStreamTypes.length === 0) return { error: "Pick at least one audio type." };
    return { input: { kind: "audio", ...common, imgTypes: [], audioTypes: s.audioStreamTypes, returnAllImg: false } };
  }
  if (imgTypes.length === 0) return { error: "Pick at least one image type." };
  const every = wholeNumber(s.interval);
  if (every === null || every < 1 || every > 60) return { error: "Capture interval must be a whole number of seconds, 1–60." };
  const step = optionalStep(s.detectStep, "Frame detect step", 1, Infinity);
  if (typeof step === "string") return { error: step };
  return {
    input: {
      kind: "video",
      ...common,
      detectFrequency: every,
      imgTypes,
      audioTypes: s.videoAudioTypes.length === 0 ? ["NONE"] : s.videoAudioTypes,
      returnAllImg: s.returnAllImg,
      ...(step !== undefined ? { detectStep: step } : {}),
    },
  };
}
