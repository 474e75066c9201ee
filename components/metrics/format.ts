import type { MetricBucket } from "@/lib/review-metrics";

/** A bucket's start as the axis shows it, in the viewer's local time: "14:00" (hours) or "Nov 28" (days). */
export function bucketTick(iso: string, bucket: MetricBucket): string {
  const d = new Date(iso);
  return bucket === "hour" ? d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }) : d.toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

/** A bucket's start in full (tooltips and tables): "Nov 28, 14:00". */
export function bucketLabel(iso: string, bucket: MetricBucket): string {
  const d = new Date(iso);
  return bucket === "hour" ? d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) : d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** Seconds as the largest sensible units: "45 s", "12 min", "3 h 05 min", "2 d 4 h". */
export function duration(sec: number | null | undefined): string {
  if (sec === null || sec === undefined || !Number.isFinite(sec)) return "—";
  if (sec < 60) return `${Math.round(sec)} s`;
  if (sec < 3600) return `${Math.round(sec / 60)} min`;
  if (sec < 86_400) {
    const m = Math.round((sec % 3600) / 60);
    return m === 0 || m === 60 ? `${Math.round(sec / 3600)} h` : `${Math.floor(sec / 3600)} h ${String(m).padStart(2, "0")} min`;
  }
  return `${Math.floor(sec / 86_400)} d ${Math.round((sec % 86_400) / 3600)} h`;
}

export const percent = (r: number | null) => (r === null ? "—" : `${(r * 100).toFixed(r === 0 || r === 1 ? 0 : 1)} %`);

/** Distinct colours for series (readable on the dark surface), reused in order. */
export const PALETTE = ["#38bdf8", "#f97316", "#a78bfa", "#facc15", "#34d399", "#f472b6", "#94a3b8", "#fb7185", "#2dd4bf", "#c084fc"];
export const DECISION_COLORS = { confirmed: "#f87171", cleared: "#34d399", escalated: "#facc15" } as const;

/** `<input type="datetime-local">` value of an instant, in local time. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}
