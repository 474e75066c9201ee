import fs from "node:fs";
/** Nearest-rank percentile of an ascending list, rounded to 0.1 ms. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

/** CPU seconds used so far by the service's ffmpeg live pullers (their command line writes frames to image2pipe). */
export function pullerCpuSec(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("image2pipe")) continue;
      const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* process ended */
    }
  }
  return ticks / 100;
}
