import type { StreamHealthSnapshot } from "@/lib/stream-health";
import { noMediaText, pullStateText, SILENT_DBFS } from "@/lib/stream-health";

export const fpsText = (fps: number | null) => (fps === null ? "— fps" : `${fps < 10 ? fps.toFixed(1) : Math.round(fps)} fps`);
export const kbpsText = (kbps: number | null) => (kbps === null ? "— kbit/s" : kbps >= 1000 ? `${(kbps / 1000).toFixed(1)} Mbit/s` : `${Math.round(kbps)} kbit/s`);
export const dbText = (db: number | null) => (db === null ? "—" : `${db.toFixed(0)} dBFS`);

/** 0..1 for a meter bar: SILENT_DBFS (and below) is empty, 0 dBFS full. */
export const levelShare = (db: number | null) => (db === null ? 0 : Math.min(1, Math.max(0, (db - SILENT_DBFS) / -SILENT_DBFS)));

/**
 * "no media for N s", counted from the last media (or the stream's start when none came), never from when the
 * flag was raised: the server's figure at the snapshot plus the time since, so a browser clock behind the
 * server's never makes it negative.
 */
export function noMediaNow(s: StreamHealthSnapshot, now: number): string | null {
  if (!s.flagged || s.pull.state === "ended") return null;
  const from = Date.parse(s.flagged.noMediaSince ?? s.lastMediaAt ?? s.flagged.since);
  const at = Date.parse(s.at);
  if (!Number.isFinite(from) || !Number.isFinite(at)) return s.flagged.message;
  const sinceSnapshot = now > 0 ? Math.max(0, now - at) : 0;
  return noMediaText(Math.max(0, at - from + sinceSnapshot) / 1000);
}

/** What a running stream's media is doing: "live" only while it flows; null = not known (no snapshot yet, or a remote service). */
export type MediaState = "live" | "connecting" | "retrying" | "paused" | "no-media" | "no-report" | "ended";

export function mediaStateOf(s: StreamHealthSnapshot | null | undefined): MediaState | null {
  if (!s) return null;
  if (s.unreported && s.pull.state !== "ended") return "no-report";
  if (s.pull.state === "connected") return s.flagged ? "no-media" : "live";
  return s.pull.state;
}

/** "no report for 40 s": how long a running stream's health has not been renewed (null: it is current). */
export function unreportedText(s: StreamHealthSnapshot, now: number): string | null {
  if (!s.unreported || s.pull.state === "ended") return null;
  return `no report for ${Math.max(0, Math.round((now - Date.parse(s.unreported.lastAt)) / 1000))} s`;
}

/** "live", "connecting", "retrying 5 of 12", "no media for 40 s", "no report for 20 s". */
export function mediaStateText(s: StreamHealthSnapshot, now: number): string {
  const state = mediaStateOf(s);
  if (state === "live") return "live";
  if (state === "no-report") return unreportedText(s, now) ?? "no report";
  if (state === "no-media") return noMediaNow(s, now) ?? "no media";
  return pullStateText(s.pull);
}

/** Why a running stream shows no picture: it never sent media, or its source went quiet. */
export const noPictureText = (s: StreamHealthSnapshot | null | undefined) => (!s || s.lastMediaAt === null ? "no media yet" : "source lost");

/** "in 4 s", "now" */
export function untilText(iso: string | null, now: number): string {
  if (!iso || now === 0) return "";
  const s = Math.round((Date.parse(iso) - now) / 1000);
  return s > 0 ? `in ${s} s` : "now";
}

export interface FrameCounts {
  captured: number;
  checked: number;
  notChecked: number;
}

/**
 * One set of frame counts for the header and the health strip: the stored results (pushed live) and the engine's
 * polled snapshot are both counters that only grow, so the larger of each is the newest; captured covers them.
 */
export function reconcileFrameCounts(stored: { framesChecked: number; framesNotChecked: number }, live: StreamHealthSnapshot["frames"] | null | undefined): FrameCounts {
  const checked = Math.max(stored.framesChecked, live?.checked ?? 0);
  const notChecked = Math.max(stored.framesNotChecked, live?.notChecked ?? 0);
  return { captured: Math.max(live?.captured ?? 0, checked + notChecked), checked, notChecked };
}
