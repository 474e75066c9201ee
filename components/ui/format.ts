/** Seconds from file start as mm:ss.s (one decimal), e.g. 62.25 → "01:02.3". */
export function formatMediaTime(sec: number | undefined): string {
  if (sec === undefined || !Number.isFinite(sec) || sec < 0) return "--:--.-";
  const tenths = Math.round(sec * 10);
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  return `${String(minutes).padStart(2, "0")}:${seconds.toFixed(1).padStart(4, "0")}`;
}

/** Local date-time, compact (browser locale). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function formatPercent(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return "—";
  return `${(p * 100).toFixed(p >= 0.995 || p < 0.01 ? 0 : 1)}%`;
}

export function formatSeconds(sec: number | undefined): string {
  if (sec === undefined || !Number.isFinite(sec)) return "—";
  return sec >= 60 ? `${Math.floor(sec / 60)}m ${Math.round(sec % 60)}s` : `${Number(sec.toFixed(1))}s`;
}
