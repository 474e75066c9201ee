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
export const SAMPLE_AD_TEXT = { latin: "Add WeChat: maifen888 cheap followers", cjk: "加微信 maifen888" } as const;
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
 * Starts `ffmpeg -re` publishing an endless testsrc2 picture with a tone over quiet pink noise; a QR code
 * (rendered once with `qrcode`) and an ad on a plain box appear in their windows of every 40 s cycle.
 * A missing font only drops its line of text. Resolves once ffmpeg is publishing and sending frames.
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
    const lines: Array<{ text: string; font: string | null; y: string }> = [
      { text: SAMPLE_AD_TEXT.latin, font: existsSync(FONTS.latin) ? FONTS.latin : existsSync(FONTS.cjk) ? FONTS.cjk : null, y: "h*0.38-text_h/2" },
      { text: SAMPLE_AD_TEXT.cjk, font: existsSync(FONTS.cjk) ? FONTS.cjk : null, y: "h*0.62-text_h/2" },
    ];
    let label = "v0";
    for (const [i, line] of lines.entries()) {
      if (!line.font) {
        log(`[sample] no font for "${line.text}" (looked for ${Object.values(FONTS).join(", ")}): drawing without it`);
        continue;
      }
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
