// Known-audio matching: a segment's fingerprint against the reference tracks of the requested lists.
import { compareFingerprints, fingerprintFile } from "./fingerprint";
import { AUDIO_POLICY, type ReferenceListName } from "./policy";
import type { ReferenceTrack, ReferenceTracks } from "./references";
import { DEFAULT_THRESHOLDS, type Thresholds } from "../settings/thresholds";
import type { AudioHit } from "./verdict";

const RULES = AUDIO_POLICY.known.lists;

/** Reference lists switched on by the requested types (ANTHEN → anthem, …). */
export function listsFor(types: ReadonlySet<string>): ReferenceListName[] {
  return (Object.keys(RULES) as ReferenceListName[]).filter((l) => types.has(RULES[l].type));
}

export interface KnownResult {
  hits: AudioHit[];
  /** raw fingerprint items of the segment (≈ 0.124 s each) */
  items: number;
  /** best score per compared entry, for diagnostics */
  best?: { list: string; entry: string; score: number; offsetSec: number };
}

/**
 * A segment's best alignment with a reference track: against its print and its prints at other playback speeds
 * (references.ts REFERENCE_SPEEDS). offsetSec is in the original track's time; `speed` is the copy's speed (1 = as is).
 */
export function compareWithTrack(segment: ArrayLike<number>, track: ReferenceTrack, minOverlap: number): { score: number; offsetSec: number; speed: number } {
  let best = { ...compareFingerprints(segment, track.fingerprint, { minOverlap }), speed: 1 };
  for (const v of track.variants ?? []) {
    const c = compareFingerprints(segment, v.fingerprint, { minOverlap });
    // the variant's time runs `speed` times faster than the original's
    if (c.score > best.score) best = { score: c.score, offsetSec: Math.round(c.offsetSec * v.speed * 100) / 100, speed: v.speed };
  }
  return best;
}

/** One hit per list: its best-scoring track when that reaches the list's run-time thresholds (`known:<list>`). */
export async function matchKnownAudio(wavPath: string, refs: ReferenceTracks, lists: readonly ReferenceListName[], o: { fpcalc: string; timeoutMs: number; thresholds?: Thresholds }): Promise<KnownResult> {
  const th = o.thresholds ?? DEFAULT_THRESHOLDS;
  const p = AUDIO_POLICY.known;
  const seg = await fingerprintFile(wavPath, { bin: o.fpcalc, timeoutMs: o.timeoutMs });
  const items = seg.fingerprint.length;
  // a short print (the stream's last seconds) scores high against anything by chance
  if (items < p.minSegmentItems) return { hits: [], items };
  const tracks = (await refs.list()).filter((t) => lists.includes(t.list));
  const bestPerList = new Map<ReferenceListName, { entry: string; score: number; offsetSec: number; speed: number }>();
  let best: KnownResult["best"];
  for (const [i, t] of tracks.entries()) {
    // a long reference list is compared in slices so the event loop keeps serving requests
    if (i % 20 === 19) await new Promise<void>((r) => setImmediate(r));
    const c = compareWithTrack(seg.fingerprint, t, p.minOverlapItems);
    if (!best || c.score > best.score) best = { list: t.list, entry: t.entry, ...c };
    const prev = bestPerList.get(t.list);
    if (th.level(`known:${t.list}`, c.score) && (!prev || c.score > prev.score)) bestPerList.set(t.list, { entry: t.entry, ...c });
  }
  const hits: AudioHit[] = [...bestPerList].map(([list, m]) => ({
    type: RULES[list].type,
    riskLevel: th.level(`known:${list}`, m.score) ?? RULES[list].riskLevel,
    labels: RULES[list].labels,
    probability: m.score,
    riskSource: p.riskSource,
    match: { list, entry: m.entry, offsetSec: m.offsetSec, score: m.score, ...(m.speed !== 1 ? { speed: m.speed } : {}) },
  }));
  return { hits, items, best };
}
