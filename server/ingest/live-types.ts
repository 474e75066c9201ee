// The live pull's public contract: options, what it captures, how it ends. live.ts re-exports all of it.
import type { EgressPolicy } from "../net/egress-proxy";
import type { LiveErrorCode } from "./live-stderr";
import type { LiveMeterReading } from "./live-meter";

export interface LivePullOptions {
  /** rtmp://, rtmps://, http(s):// (.flv or .m3u8 HLS). */
  url: string;
  /**
   * Where ffmpeg may connect (live-egress.ts): the input is resolved and checked again before every run and
   * every connection is pinned to checked addresses. Omitted = the caller vouches for every address (tests).
   */
  egress?: EgressPolicy;
  /** Capture one frame every N s (clamped to 1–60); null = no frames (audio streams). */
  frameIntervalSec: number | null;
  /** Cut the audio track into segments. */
  audio: boolean;
  /** Default 10. */
  segmentSec?: number;
  /** Frames f<index>.jpg and segments a<index>.wav are written here. */
  outDir: string;
  /** First frame index (1-based; continues across reconnects), default 1. */
  frameStartIndex?: number;
  /** Default 1. */
  segmentStartIndex?: number;
  /**
   * The task numbers frames and segments itself (one counter shared with a bridge pull, server/task/stream-bridge.ts):
   * called as each is captured; overrides the start indexes.
   */
  nextIndex?: { frame(): number; segment(): number };
  /** Default 1280. */
  maxWidth?: number;
  /**
   * Default true: at a cadence of 2 s or more only keyframes are decoded, the keyframe nearest each slot captured
   * (within half a GOP of it); a source whose keyframes are further apart than the cadence is re-pulled once,
   * decoding every frame. false: every frame decoded, the first one at or after each slot captured.
   */
  keyframes?: boolean;
  /**
   * An input this process made itself, given to ffmpeg as is instead of `url` (which then only names the source in
   * messages): a WHEP pull's SDP file of loopback RTP ports (webrtc/whep-source.ts). It opens nothing else, so the
   * egress guard has nothing to check. `readerStarted` is called as each ffmpeg run starts (a keyframe request);
   * `ended` resolves when the source behind the file is gone (the peer left): the run ends as a source that stopped.
   */
  localInput?: { path: string; inputArgs: string[]; readerStarted?(): void; ended?: Promise<void> };
  /** ffmpeg -rw_timeout (connect and read); default 10000. */
  ioTimeoutMs?: number;
  /** First media data received. */
  onStarted?: () => void;
  onFrame: (f: LiveFrame) => void;
  onSegment: (s: LiveSegment) => void;
  /** A second output of the same ffmpeg: the live preview (server/preview). Only runs that capture frames carry it. */
  preview?: LivePreviewSink;
}

/** What a pull's ffmpeg runs tell the live preview (server/preview/recorder.ts implements it). */
export interface LivePreviewSink {
  /** Output arguments appended to the next run ([] = no preview this run). */
  outputArgs(): string[];
  /**
   * The run starts, with the pull's media clock (the one the frames' capturedAt use): `wallAt` maps media time
   * to wall-clock time; `observe` reports media time `sec` as just received (a closed segment's end).
   */
  runStarted(clock: { wallAt(mediaSec: number): Date; observe(mediaSec: number): void }): void;
  /** Every stderr line; true = the preview cannot play as encoded: the pull restarts the run once. */
  stderrLine(line: string): boolean;
  /** The run's ffmpeg has exited. */
  runEnded(): Promise<void>;
}

export interface LiveFrame {
  index: number;
  capturedAt: Date;
  /** pts of the frame, s from the start of this pull's media timeline. */
  streamTimeSec: number;
  path: string;
}

export interface LiveSegment {
  index: number;
  startedAt: Date;
  endedAt: Date;
  startSec: number;
  endSec: number;
  /** 16 kHz mono WAV. */
  path: string;
  /** Energy-based activity (energy.ts), not speech detection. */
  voiced: boolean;
  rmsDb: number;
}

export type LivePullEnd =
  | { reason: "stopped" }
  | { reason: "ended"; gotData: boolean; finite: boolean }
  | { reason: "failed"; errorCode: LiveErrorCode; message: string; gotData: boolean };

export interface LivePull {
  readonly done: Promise<LivePullEnd>;
  /**
   * Stops the pull: nothing ffmpeg delivers after the call is used. `keepCaptured` (a Close): what it had
   * delivered before is still written and announced before this resolves (frames still in the write queue or
   * waiting for their pts, and the audio since the last segment as a last, shorter segment of ≥ 1 s); without
   * it (shutdown, a lease lost) that is dropped.
   */
  stop(opts?: { keepCaptured?: boolean }): Promise<void>;
  /** bytesIn counts media bytes ffmpeg delivered (JPEG + PCM), not network bytes. */
  stats(): { frames: number; segments: number; bytesIn: number };
  /** Input fps and bitrate, audio level, last media (stream health); a source without it reports none. */
  meter?(): LiveMeterReading;
}
