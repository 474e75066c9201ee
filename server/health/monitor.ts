import type { LiveMeterReading, LivePullEnd } from "../ingest/live";
import { PULL_RETRIES, type StreamProduct } from "../task/pull-retries";
import { noMediaText, pullStateText, STALL_CADENCES, type HealthEventKind, type PullState, type StreamCounters, type StreamHealthSnapshot } from "../../lib/stream-health";

/** Where a monitor's changes go: events are stored and published, snapshots only published. */
export interface HealthSink {
  event(e: NewHealthEvent, snapshot: StreamHealthSnapshot): void;
  snapshot(s: StreamHealthSnapshot): void;
}

export interface NewHealthEvent {
  requestId: string;
  at: Date;
  kind: HealthEventKind;
  message: string;
  attempt: number | null;
  of: number | null;
  nextAttemptAt: Date | null;
  errorCode: number | null;
}

/** What the task tells the monitor when asked. */
export interface HealthSource {
  counters(): StreamCounters & { phase: StreamHealthSnapshot["phase"] };
  /** the current pull's meter; null between pulls */
  meter(): LiveMeterReading | null;
}

export interface MonitorOptions {
  requestId: string;
  cadenceSec: number;
  /** retries the pull policy allows */
  retries: number;
  /** the pull carries the audio track (audio streams, video streams with audio types) */
  audioPulled: boolean;
  source: HealthSource;
  sink: HealthSink;
  /** live snapshots go out this often while running */
  publishEveryMs?: number;
  /** why DATA_DIR cannot take more evidence now ("disk full: …"), or null (server/store/disk-guard.ts diskShortage) */
  disk?: () => string | null;
}

const TICK_MS = 1000;
const FIRST_CONNECT_GRACE_MS = 10_000;
/** the live pull's default segment length (server/ingest/live.ts) */
const AUDIO_SEGMENT_SEC = 10;
const PUBLISH_EVERY_MS = 2000;

const formatWait = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * One live task's health: pull state (connecting, connected, retrying k of n, ended), last error, last media,
 * the stall flag (no media for more than STALL_CADENCES × cadence), and the live meter. Every state change is
 * an event (stored by the sink, so a gap in the timeline explains itself); snapshots go out every few seconds.
 */
export class StreamHealthMonitor {
  private pull: PullState;
  private lastMediaAt: number | null = null;
  /** media stopped (source lost or stalled) since the last time it flowed: the next media is a recovery */
  private outageSince: number | null = null;
  private connectedOnce = false;
  private flaggedSince: number | null = null;
  private lastError: StreamHealthSnapshot["lastError"] = null;
  /** the task's start here: "no media for N s" counts from it until media first comes */
  private readonly startedAt = Date.now();
  private timer: NodeJS.Timeout | null = null;
  private lastPublished = 0;
  private lastMeter: LiveMeterReading | null = null;
  /** DATA_DIR under its minimum while running: since when, and why */
  private storage: { since: number; message: string } | null = null;

  constructor(private readonly o: MonitorOptions) {
    this.pull = { state: "connecting", attempt: 0, of: o.retries, nextAttemptAt: null, since: new Date().toISOString(), endReason: null, endErrorCode: null };
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Process shutdown: no event (the task resumes at the next start). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** A pull (the first, or retry `attempt`) is being opened. */
  connecting(attempt: number): void {
    if (this.pull.state === "ended") return;
    this.setPull({ state: "connecting", attempt, nextAttemptAt: null });
  }

  /** The pull's media started flowing. */
  connected(): void {
    if (this.pull.state === "ended") return;
    const now = Date.now();
    this.lastMediaAt = now;
    const wasOutage = this.outageSince;
    this.setPull({ state: "connected", attempt: 0, nextAttemptAt: null });
    this.flaggedSince = null;
    this.outageSince = null;
    if (!this.connectedOnce) {
      this.connectedOnce = true;
      this.record("connected", "connected: media flowing");
    } else if (wasOutage !== null) {
      this.record("recovered", `recovered: media flowing again after ${Math.round((now - wasOutage) / 1000)} s`);
    } else {
      this.record("connected", "connected again");
    }
  }

  /** No pull while DATA_DIR is under its minimum (the storage flag says why; no stall flag meanwhile). */
  paused(): void {
    if (this.pull.state === "ended" || this.pull.state === "paused") return;
    this.lastMeter = null;
    this.setPull({ state: "paused", nextAttemptAt: null });
  }

  /** A pull ended by itself; `retry` when another attempt follows (its number and the wait before it). */
  pullEnded(end: LivePullEnd, retry: { attempt: number; delayMs: number } | null): void {
    if (end.reason === "stopped" || this.pull.state === "ended") return;
    const now = Date.now();
    const message = end.reason === "failed" ? end.message : end.finite ? "the source ended" : "the source stopped sending";
    if (end.reason === "failed" || !end.finite) this.lastError = { at: new Date(now).toISOString(), message, errorCode: end.reason === "failed" ? end.errorCode : null };
    if (this.pull.state === "connected") {
      this.outageSince ??= this.lastMediaAt ?? now;
      this.record("source_lost", `source lost: ${message}`, { errorCode: end.reason === "failed" ? end.errorCode : null });
    }
    if (!retry) return;
    const next = now + retry.delayMs;
    this.setPull({ state: "retrying", attempt: retry.attempt, nextAttemptAt: new Date(next).toISOString() });
    this.record("retrying", `retrying ${retry.attempt} of ${this.o.retries} in ${formatWait(retry.delayMs)}`, {
      attempt: retry.attempt,
      of: this.o.retries,
      nextAttemptAt: new Date(next),
    });
  }

  /** The task's end began (Close, natural end, retries exhausted). */
  ended(reason: NonNullable<PullState["endReason"]>, errorCode: number | null): void {
    if (this.pull.state === "ended") return;
    this.lastMeter = null;
    this.setPull({ state: "ended", attempt: this.pull.attempt, nextAttemptAt: null, endReason: reason, endErrorCode: errorCode });
    this.flaggedSince = null;
    this.record("ended", pullStateText(this.pull), { errorCode });
    this.stop();
  }

  snapshot(): StreamHealthSnapshot {
    const now = Date.now();
    const c = this.o.source.counters();
    const m = this.pull.state === "ended" ? null : (this.o.source.meter() ?? null);
    if (m?.lastMediaAt && m.lastMediaAt > (this.lastMediaAt ?? 0)) this.lastMediaAt = m.lastMediaAt;
    if (m) this.lastMeter = m;
    // figures of a pull that is gone say nothing about now; the last audio level is kept, marked by lastMediaAt
    const flowing = this.pull.state === "connected" && m !== null;
    const audio = this.lastMeter;
    return {
      requestId: this.o.requestId,
      phase: c.phase,
      at: new Date(now).toISOString(),
      frames: c.frames,
      segments: c.segments,
      pull: { ...this.pull },
      cadenceSec: this.o.cadenceSec,
      lastMediaAt: iso(this.lastMediaAt),
      flagged: this.flaggedSince === null ? null : { since: iso(this.flaggedSince)!, noMediaSince: iso(this.noMediaFrom())!, message: noMediaText((now - this.noMediaFrom()) / 1000) },
      input: { fps: flowing ? m.inputFps : null, kbps: flowing ? m.inputKbps : null },
      audio: { pulled: this.o.audioPulled, levelDb: audio?.audioDb ?? null, silent: audio?.silentSince != null, silentSince: iso(audio?.silentSince ?? null), receivedSec: m?.audioSec ?? 0 },
      lastError: this.lastError,
      storage: this.storage && { since: iso(this.storage.since)!, message: this.storage.message },
    };
  }

  /** The last media, or the start when none came (not the flag, nor the latest retry). */
  private noMediaFrom(): number {
    return this.lastMediaAt ?? this.startedAt;
  }

  private tick(): void {
    if (this.storageChanged()) return;
    const s = this.snapshot(); // also takes in the meter's last media
    const now = Date.now();
    const silentFor = now - this.noMediaFrom();
    // the first connection also waits for ffmpeg to probe the input (about 2 s) and may take its I/O timeout
    const limit = STALL_CADENCES * this.o.cadenceSec * 1000 + (this.connectedOnce ? 0 : FIRST_CONNECT_GRACE_MS);
    if (this.flaggedSince === null && s.phase === "running" && this.pull.state !== "paused" && silentFor > limit) {
      this.flaggedSince = now;
      this.outageSince ??= this.noMediaFrom();
      this.record("stalled", `flagged: ${noMediaText(silentFor / 1000)} (cadence ${this.o.cadenceSec} s)`);
      return;
    }
    if (this.flaggedSince !== null && this.pull.state === "connected" && silentFor <= limit) {
      // media came back on the same connection
      const from = this.outageSince ?? this.flaggedSince;
      this.flaggedSince = null;
      this.outageSince = null;
      this.record("recovered", `recovered: media flowing again after ${Math.round((now - from) / 1000)} s`);
      return;
    }
    if (now - this.lastPublished >= (this.o.publishEveryMs ?? PUBLISH_EVERY_MS)) {
      this.lastPublished = now;
      this.o.sink.snapshot(s);
    }
  }

  /** DATA_DIR went under its minimum, or space came back: an event (the strip says why); true when one was recorded. */
  private storageChanged(): boolean {
    const why = this.pull.state === "ended" ? null : (this.o.disk?.() ?? null);
    if (why && !this.storage) {
      this.storage = { since: Date.now(), message: why };
      this.record("disk_full", why);
      return true;
    }
    if (!why && this.storage) {
      const since = this.storage.since;
      this.storage = null;
      this.record("disk_ok", `disk space back after ${Math.round((Date.now() - since) / 1000)} s: evidence is kept again`);
      return true;
    }
    if (why && this.storage) this.storage.message = why;
    return false;
  }

  private setPull(p: Partial<PullState> & Pick<PullState, "state">): void {
    this.pull = { ...this.pull, endReason: null, endErrorCode: null, ...p, since: new Date().toISOString() };
  }

  /** Scaled mode: the stream moved between workers (taken over after a worker died, or shed by a worker behind). */
  handover(message: string): void {
    this.record("handover", message);
  }

  private record(kind: HealthEventKind, message: string, extra: Partial<Pick<NewHealthEvent, "attempt" | "of" | "nextAttemptAt" | "errorCode">> = {}): void {
    this.lastPublished = Date.now();
    const snapshot = this.snapshot();
    this.o.sink.event({ requestId: this.o.requestId, at: new Date(), kind, message, attempt: null, of: null, nextAttemptAt: null, errorCode: null, ...extra }, snapshot);
  }
}

/** Retries the pull policy of this product and streamType allows (docs/api.md §4). */
export function retriesAllowed(product: StreamProduct, streamType: string): number {
  const table = PULL_RETRIES[product] as Record<string, readonly number[]>;
  return (table[streamType] ?? PULL_RETRIES[product].NORMAL).length;
}

/** Seconds between two frames (video: detectFrequency, as the pull clamps it) or one audio segment (audio streams). */
export function cadenceSecOf(product: StreamProduct, data: Record<string, unknown>): number {
  return product === "videostream" ? Math.max(1, Math.min(60, Math.floor(Number(data.detectFrequency ?? 3)))) : AUDIO_SEGMENT_SEC;
}

/** Sink of a task nobody listens to (tests constructing a task by hand). */
export const NO_HEALTH_SINK: HealthSink = { event: () => undefined, snapshot: () => undefined };
