import type { Readable } from "node:stream";
import { startFfmpeg } from "./ffmpeg";
import { LIVE_SAMPLE_RATE, type LiveArgs } from "./live-args";
import type { LiveClock } from "./live-clock";
import type { GuardedLiveInput } from "./live-egress";
import { GopWatch } from "./live-gop";
import { JpegSplitter } from "./live-jpeg";
import type { LiveMeter } from "./live-meter";
import type { LiveOutput } from "./live-output";
import { PcmSegmenter } from "./live-pcm";
import { LiveStderrParser } from "./live-stderr";
import type { LivePullOptions } from "./live-types";
import type { OwnedProcess, ProcessResult } from "./process";

const MIN_TAIL_SEC = 1;
const WATCHDOG_TICK_MS = 500;
const STOP_GRACE_MS = 500;

/** SIGTERM, then SIGKILL after STOP_GRACE_MS: nothing ffmpeg writes after this is used, and an HLS reload ignores SIGTERM for 1–2 s. */
export async function quickStop(proc: OwnedProcess, reason: "aborted" | "timeout"): Promise<void> {
  const kill = setTimeout(() => proc.child.kill("SIGKILL"), STOP_GRACE_MS);
  await proc.stop(reason);
  clearTimeout(kill);
}

/** The pull's mutable state that its runs share: stop() sets stopped and stops current; a restart replaces clock. */
export interface LivePullState {
  stopped: boolean;
  /** stopped by a Close: what was delivered before the stop is still written and announced */
  keepCaptured: boolean;
  current: OwnedProcess | null;
  /** the latest run's parser (the meter reads its video stream index) */
  parser: LiveStderrParser | null;
  clock: LiveClock;
}

export interface LiveRunContext {
  state: LivePullState;
  output: LiveOutput;
  meter: LiveMeter;
  counters: { bytesIn: number };
  /** read at each run, as the caller set it */
  options: Pick<LivePullOptions, "preview" | "localInput">;
  intervalSec: number | null;
  segmentSec: number;
  ioTimeoutMs: number;
  stallGraceMs: number;
}

export interface RunOutcome {
  result: ProcessResult & { spawnError: Error | null };
  parser: LiveStderrParser;
  /** media (JPEG or PCM bytes) came out of this run; a stream mapping alone is not media */
  started: boolean;
  stalled: boolean;
  /** stopped so that the preview restarts transcoded (LivePreviewSink.stderrLine) */
  restart: boolean;
  /** a keyframe-only run stopped because the source's keyframes are further apart than the cadence */
  longGop: boolean;
}

/** One ffmpeg run of a pull: frames paired with their showinfo pts, PCM cut into segments, a watchdog on progress. */
export async function runLiveOnce(ctx: LiveRunContext, plan: LiveArgs, env: GuardedLiveInput["env"]): Promise<RunOutcome> {
  const { state, output, meter, counters, intervalSec, ioTimeoutMs, stallGraceMs } = ctx;
  const parser = new LiveStderrParser();
  state.parser = parser;
  const jpegs = new JpegSplitter();
  const pcm = new PcmSegmenter(Math.max(1, Math.round(ctx.segmentSec * LIVE_SAMPLE_RATE)));
  const pendingImages: Buffer[] = [];
  const pendingPts: number[] = [];
  let lastPts: number | null = null;
  let mapped = false;
  let started = false;
  let stalled = false;
  let restart = false;
  let longGop = false;
  const gop = plan.keyframes && intervalSec !== null ? new GopWatch(intervalSec) : null;
  const preview = plan.preview ? ctx.options.preview : undefined;
  let lastProgressAt = Date.now();
  let lastProgressSec = -1;
  const progress = () => void (lastProgressAt = Date.now());
  // connected only once media bytes come out: a server with the publisher gone may still answer with stale headers
  const media = (bytes: number) => {
    counters.bytesIn += bytes;
    progress();
    if (started) return;
    started = true;
    output.started();
  };
  const pairFrames = () => {
    while (pendingImages.length && pendingPts.length) {
      lastPts = pendingPts.shift() as number;
      output.frame(pendingImages.shift() as Buffer, lastPts);
    }
  };

  preview?.runStarted({ wallAt: (sec) => state.clock.wallAt(sec), observe: (sec) => state.clock.observe(sec) });
  // -dump: every packet read is printed (stream, dts, size): the input's real fps and bitrate for health
  const proc = startFfmpeg(["-dump", ...plan.args], {
    env,
    // a signal to the server's group (Ctrl-C, a supervisor stopping the worker) must not end the pull mid hand-over
    ownProcessGroup: true,
    extraOutputPipe: plan.audio,
    onStderrLine: (line) => {
      if (preview?.stderrLine(line) && !restart && !state.stopped) {
        restart = true;
        void quickStop(proc, "aborted");
      }
      const ev = parser.line(line);
      if (ev.packet) {
        if (gop && ev.packet.stream === parser.videoIndex && gop.packet(ev.packet.dts, ev.packet.key, ev.packet.pts) && !longGop && !restart && !state.stopped) {
          longGop = true; // the caller reruns decoding every frame
          void quickStop(proc, "aborted");
        }
        return meter.packet(ev.packet.stream, ev.packet.dts, ev.packet.size);
      }
      if (ev.mapped) {
        mapped = true;
        progress();
      }
      if (ev.progressSec !== undefined && ev.progressSec > lastProgressSec) {
        lastProgressSec = ev.progressSec;
        progress();
      }
      if (ev.framePts !== undefined && !state.stopped) {
        pendingPts.push(ev.framePts);
        pairFrames();
      }
    },
    onStdout: (chunk) => {
      media(chunk.length);
      meter.media();
      if (state.stopped) return;
      pendingImages.push(...jpegs.push(chunk));
      pairFrames();
    },
  });
  state.current = proc;
  ctx.options.localInput?.readerStarted?.();
  // a local input whose source is gone: end the run as a source that stopped sending (no wait for the watchdog)
  void ctx.options.localInput?.ended?.then(() => {
    if (stalled || state.stopped || state.current !== proc) return;
    stalled = true;
    void quickStop(proc, "timeout");
  });
  const audioPipe = proc.child.stdio[3] as Readable | null | undefined;
  audioPipe?.on("data", (chunk: Buffer) => {
    media(chunk.length);
    meter.pcm(chunk);
    if (state.stopped) return;
    const cuts = pcm.push(chunk);
    state.clock.observe(pcm.receivedSamples / LIVE_SAMPLE_RATE);
    for (const cut of cuts) output.segment(cut);
  });
  audioPipe?.on("error", () => {}); // a broken pipe surfaces through the exit status

  // Media must keep advancing: ffmpeg's own timeouts miss a server that keeps the socket alive without
  // media, and a live HLS playlist that stops growing is reloaded forever.
  const audioOutput = plan.frames ? 1 : 0;
  const watchdog = setInterval(() => {
    const audioFlowing = plan.audio && parser.inputAudio && parser.mappedOutputs.has(audioOutput);
    const limit = mapped ? ioTimeoutMs + stallGraceMs + (audioFlowing ? 0 : (intervalSec ?? 0) * 1000) : 2 * ioTimeoutMs + 2 * stallGraceMs;
    if (!stalled && !state.stopped && Date.now() - lastProgressAt > limit) {
      stalled = true;
      void quickStop(proc, "timeout");
    }
  }, WATCHDOG_TICK_MS);

  const result = await proc.done;
  clearInterval(watchdog);
  await preview?.runEnded();
  if (!state.stopped || state.keepCaptured) {
    // an image whose showinfo line never came: place it one interval after the last known pts
    for (const image of pendingImages.splice(0)) output.frame(image, lastPts === null ? 0 : lastPts + (intervalSec ?? 0));
    const tail = stalled || restart || longGop ? null : pcm.flush(MIN_TAIL_SEC * LIVE_SAMPLE_RATE);
    if (tail) output.segment(tail);
  }
  return { result, parser, started, stalled, restart, longGop };
}
