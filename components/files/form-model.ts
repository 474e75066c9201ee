import type { CaptureMode, FileSubmitInput } from "@/lib/dashboard-api";
import { AUDIO_TYPES, IMG_TYPES } from "@/lib/contract/taxonomy";

export const FORM_IMG_TYPES: readonly string[] = IMG_TYPES;
/** Audio detection types offered by the form, NONE first (the default: no audio moderation). */
export const FORM_AUDIO_TYPES: readonly string[] = ["NONE", ...AUDIO_TYPES.filter((t) => t !== "NONE")];

export const CAPTURE_MODES: ReadonlyArray<{ value: CaptureMode; label: string }> = [
  { value: "detectFrequency", label: "Every N seconds" },
  { value: "checkFrameCount", label: "Fixed frame count" },
  { value: "advancedFrequency", label: "By duration" },
  { value: "keyframes", label: "Keyframes" },
];

export interface FileFormState {
  url: string;
  captureMode: CaptureMode;
  interval: string;
  frameCount: string;
  durationPoints: string;
  frequencies: string;
  audioTypes: string[];
  returnAllImg: boolean;
  returnAllAudio: boolean;
  callback: string;
  title: string;
  tokenId: string;
}

export const INITIAL_FORM: FileFormState = {
  url: "",
  captureMode: "detectFrequency",
  interval: "5",
  frameCount: "10",
  durationPoints: "",
  frequencies: "",
  audioTypes: ["NONE"],
  returnAllImg: false,
  returnAllAudio: false,
  callback: "",
  title: "",
  tokenId: "",
};

/** NONE excludes every other audio type; an empty choice falls back to NONE. */
export function toggleAudioType(current: string[], type: string): string[] {
  if (type === "NONE") return ["NONE"];
  const without = current.filter((t) => t !== "NONE");
  const next = without.includes(type) ? without.filter((t) => t !== type) : [...without, type];
  return next.length === 0 ? ["NONE"] : next;
}

function parseIntStrict(s: string): number | null {
  const t = s.trim();
  return /^\d+$/.test(t) ? Number(t) : null;
}

function parseIntList(s: string): number[] | null {
  const parts = s.split(",").map((p) => p.trim()).filter((p) => p !== "");
  const nums = parts.map(parseIntStrict);
  return nums.every((n): n is number => n !== null) ? nums : null;
}

type Built = { input: FileSubmitInput; error?: undefined } | { input?: undefined; error: string };

function captureFields(s: FileFormState): Pick<FileSubmitInput, "captureValue" | "advancedFrequency"> | string {
  switch (s.captureMode) {
    case "detectFrequency": {
      const n = parseIntStrict(s.interval);
      return n !== null && n >= 1 && n <= 60 ? { captureValue: n } : "Interval must be a whole number of seconds, 1–60.";
    }
    case "checkFrameCount": {
      const n = parseIntStrict(s.frameCount);
      return n !== null && n >= 1 ? { captureValue: n } : "Frame count must be a whole number ≥ 1.";
    }
    case "advancedFrequency": {
      const points = parseIntList(s.durationPoints);
      const freqs = parseIntList(s.frequencies);
      if (points === null || freqs === null) return "Duration points and frequencies must be comma-separated whole numbers.";
      if (points.length > 5) return "At most 5 duration points.";
      if (freqs.length !== points.length + 1) return `Give ${points.length + 1} frequencies for ${points.length} duration point(s).`;
      if (freqs.some((f) => f < 1 || f > 60)) return "Each frequency must be 1–60 seconds.";
      return { advancedFrequency: { durationPoints: points, frequencies: freqs } };
    }
    case "keyframes":
      return {};
  }
}

/** Validate the form and shape the POST /api/files body; the server re-validates everything. */
export function buildSubmitInput(s: FileFormState, imgTypes: string[]): Built {
  const url = s.url.trim();
  if (url === "") return { error: "Enter the video URL." };
  if (imgTypes.length === 0) return { error: "Pick at least one image type." };
  const capture = captureFields(s);
  if (typeof capture === "string") return { error: capture };
  const callback = s.callback.trim();
  const title = s.title.trim();
  const tokenId = s.tokenId.trim();
  return {
    input: {
      url,
      captureMode: s.captureMode,
      ...capture,
      imgTypes,
      audioTypes: s.audioTypes.length === 0 ? ["NONE"] : s.audioTypes,
      returnAllImg: s.returnAllImg,
      returnAllAudio: s.returnAllAudio,
      ...(callback !== "" ? { callback } : {}),
      ...(title !== "" ? { title } : {}),
      ...(tokenId !== "" ? { tokenId } : {}),
    },
  };
}
