import type { StreamHealthSnapshot } from "@/lib/stream-health";
import { noMediaText, SILENT_DBFS } from "@/lib/stream-health";

export const fpsText = (fps: number | null) => (fps === null ? "— fps" : `${fps < 10 ? fps.toFixed(1) : Math.round(fps)} fps`);
export const kbpsText = (kbps: number | null) => (kbps === null ? "— kbit/s" : kbps >= 1000 ? `${(kbps / 1000).toFixed(1)} Mbit/s` : `${Math.round(kbps)} kbit/s`);
export const dbText = (db: number | null) => (db === null ? "—" : `${db.toFixed(0)} dBFS`);

/** 0..1 for a meter bar: SILENT_DBFS (and below) is empty, 0 dBFS full. */
export const levelShare = (db: number | null) => (db === null ? 0 : Math.min(1, Math.max(0, (db - SILENT_DBFS) / -SILENT_DBFS)));

/** Seconds without media, counted live from the snapshot's last media (or its flag). */
export function noMediaNow(s: StreamHealthSnapshot, now: number): string | null {
  if (!s.flagged || s.pull.state === "ended") return null;
  const from = s.lastMediaAt ? Date.parse(s.lastMediaAt) : Date.parse(s.flagged.since);
  return now > 0 && Number.isFinite(from) ? noMediaText((now - from) / 1000) : s.flagged.message;
}

/** "in 4 s", "now" */
export function untilText(iso: string | null, now: number): string {
  if (!iso || now === 0) return "";
  const s = Math.round((Date.parse(iso) - now) / 1000);
  return s > 0 ? `in ${s} s` : "now";
}
