// Soak sampling (tests/soak/run.ts): RSS and open descriptors of a process and everything under it (read from /proc),
// figures from /metrics, and the verdicts of issue #30 item 4 over the samples.
import { readdirSync, readFileSync } from "node:fs";

/** A process and every process under it (ffmpeg pulls; detector threads live inside the process). */
export function tree(root: number): number[] {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, "utf8"))![1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const walk = (p: number) => (out.push(p), (kids.get(p) ?? []).forEach(walk));
  walk(root);
  return out;
}

const safe = (f: () => number) => {
  try {
    return f();
  } catch {
    return 0; // the process is gone
  }
};
export const rssMb = (pid: number) => safe(() => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);
export const fds = (pid: number) => safe(() => readdirSync(`/proc/${pid}/fd`).length);

/** One process of the deployment at one sample: its own RSS and descriptors, and its children's RSS together. */
export interface ProcSample {
  rssMb: number;
  fds: number;
  childrenRssMb: number;
  children: number;
}

export function sampleProcess(pid: number): ProcSample {
  const pids = tree(pid);
  return { rssMb: round(rssMb(pid)), fds: fds(pid), childrenRssMb: round(pids.slice(1).reduce((a, p) => a + rssMb(p), 0)), children: pids.length - 1 };
}

/** Sum of every series of a counter or gauge in a /metrics text matching `re` (first group is the value). */
export const metricSum = (text: string, re: RegExp) => [...text.matchAll(re)].reduce((a, m) => a + Number(m[1]), 0);

export const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

export interface Sample {
  minute: number;
  /** by process name (node-1, worker-1, server, …) */
  procs: Record<string, ProcSample>;
  framesCaptured: number;
  framesNotChecked: number;
  callbacksPending: number;
  callbacksExhausted: number;
  callbacksReceived: number;
  dataDirMb: number;
  /** PostgreSQL: total size of the product's largest tables (MB); embedded: the PGlite folder's size */
  tablesMb: Record<string, number>;
}

export interface Limits {
  /** RSS growth allowed over the window after warm-up (0.10 = 10 %) */
  rssGrowth: number;
  /** descriptors a process may hold more at the end of the window than at its start (connections come and go) */
  fdSlack: number;
}

/**
 * The verdicts over the samples taken while the load ran (not the one after Close): the window is the run after its
 * first third (warm-up: models load, caches fill), i.e. the last 40 minutes of an hour. RSS growth compares the mean
 * of the window's first two samples with its last two (one sample's noise is not a trend).
 */
export function verdicts(samples: Sample[], limits: Limits, totals: { framesNotChecked: number; callbacksLost: number }) {
  const minutes = samples.at(-1)?.minute ?? 0;
  const window = samples.filter((s) => s.minute >= minutes / 3);
  const head = window.slice(0, 2);
  const tail = window.slice(-2);
  const mean = (xs: Sample[], f: (s: Sample) => number) => xs.reduce((a, s) => a + f(s), 0) / Math.max(1, xs.length);
  const perProcess: Record<string, { rssMbStart: number; rssMbEnd: number; rssGrowth: number | null; fdsStart: number; fdsEnd: number; fdGrowth: number }> = {};
  const names = Object.keys(samples[0]?.procs ?? {});
  for (const name of names) {
    const rss = (s: Sample) => (s.procs[name]?.rssMb ?? 0) + (s.procs[name]?.childrenRssMb ?? 0);
    const a = mean(head, rss);
    const b = mean(tail, rss);
    const fa = window[0]?.procs[name]?.fds ?? 0;
    const fb = window.at(-1)?.procs[name]?.fds ?? 0;
    perProcess[name] = { rssMbStart: round(a), rssMbEnd: round(b), rssGrowth: window.length >= 4 && a > 0 ? round((b - a) / a, 3) : null, fdsStart: fa, fdsEnd: fb, fdGrowth: fb - fa };
  }
  const rssOk = Object.values(perProcess).every((p) => p.rssGrowth !== null && p.rssGrowth <= limits.rssGrowth);
  const fdOk = Object.values(perProcess).every((p) => p.fdGrowth <= limits.fdSlack);
  return {
    windowMinutes: window.length ? [round(window[0].minute), round(window.at(-1)!.minute)] : null,
    perProcess,
    rssFlat: { pass: rssOk, rule: `RSS (process + its children) growth ≤ ${limits.rssGrowth * 100} % after warm-up (needs ≥ 4 samples in the window)` },
    noFdGrowth: { pass: fdOk, rule: `open descriptors at the end of the window ≤ at its start + ${limits.fdSlack}` },
    noUncheckedFrames: { pass: totals.framesNotChecked === 0, framesNotChecked: totals.framesNotChecked },
    noCallbackLost: { pass: totals.callbacksLost === 0, callbacksLost: totals.callbacksLost },
  };
}
