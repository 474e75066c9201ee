import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import QRCode from "qrcode";
import { runFfmpeg } from "../../server/ingest/ffmpeg";

export { startStaticServer, type StaticServerOptions } from "./static-server";

const FONTS = {
  latin: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  cjk: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
} as const;
/** Bump when generation changes, so cached files are rebuilt. */
const GENERATOR_VERSION = 2;

export interface VideoSpec {
  name: string;
  durationSec: number;
  width?: number;
  height?: number;
  fps?: number;
  /** tone = 440 Hz sine; silence = digital zeros (anullsrc); noise = pink noise. */
  audio?: "tone" | "none" | "noise" | "silence";
  qr?: { text: string; fromSec: number; toSec: number; size?: number };
  text?: { content: string; fromSec: number; toSec: number; fontSize?: number; font?: "latin" | "cjk" };
  container?: "mp4" | "mkv" | "flv" | "webm";
  /** "testsrc2" (default, busy moving pattern) or an ffmpeg colour name for a plain background. */
  background?: string;
  /** Keyframe interval in seconds (default: 2 s, at most 50 frames). */
  gopSec?: number;
  /** B-frames between references (default: x264's, 3); 0 = none. */
  bFrames?: number;
}

/** tests/.media (gitignored), created on demand. */
export function mediaDir(): string {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", ".media");
  mkdirSync(dir, { recursive: true });
  return dir;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 60) || "media";
const between = (a: number, b: number) => `enable='between(t,${a},${b})'`;
const isCjk = (ch: string) => /[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch);

/** A font size that keeps the text inside 90 % of the width (CJK glyphs ≈ 1 em, Latin ≈ 0.6 em). */
function fittingFontSize(content: string, width: number, height: number): number {
  const ems = [...content].reduce((sum, ch) => sum + (isCjk(ch) ? 1 : 0.6), 0);
  return Math.max(12, Math.floor(Math.min(height / 12, (width * 0.9) / Math.max(1, ems))));
}

/** Where files are written while being generated; renamed into place only when complete. */
const partial = (file: string) => `${file}.${randomBytes(4).toString("hex")}.part`;

const MUXERS = { mp4: "mp4", mkv: "matroska", flv: "flv", webm: "webm" } as const;

/**
 * A synthetic video (testsrc2 or a plain colour + tone/noise), optionally with a QR code and/or text on a
 * plain box shown between given times. Cached in mediaDir() by a hash of the spec.
 */
export async function makeVideo(spec: VideoSpec): Promise<string> {
  const o = { width: 640, height: 360, fps: 25, audio: "tone" as const, container: "mp4" as const, background: "testsrc2", ...spec };
  const key = createHash("sha256").update(JSON.stringify({ GENERATOR_VERSION, ...o })).digest("hex").slice(0, 10);
  const dir = mediaDir();
  const file = path.join(dir, `${safe(o.name)}-${key}.${o.container}`);
  if (existsSync(file)) return file;

  const { width: W, height: H, fps, durationSec: D } = o;
  const inputs: string[] = [];
  const temps: string[] = [];
  const base = o.background === "testsrc2" ? `testsrc2=size=${W}x${H}:rate=${fps}:duration=${D}` : `color=c=${o.background}:size=${W}x${H}:rate=${fps}:duration=${D}`;
  inputs.push("-f", "lavfi", "-i", base);
  let nextInput = 1;
  let audioInput: number | null = null;
  const audioSource = { tone: `sine=frequency=440:sample_rate=44100:duration=${D}`, noise: `anoisesrc=color=pink:amplitude=0.3:sample_rate=44100:duration=${D}`, silence: `anullsrc=r=44100:cl=mono:d=${D}`, none: null }[o.audio];
  if (audioSource) {
    inputs.push("-f", "lavfi", "-i", audioSource);
    audioInput = nextInput++;
  }

  const chain: string[] = [];
  let label = "0:v";
  if (o.qr) {
    const size = o.qr.size ?? Math.floor(Math.min(W, H) * 0.6);
    const png = path.join(dir, `${key}-qr.png`);
    await QRCode.toFile(png, o.qr.text, { width: size, margin: 2, errorCorrectionLevel: "M" });
    temps.push(png);
    inputs.push("-i", png);
    chain.push(`[${label}][${nextInput++}:v]overlay=x=(W-w)/2:y=(H-h)/2:${between(o.qr.fromSec, o.qr.toSec)}[vq]`);
    label = "vq";
  }
  if (o.text) {
    const txt = path.join(dir, `${key}-text.txt`);
    await writeFile(txt, o.text.content, "utf8");
    temps.push(txt);
    const fontSize = o.text.fontSize ?? fittingFontSize(o.text.content, W, H);
    const overlapsQr = o.qr && o.qr.fromSec < o.text.toSec && o.text.fromSec < o.qr.toSec;
    const y = overlapsQr ? "h*0.85-text_h/2" : "(h-text_h)/2";
    const font = FONTS[o.text.font ?? "latin"];
    chain.push(`[${label}]drawtext=fontfile='${font}':textfile='${txt}':expansion=none:fontsize=${fontSize}:fontcolor=black:box=1:boxcolor=white:boxborderw=${Math.ceil(fontSize / 2)}:x=(w-text_w)/2:y=${y}:${between(o.text.fromSec, o.text.toSec)}[vt]`);
    label = "vt";
  }

  const video = o.container === "webm" ? ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M"] : ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"];
  const audio = audioInput === null ? ["-an"] : ["-map", `${audioInput}:a`, ...(o.container === "webm" ? ["-c:a", "libopus"] : ["-c:a", "aac", "-b:a", "96k"])];
  const tmp = partial(file);
  const args = [
    ...inputs,
    ...(chain.length ? ["-filter_complex", chain.join(";"), "-map", `[${label}]`] : ["-map", "0:v"]),
    ...audio,
    ...video,
    "-g", String(o.gopSec ? Math.round(fps * o.gopSec) : Math.min(50, fps * 2)),
    ...(o.bFrames !== undefined ? ["-bf", String(o.bFrames)] : []),
    ...(o.gopSec ? ["-keyint_min", String(Math.round(fps * o.gopSec)), "-sc_threshold", "0"] : []),
    "-t", String(D),
    ...(o.container === "mp4" ? ["-movflags", "+faststart"] : []),
    "-f", MUXERS[o.container],
    "-y", tmp,
  ];
  try {
    await runFfmpeg(args, { timeoutMs: 120_000 + D * 2000 });
    await rename(tmp, file);
  } finally {
    await Promise.all([tmp, ...temps].map((t) => rm(t, { force: true })));
  }
  return file;
}

/** Deterministic garbage bytes (no container signature) under an .mp4 name. */
export async function makeCorruptFile(name: string): Promise<string> {
  const file = path.join(mediaDir(), name.endsWith(".mp4") ? name : `${name}.mp4`);
  const size = 64 * 1024;
  if ((await stat(file).catch(() => null))?.size === size) return file;
  const bytes = Buffer.alloc(size);
  let s = 0x2545f491;
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    bytes[i] = s >>> 24;
  }
  const tmp = partial(file);
  await writeFile(tmp, bytes);
  await rename(tmp, file);
  return file;
}

/** A short video showing one still JPEG (`fit720`: scaled and padded into 1280×720). */
export async function stillVideo(name: string, jpeg: Buffer, o: { seconds?: number; fit720?: boolean } = {}): Promise<string> {
  const img = path.join(mediaDir(), `${name}.jpg`);
  const out = path.join(mediaDir(), `${name}.mp4`);
  await writeFile(img, jpeg);
  const fit = o.fit720 ? ["-vf", "scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2"] : [];
  await runFfmpeg(["-loop", "1", "-i", img, "-t", String(o.seconds ?? 2), "-r", "10", ...fit, "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-y", out]);
  return out;
}
