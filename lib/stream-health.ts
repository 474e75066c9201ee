// Live stream health (embedded engine only): what the pull delivers, shared by the engine, the hub and the dashboard.

/** Per-stream counters: captured = checked + notChecked + waiting + detecting (segments: + skipped by audioDetectStep). */
export interface StreamCounters {
  frames: { captured: number; checked: number; notChecked: number; waiting: number; detecting: number };
  segments: { captured: number; checked: number; notChecked: number; skipped: number; waiting: number; detecting: number };
}

/** paused: DATA_DIR is under DATA_DIR_MIN_FREE_MB, nothing is pulled (or written) until space is back */
export type PullStateName = "connecting" | "connected" | "retrying" | "paused" | "ended";

export interface PullState {
  state: PullStateName;
  /** retry number of the current (or next) attempt; 0 = the first connection, or one after media came back */
  attempt: number;
  /** retries the stream's policy allows (docs/api.md §4) */
  of: number;
  /** retrying: when the next attempt starts (ISO) */
  nextAttemptAt: string | null;
  /** when this state began (ISO) */
  since: string;
  /** ended: closed (Close or shutdown), ended (the source ended), failed (retries ran out) */
  endReason: "closed" | "ended" | "failed" | null;
  endErrorCode: number | null;
}

export interface StreamHealthSnapshot extends StreamCounters {
  requestId: string;
  /** running: pulling (or waiting to retry); ending: the pull stopped, what was captured is being drained; ended */
  phase: "running" | "ending" | "ended";
  /** when this snapshot was taken (ISO) */
  at: string;
  pull: PullState;
  /** the seconds between two frames (video) or the audio segment length (audio streams) */
  cadenceSec: number;
  /** last media bytes the pull received (ISO), null before any */
  lastMediaAt: string | null;
  /**
   * running and no media for more than 2× the cadence: "no media for N s", counted from noMediaSince (the last
   * media, or the stream's start when none came; absent in snapshots stored before it existed)
   */
  flagged: { since: string; noMediaSince?: string; message: string } | null;
  /** measured from the packets ffmpeg reads (null when not connected or no such track) */
  input: { fps: number | null; kbps: number | null };
  /**
   * level of the last second of audio (dBFS); silent below SILENT_DBFS; pulled: false when the stream moderates no audio;
   * receivedSec: seconds of audio the current pull has received (absent in snapshots stored before it existed)
   */
  audio: { pulled: boolean; levelDb: number | null; silent: boolean; silentSince: string | null; receivedSec?: number };
  lastError: { at: string; message: string; errorCode: number | null } | null;
  /**
   * running and DATA_DIR under DATA_DIR_MIN_FREE_MB: "disk full: …" (frames are kept only while space lasts); null
   * once space is back (absent in snapshots stored before it existed)
   */
  storage?: { since: string; message: string } | null;
  /**
   * set by the dashboard, never by the server: a running stream whose snapshot has not been renewed for
   * HEALTH_UNREPORTED_MS (live snapshots come every 2 s): its figures are old
   */
  unreported?: { lastAt: string } | null;
}

export type HealthEventKind = "connected" | "source_lost" | "retrying" | "recovered" | "stalled" | "ended" | "handover" | "disk_full" | "disk_ok";

/** A change of a stream's health, stored (stream_health_events) so a gap in the timeline explains itself. */
export interface StreamHealthEvent {
  id: number;
  requestId: string;
  at: string;
  kind: HealthEventKind;
  message: string;
  attempt: number | null;
  of: number | null;
  nextAttemptAt: string | null;
  errorCode: number | null;
}

/** `stream:health` (socket.io): the current snapshot, with the event that changed it when there was one. */
export interface StreamHealthUpdate {
  snapshot: StreamHealthSnapshot;
  event: StreamHealthEvent | null;
}

/** GET /api/streams/<id>/health */
export interface StreamHealthReport {
  /** null for a stream the engine never ran in this process and stored no event of */
  snapshot: StreamHealthSnapshot | null;
  /** false: the process that ran it is gone; the snapshot is the one stored with the last event */
  live: boolean;
  events: StreamHealthEvent[];
}

/** Below this the audio is called silent. */
export const SILENT_DBFS = -60;

/** Stall rule: flagged when no media came for more than this many cadences. */
export const STALL_CADENCES = 2;

/** "connected", "retrying 2 of 12", "ended (errorCode 3001)". */
export function pullStateText(p: PullState): string {
  if (p.state === "retrying") return `retrying ${p.attempt} of ${p.of}`;
  if (p.state === "paused") return "paused: disk full";
  if (p.state === "connecting") return p.attempt > 0 ? `connecting (retry ${p.attempt} of ${p.of})` : "connecting";
  if (p.state === "ended") {
    const why = p.endReason === "closed" ? "closed" : p.endReason === "failed" ? "retries exhausted" : "source ended";
    return `ended: ${why}${p.endErrorCode ? ` (errorCode ${p.endErrorCode})` : ""}`;
  }
  return "connected";
}

/** "no media for 7 s" */
export const noMediaText = (sec: number) => `no media for ${Math.round(sec)} s`;

/** How healthy at a glance: ok (media flowing), warn (retrying, connecting, flagged, silent), down (ended by failure). */
export function healthTone(s: StreamHealthSnapshot): "ok" | "warn" | "down" | "idle" {
  if (s.pull.state === "ended") return s.pull.endReason === "failed" ? "down" : "idle";
  if (s.unreported || s.flagged || s.storage || s.pull.state !== "connected") return "warn";
  return "ok";
}

/** A running stream's live snapshot older than this (it is renewed every 2 s) no longer says what its pull does. */
export const HEALTH_UNREPORTED_MS = 15_000;

/**
 * The snapshot as the dashboard may show it at `now`: marked `unreported` when it was received more than
 * HEALTH_UNREPORTED_MS ago and its pull has not ended, so a wall card stops saying "live" about a stream nobody
 * reports on. `receivedAt` is the browser's own time of receipt: a server clock ahead or behind changes nothing.
 */
export function markUnreported(s: StreamHealthSnapshot, receivedAt: number, now: number): StreamHealthSnapshot {
  if (s.pull.state === "ended" || now === 0 || now - receivedAt <= HEALTH_UNREPORTED_MS) return s;
  return { ...s, unreported: { lastAt: new Date(receivedAt).toISOString() } };
}

/** What a "no report" marker means, for its tooltip. */
export const UNREPORTED_TITLE = "no health report came for this running stream: its figures are old (the process running it may be down, or the live connection lost)";
