const UNITS = ["B", "KB", "MB", "GB", "TB"];

/** 1536 → "1.5 KB" (powers of 1024, one decimal under 10 units). */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0) return "—";
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 || v >= 10 ? Math.round(v) : v.toFixed(1)} ${UNITS[u]}`;
}

/** 72 → "72 h", 0.5 → "30 min", 0.0003 → "1 s". */
export function formatHours(h: number): string {
  if (h >= 1) return `${Number(h.toFixed(2))} h`;
  if (h * 60 >= 1) return `${Number((h * 60).toFixed(1))} min`;
  return `${Math.max(1, Math.round(h * 3600))} s`;
}
