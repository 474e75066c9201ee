import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { startFfmpeg } from "../ingest/ffmpeg";
import type { OwnedProcess } from "../ingest/process";

/** The first-run demo: a generated live video with audio, published to an RTMP URL until stopped (or unused). */
export interface SampleSource {
  url: string;
  /** Stops the publisher (idempotent); resolves once ffmpeg has exited. */
  stop(): Promise<void>;
  /** The publisher is alive (false after stop(), after an idle stop, or if it died, e.g. the RTMP server went away). */
  readonly running: boolean;
  /** Resolves once the publisher has exited, for whatever reason. */
  readonly exited: Promise<void>;
}

export interface SampleSourceOptions {
  rtmpUrl: string;
  width?: number;
  height?: number;
  log?: (m: string) => void;
  /**
   * Whether anything pulls the published stream right now. With it, the publisher stops itself once nothing
   * has pulled it for `idleStopMs` (counted from the moment it started publishing), so no ffmpeg keeps
   * encoding for nobody.
   */
  inUse?: () => boolean;
  /** Default 10 000. */
  idleStopMs?: number;
}

export const SAMPLE_IDLE_STOP_MS = 10_000;
const IDLE_CHECK_MS = 500;

export const SAMPLE_QR_TEXT = "https://spam.example/demo";
export const SAMPLE_AD_TEXT = { latin: "Add WeChat: maifen888 cheap followers", cjk: "加微信 maifen888", cjkFallback: "WeChat ID maifen888" } as const;
/** Every CYCLE_SEC: the QR code shows during QR_WINDOW, the ad text during AD_WINDOW (seconds into the cycle). */
export const SAMPLE_CYCLE_SEC = 40;
export const SAMPLE_QR_WINDOW = [5, 15] as const;
export const SAMPLE_AD_WINDOW = [22, 32] as const;

const FONTS = { latin: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", cjk: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc" } as const;
const FPS = 15;
const READY_TIMEOUT_MS = 20_000;

const inWindow = ([from, to]: readonly [number, number]) => `enable='between(mod(t,${SAMPLE_CYCLE_SEC}),${from},${to})'`;
const isCjk = (ch: string) => /[\u2e80-\u9fff\uff00-\uffef]/.test(ch);
/** A size that keeps the line inside 90 % of the width (CJK glyphs ≈ 1 em, Latin ≈ 0.6 em). */
const fontSizeFor = (text: string, w: number, h: number) => Math.max(14, Math.floor(Math.min(h / 13, (w * 0.9) / [...text].reduce((n, ch) => n + (isCjk(ch) ? 1 : 0.6), 0))));

/**
 * The ad's two lines and the fonts they are drawn with. Without the CJK font (Debian fonts-noto-cjk) the Chinese
 * line becomes a Latin one the Latin font can render, and the note says why and how to get the Chinese one.
 */
export function sampleAdLines(fonts: { latin: string | null; cjk: string | null }): { lines: Array<{ text: string; font: string; y: string }>; notes: string[] } {
  const notes: string[] = [];
  const lines: Array<{ text: string; font: string; y: string }> = [];
  const latin = fonts.latin ?? fonts.cjk;
  if (latin) lines.push({ text: SAMPLE_AD_TEXT.latin, font: latin, y: "h*0.38-text_h/2" });
  if (fonts.cjk) lines.push({ text: SAMPLE_AD_TEXT.cjk, font: fonts.cjk, y: "h*0.62-text_h/2" });
  else if (latin) {
    lines.push({ text: SAMPLE_AD_TEXT.cjkFallback, font: latin, y: "h*0.62-text_h/2" });
    notes.push(`the Chinese ad line "${SAMPLE_AD_TEXT.cjk}" needs the CJK font (${FONTS.cjk}, Debian fonts-noto-cjk): showing the Latin-only "${SAMPLE_AD_TEXT.cjkFallback}" instead. Install it with: sudo apt-get install -y fonts-noto-cjk (npm start installs it when run as root)`);
  }
  if (!latin) notes.push(`no font for the ad text (looked for ${Object.values(FONTS).join(", ")}): the sample shows its QR code only. Install one with: sudo apt-get install -y fonts-dejavu-core fonts-noto-cjk`);
  return { lines, notes };
}

/** What the sample cannot show on this machine (a missing font), for the dashboard's sample panel; null when all is there. */
export function sampleFontNote(): string | null {
  return sampleAdLines({ latin: existsSync(FONTS.latin) ? FONTS.latin : null, cjk: existsSync(FONTS.cjk) ? FONTS.cjk : null }).notes[0] ?? null;
}

/**
 * Starts `ffmpeg -re` publishing an endless testsrc2 picture with a tone over quiet pink noise; a QR code
 * (rendered once with `qrcode`) and an ad on a plain box appear in their windows of every 40 s cycle.
 * A missing CJK font turns the Chinese line into a Latin one (sampleAdLines). Resolves once ffmpeg is publishing and sending frames.
 */
export async function startSampleSource(o: SampleSourceOptions): Promise<SampleSource> {
  const W = o.width ?? 960;
  const H = o.height ?? 540;
  const log = o.log ?? (() => {});
  const dir = await mkdtemp(path.join(os.tmpdir(), "sample-source-"));
  const cleanup = () => rm(dir, { recursive: true, force: true });

  let args: string[];
  try {
    const qr = path.join(dir, "qr.png");
    await QRCode.toFile(qr, SAMPLE_QR_TEXT, { width: Math.floor(Math.min(W, H) * 0.5), margin: 2, errorCorrectionLevel: "M" });
    const chain = [`[0:v][2:v]overlay=x=(W-w)/2:y=(H-h)/2:${inWindow(SAMPLE_QR_WINDOW)}[v0]`];
    const plan = sampleAdLines({ latin: existsSync(FONTS.latin) ? FONTS.latin : null, cjk: existsSync(FONTS.cjk) ? FONTS.cjk : null });
    for (const note of plan.notes) log(`[sample] ${note}`);
    const lines = plan.lines;
    let label = "v0";
    for (const [i, line] of lines.entries()) {
      const textFile = path.join(dir, `line${i}.txt`);
      await writeFile(textFile, line.text, "utf8");
      const size = fontSizeFor(line.text, W, H);
      chain.push(`[${label}]drawtext=fontfile='${line.font}':textfile='${textFile}':expansion=none:fontsize=${size}:fontcolor=black:box=1:boxcolor=white:boxborderw=${Math.ceil(size / 2)}:x=(w-text_w)/2:y=${line.y}:${inWindow(SAMPLE_AD_WINDOW)}[v${i + 1}]`);
      label = `v${i + 1}`;
    }
    args = [
      "-re", "-f", "lavfi", "-i", `testsrc2=size=${W}x${H}:rate=${FPS}`,
      "-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100[s];anoisesrc=color=pink:amplitude=0.05:sample_rate=44100[n];[s][n]amix=inputs=2[out0]",
      "-i", qr, // one frame: overlay keeps showing it (eof_action=repeat), gated by its enable window
      "-filter_complex", chain.join(";"),
      "-map", `[${label}]`, "-map", "1:a",
      "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-g", String(FPS * 2),
      "-c:a", "aac", "-b:a", "96k",
      "-stats", "-f", "flv", o.rtmpUrl,
    ];
  } catch (err) {
    await cleanup();
    throw err;
  }

  let stopped = false;
  let alive = true;
  let publishing = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const proc: OwnedProcess = startFfmpeg(args, {
    onStderrLine: (line) => {
      // a progress line with frames sent: the RTMP publish was accepted (ffmpeg opens the output first)
      if (!publishing && /^frame=\s*[1-9]/.test(line)) {
        publishing = true;
        markReady();
      }
    },
  });
  const exited = proc.done.then((r) => {
    alive = false;
    if (!stopped) log(`[sample] publisher to ${o.rtmpUrl} exited (code ${r.code ?? r.signal}): ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`);
    return r;
  });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      stopped = true;
      clearInterval(idleTimer);
      await proc.stop("aborted");
      await exited;
      await cleanup();
    })());
  let idleTimer: NodeJS.Timeout | undefined;

  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    ready.then(() => "ready" as const),
    exited.then(() => "exited" as const),
    new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), READY_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (outcome !== "ready") {
    const tail = (await Promise.race([exited, proc.stop("aborted").then(() => exited)])).stderr.trim().split("\n").slice(-3).join(" | ");
    await stop();
    throw new Error(`sample source could not publish to ${o.rtmpUrl} (${outcome}): ${tail}`);
  }
  log(`[sample] publishing ${W}x${H} to ${o.rtmpUrl}`);
  if (o.inUse) {
    const inUse = o.inUse;
    const idleMs = o.idleStopMs ?? SAMPLE_IDLE_STOP_MS;
    let lastUsed = Date.now();
    idleTimer = setInterval(() => {
      if (stopped || !alive) return clearInterval(idleTimer);
      if (inUse()) lastUsed = Date.now();
      else if (Date.now() - lastUsed >= idleMs) {
        log(`[sample] nothing pulled ${o.rtmpUrl} for ${Math.round(idleMs / 1000)} s: publisher stopped`);
        void stop();
      }
    }, IDLE_CHECK_MS);
    idleTimer.unref();
  }

  return {
    url: o.rtmpUrl,
    stop,
    exited: exited.then(() => undefined),
    get running() {
      return alive && !stopped;
    },
  };
}
