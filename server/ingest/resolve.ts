import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Environment variables to resolve from (process.env or a test's own). */
export type Env = Readonly<Record<string, string | undefined>>;
export type FfmpegSource = "FFMPEG_PATH" | "PATH" | "npm";
export interface ResolvedBinary<S extends string> {
  path: string;
  source: S;
}

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** First executable named `name` on the PATH, like `which`. */
export function findOnPath(name: string, envPath = process.env.PATH ?? ""): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function npmFfmpeg(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const found = require("@ffmpeg-installer/ffmpeg") as { path?: string };
    return found.path && isExecutableFile(found.path) ? found.path : null;
  } catch {
    // the package throws a plain string when its platform binary is missing
    return null;
  }
}

/** Resolution without memoising or logging; exported for tests. */
export function resolveFfmpegFrom(env: Env): ResolvedBinary<FfmpegSource> {
  const configured = env.FFMPEG_PATH?.trim();
  if (configured) {
    if (isExecutableFile(configured)) return { path: configured, source: "FFMPEG_PATH" };
    console.warn(`[ingest] FFMPEG_PATH=${configured} is not an executable file; falling back`);
  }
  const onPath = findOnPath("ffmpeg", env.PATH ?? "");
  if (onPath) return { path: onPath, source: "PATH" };
  const shipped = npmFfmpeg();
  if (shipped) return { path: shipped, source: "npm" };
  throw new Error("no ffmpeg found: set FFMPEG_PATH, put ffmpeg on PATH, or install @ffmpeg-installer/ffmpeg");
}

/** ffprobe is optional (the npm ffmpeg ships none): FFPROBE_PATH → PATH → null. */
export function resolveFfprobeFrom(env: Env): ResolvedBinary<"FFPROBE_PATH" | "PATH"> | null {
  const configured = env.FFPROBE_PATH?.trim();
  if (configured) {
    if (isExecutableFile(configured)) return { path: configured, source: "FFPROBE_PATH" };
    console.warn(`[ingest] FFPROBE_PATH=${configured} is not an executable file; falling back`);
  }
  const onPath = findOnPath("ffprobe", env.PATH ?? "");
  return onPath ? { path: onPath, source: "PATH" } : null;
}

let ffmpegMemo: ResolvedBinary<FfmpegSource> | undefined;
let ffprobeMemo: ResolvedBinary<"FFPROBE_PATH" | "PATH"> | null | undefined;

/** FFMPEG_PATH → ffmpeg on PATH → @ffmpeg-installer/ffmpeg; memoised, logged once. */
export function resolveFfmpeg(): { path: string; source: FfmpegSource } {
  if (!ffmpegMemo) {
    ffmpegMemo = resolveFfmpegFrom(process.env);
    console.info(`[ingest] ffmpeg: ${ffmpegMemo.path} (from ${ffmpegMemo.source})`);
  }
  return { ...ffmpegMemo };
}

/** FFPROBE_PATH → ffprobe on PATH → null (probe then parses `ffmpeg -i`); memoised, logged once. */
export function resolveFfprobe(): { path: string; source: "FFPROBE_PATH" | "PATH" } | null {
  if (ffprobeMemo === undefined) {
    ffprobeMemo = resolveFfprobeFrom(process.env);
    console.info(`[ingest] ffprobe: ${ffprobeMemo ? `${ffprobeMemo.path} (from ${ffprobeMemo.source})` : "none, parsing ffmpeg -i"}`);
  }
  return ffprobeMemo ? { ...ffprobeMemo } : null;
}
