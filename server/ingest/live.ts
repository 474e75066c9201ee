import { guardLiveInput, type GuardedLiveInput } from "./live-egress";
import { buildLiveArgs, FRAME_INTERVAL_MAX_SEC, FRAME_INTERVAL_MIN_SEC, KEYFRAME_MIN_CADENCE_SEC, liveInputKind } from "./live-args";
import { LiveClock } from "./live-clock";
import { LiveMeter } from "./live-meter";
import { failedForNoVideoButHasAudio, liveEndOf } from "./live-outcome";
import { LiveOutput } from "./live-output";
import { quickStop, runLiveOnce, type LivePullState, type LiveRunContext } from "./live-run";
import type { LivePull, LivePullEnd, LivePullOptions } from "./live-types";
import { SILENT_DBFS } from "../../lib/stream-health";
import { UrlRefusedError } from "./url-guard";

export type { LiveFrame, LivePreviewSink, LivePull, LivePullEnd, LivePullOptions, LiveSegment } from "./live-types";
export type { LiveErrorCode } from "./live-stderr";
export type { LiveMeterReading } from "./live-meter";

const DEFAULT_SEGMENT_SEC = 10;
const DEFAULT_IO_TIMEOUT_MS = 10_000;
/** Slack on top of ioTimeoutMs before the watchdog calls a run stalled (ffmpeg's own timeout should fire first). */
const STALL_GRACE_MS = 5000;
const HLS_STALL_GRACE_MS = 15_000;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/**
 * Pulls a live stream with ONE ffmpeg process: frames every N s as JPEG files, audio as WAV segments of
 * exactly segmentSec (the last partial one ≥ 1 s at end of stream). Never hangs: ffmpeg has an I/O timeout,
 * a watchdog kills a run whose media stops advancing, and stop() escalates SIGTERM → SIGKILL.
 * `done` rejects only for local failures (outDir not writable), never for stream problems.
 */
/** The cause keeps the details for the log; the message (which may reach a caller) names no server path. */
function writeError(err: Error): Error {
  return new Error(`live pull: cannot write the task's media directory (${(err as NodeJS.ErrnoException).code ?? "error"})`, { cause: err });
}

const localInputOf = (l: NonNullable<LivePullOptions["localInput"]>): GuardedLiveInput => ({ url: l.path, inputArgs: l.inputArgs, env: undefined, proxy: null, close: async () => undefined });

export function startLivePull(o: LivePullOptions): LivePull {
  const intervalSec = o.frameIntervalSec === null ? null : clamp(o.frameIntervalSec, FRAME_INTERVAL_MIN_SEC, FRAME_INTERVAL_MAX_SEC);
  const segmentSec = o.segmentSec && o.segmentSec > 0 ? o.segmentSec : DEFAULT_SEGMENT_SEC;
  const ioTimeoutMs = o.ioTimeoutMs && o.ioTimeoutMs > 0 ? o.ioTimeoutMs : DEFAULT_IO_TIMEOUT_MS;
  // HLS media arrives a whole segment at a time (often 6–10 s apart), so it needs a longer grace
  const isHls = liveInputKind(o.url) === "hls";
  const stallGraceMs = isHls ? HLS_STALL_GRACE_MS : STALL_GRACE_MS;
  // keyframes only while the source's GOP is known to fit the cadence or not yet known to exceed it
  let keyframes = o.keyframes !== false && intervalSec !== null && intervalSec >= KEYFRAME_MIN_CADENCE_SEC;
  const argsFor = (input: GuardedLiveInput, frameIntervalSec: number | null) =>
    buildLiveArgs({ url: input.url, inputArgs: input.inputArgs, frameIntervalSec, audio: o.audio, maxWidth: o.maxWidth ?? 1280, ioTimeoutMs, extraOutputs: frameIntervalSec === null ? undefined : o.preview?.outputArgs(), keyframesOnly: keyframes });

  const counters = { frames: 0, segments: 0, bytesIn: 0 };
  const state: LivePullState = { stopped: false, keepCaptured: false, current: null, parser: null, clock: new LiveClock() };
  const meter = new LiveMeter(SILENT_DBFS, () => state.parser?.videoIndex ?? null);
  const output = new LiveOutput(o, counters, {
    clock: () => state.clock,
    dropping: () => state.stopped && !state.keepCaptured,
    writeFailed: () => {
      if (state.current) void quickStop(state.current, "aborted");
    },
  });
  const ctx: LiveRunContext = { state, output, meter, counters, options: o, intervalSec, segmentSec, ioTimeoutMs, stallGraceMs };

  const done: Promise<LivePullEnd> = (async () => {
    await output.written;
    if (output.error) throw writeError(output.error);
    if (state.stopped) return { reason: "stopped" };
    let input: GuardedLiveInput;
    try {
      input = o.localInput ? localInputOf(o.localInput) : await guardLiveInput(o.url, o.egress);
    } catch (err) {
      if (err instanceof UrlRefusedError) return { reason: "failed", errorCode: 3001, message: `refused by the egress guard: ${err.message}`, gotData: false };
      throw err;
    }
    try {
      const plan = argsFor(input, intervalSec);
      let run = await runLiveOnce(ctx, plan, input.env);
      // Once more, at once, with a fresh media clock: the source is not H.264/AAC (the preview transcoded), or its
      // keyframes come less often than the cadence (every frame decoded). Each reason can come up once.
      for (let again = 0; again < 2 && !state.stopped && (run.restart || run.longGop); again++) {
        if (run.longGop) keyframes = false;
        state.clock = new LiveClock();
        run = await runLiveOnce(ctx, argsFor(input, intervalSec), input.env);
      }
      // a "video" stream without video: carry on with its audio (only possible when both were wanted)
      if (!state.stopped && plan.frames && plan.audio && failedForNoVideoButHasAudio(run)) {
        run = await runLiveOnce(ctx, argsFor(input, null), input.env);
      }
      await output.written;
      const late = output.error as Error | null; // set by the write chain while we awaited
      if (late) throw writeError(late);
      if (state.stopped) return { reason: "stopped" };
      const end = liveEndOf(run, { isHls, bytesIn: counters.bytesIn });
      // ffmpeg names the local input's file: the caller knows the source by its URL
      if (end.reason === "failed" && o.localInput) return { ...end, message: end.message.split(o.localInput.path).join(o.url) };
      if (end.reason !== "failed" || !input.proxy) return end;
      // ffmpeg names the gateway's local URL: the caller knows the URL it gave
      const message = input.proxy.originalsIn(end.message);
      const refused = input.proxy.refused[0];
      return { ...end, message: refused ? `${message} (refused by the egress guard: ${refused})` : message };
    } finally {
      await input.close();
    }
  })();

  return {
    done,
    stats: () => ({ ...counters }),
    meter: () => meter.reading(),
    async stop(opts) {
      // a plain stop (shutdown, a lost lease) during a Close's still drops: this process no longer owns the stream
      state.keepCaptured = !state.stopped ? opts?.keepCaptured === true : state.keepCaptured && opts?.keepCaptured === true;
      state.stopped = true;
      if (state.current) await quickStop(state.current, "aborted");
      await done.catch(() => undefined);
    },
  };
}
