import { globMatch, type RuleHit, type RuleWhen } from "../../lib/rules";
import type { Hit } from "../incidents/hits";

/** What a rule may ask about the source of a hit (a stream or a file). */
export interface RuleSource {
  kind: "stream" | "file";
  requestId: string;
  title: string | null;
  appId: string | null;
  eventId: string | null;
  tokenId: string | null;
}

/** An incident hit as a rule counts it: its category, level, score and the lists it matched. */
export function ruleHitOf(h: Hit): RuleHit {
  const ev = h.hit.evidence;
  const lists = new Set<string>();
  for (const w of ev.words) if (w.list) lists.add(w.list);
  if (ev.hashMatch?.list) lists.add(ev.hashMatch.list);
  if (ev.track?.list) lists.add(ev.track.list);
  return { itemId: `${h.media}:${h.hit.itemId}`, t: h.hit.t, label: h.label, level: h.hit.riskLevel === "REJECT" ? "REJECT" : "REVIEW", score: h.hit.score, lists: [...lists], mediaUrl: h.hit.mediaUrl };
}

const inList = (list: readonly string[] | undefined, v: string | null) => !list || (v !== null && list.some((x) => x.toLowerCase() === v.toLowerCase()));

/** The source part of a rule's `when` (kinds, appId, eventId, title and tokenId patterns). */
export function sourceMatches(when: RuleWhen, s: RuleSource): boolean {
  if (when.kinds && !when.kinds.includes(s.kind)) return false;
  if (!inList(when.appIds, s.appId) || !inList(when.eventIds, s.eventId)) return false;
  if (when.titlePattern && !globMatch(when.titlePattern, s.title ?? "")) return false;
  if (when.tokenIdPattern && !globMatch(when.tokenIdPattern, s.tokenId ?? "")) return false;
  return true;
}

/** The hit part of a rule's `when` (labels, levels, lists, minimum score). */
export function hitMatches(when: RuleWhen, h: RuleHit): boolean {
  if (when.labels && !when.labels.some((l) => l.toLowerCase() === h.label.toLowerCase())) return false;
  if (when.levels && !when.levels.includes(h.level)) return false;
  if (when.minScore !== undefined && h.score < when.minScore) return false;
  if (when.lists && !h.lists.some((l) => when.lists!.some((x) => x.toLowerCase() === l.toLowerCase()))) return false;
  return true;
}

/**
 * Sliding-window count over one source's matching hits (sorted or not): the first moment `count` of them lie within
 * `withinSec`, as the index of the hit that completes it, or -1. Used by the backtest; live evaluation counts in the store.
 */
export function windowFires(ts: number[], count: number, withinSec: number): number[] {
  const sorted = [...ts].sort((a, b) => a - b);
  const fires: number[] = [];
  let lastKey: number | null = null;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi] - sorted[lo] > withinSec) lo++;
    if (hi - lo + 1 >= count) {
      const key = windowKey(sorted[hi], withinSec);
      if (key !== lastKey) {
        fires.push(sorted[hi]);
        lastKey = key;
      }
    }
  }
  return fires;
}

/** A rule acts at most once per window of `withinSec` per source: the window a firing hit falls in. */
export const windowKey = (t: number, withinSec: number) => Math.floor(t / withinSec);
