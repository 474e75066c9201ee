import { peakOrder, type IncidentHit, type IncidentMedia } from "../../lib/incidents";
import type { RiskLevel } from "../../lib/dashboard-api";
import { LEVEL_RANK, type Hit } from "./hits";

/**
 * The incident rule: hits of one source, one medium (frames / audio) and one risk category (riskLabel1)
 * belong together while each starts at most `gapSec` after the previous one ended. PASS frames in between
 * do not split an incident (a detector missing one frame is not a new violation); unchecked frames count
 * for nothing either way.
 */

/** Whether a hit lies within `gapSec` of a span (either side: callbacks can arrive out of order). */
export function joinable(span: { start: number; end: number }, hit: Pick<IncidentHit, "t" | "endT">, gapSec: number): boolean {
  return hit.t <= span.end + gapSec && hit.endT >= span.start - gapSec;
}

/** The peak of two hits by the one peak order (lib/incidents.ts peakOrder): worse level, then higher score, then earlier; `a` on a tie. */
export function betterHit(a: IncidentHit, b: IncidentHit): IncidentHit {
  return peakOrder(b, a) < 0 ? b : a;
}

export interface Summary {
  start: number;
  end: number;
  hits: number;
  riskLevel: RiskLevel;
  labels: string[];
  peak: IncidentHit;
}

/** Span, worst level, labels seen (first seen first) and peak of a non-empty list of hits. */
export function summarize(hits: readonly IncidentHit[]): Summary {
  if (hits.length === 0) throw new Error("summarize: no hits");
  const labels: string[] = [];
  for (const h of hits) for (const l of h.labels) if (!labels.includes(l)) labels.push(l);
  return {
    start: Math.min(...hits.map((h) => h.t)),
    end: Math.max(...hits.map((h) => h.endT)),
    hits: hits.length,
    riskLevel: hits.reduce<RiskLevel>((w, h) => (LEVEL_RANK[h.riskLevel] > LEVEL_RANK[w] ? h.riskLevel : w), "REVIEW"),
    labels,
    peak: hits.reduce(betterHit),
  };
}

/** Adds one hit to a summary (the live path: no need to reload every hit). */
export function extend(s: Summary, h: IncidentHit): Summary {
  return {
    start: Math.min(s.start, h.t),
    end: Math.max(s.end, h.endT),
    hits: s.hits + 1,
    riskLevel: LEVEL_RANK[h.riskLevel] > LEVEL_RANK[s.riskLevel] ? h.riskLevel : s.riskLevel,
    labels: [...s.labels, ...h.labels.filter((l) => !s.labels.includes(l))],
    peak: betterHit(s.peak, h),
  };
}

export interface Group {
  media: IncidentMedia;
  label: string;
  members: Hit[];
  summary: Summary;
}

/** Groups the hits of one source (a whole file result) into incidents, in time order per medium and label. */
export function groupHits(hits: readonly Hit[], gapSec: number): Group[] {
  const byKey = new Map<string, Hit[]>();
  for (const h of hits) {
    const key = `${h.media}\u0000${h.label}`;
    byKey.set(key, [...(byKey.get(key) ?? []), h]);
  }
  const groups: Group[] = [];
  for (const list of byKey.values()) {
    const sorted = [...list].sort((a, b) => a.hit.t - b.hit.t || a.hit.endT - b.hit.endT);
    let current: Hit[] = [];
    let end = -Infinity;
    const close = () => {
      if (current.length) groups.push({ media: current[0].media, label: current[0].label, members: current, summary: summarize(current.map((m) => m.hit)) });
    };
    for (const h of sorted) {
      if (current.length && h.hit.t > end + gapSec) {
        close();
        current = [];
      }
      current.push(h);
      end = Math.max(current.length === 1 ? h.hit.endT : end, h.hit.endT);
    }
    close();
  }
  return groups.sort((a, b) => a.summary.start - b.summary.start);
}
