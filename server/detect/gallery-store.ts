// Face gallery records on disk, the worker-side reader (reloads when the stamp changes) and embedding matching.
import { POLICY } from "./policy";
import { readRecords, slugOf, stampKey } from "./store";
import type { GalleryMatch } from "./types";

export const GALLERY_LISTS = ["public_figures", "tainted_stars", "politicians"] as const;
export type GalleryList = (typeof GALLERY_LISTS)[number];

export interface GalleryReference {
  /** faceres descriptor of the reference face */
  embedding: number[];
  /** file name the reference came from (no folder) */
  source: string;
  location: [number, number, number, number];
  probability: number;
  addedAt: number;
}

/** One JSON file per entry: <dir>/<list>/<entryFileName(entry)> */
export interface GalleryRecord {
  list: GalleryList;
  entry: string;
  references: GalleryReference[];
}

interface LoadedEntry {
  list: GalleryList;
  entry: string;
  /** unit-length reference embeddings */
  refs: Float32Array[];
}

export function unitVector(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  const out = new Float32Array(v.length);
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? d / Math.sqrt(na * nb) : 0;
}

/** label3 for an entry: its slug, "***" when masked by policy or when the name has no ASCII letters. */
export function entryLabel(entry: string, mask: boolean = POLICY.gallery.maskPoliticianNames): string {
  return mask ? "***" : slugOf(entry) || "***";
}

/** Worker side: the gallery as last read, reloaded before a frame when the folder's stamp changed. */
export class GalleryReader {
  private key = "\0unread";
  private entries: LoadedEntry[] = [];

  constructor(readonly dir: string) {}

  /** Reload when the stamp changed; true when it did. */
  async refresh(): Promise<boolean> {
    const key = stampKey(this.dir);
    if (key === this.key) return false;
    const records = await readRecords<GalleryRecord>(this.dir);
    this.entries = records
      .filter((r) => (GALLERY_LISTS as readonly string[]).includes(r.list) && Array.isArray(r.references) && r.references.length > 0)
      .map((r) => ({ list: r.list, entry: r.entry, refs: r.references.map((x) => unitVector(x.embedding)) }));
    this.key = key;
    return true;
  }

  count(list: GalleryList): number {
    return this.entries.filter((e) => e.list === list).length;
  }

  /** Best entry of `lists` for this embedding (max over its references), when at or above minSimilarity. */
  match(embedding: ArrayLike<number>, lists: ReadonlySet<GalleryList>, minSimilarity: number = POLICY.gallery.minSimilarity): GalleryMatch | undefined {
    if (lists.size === 0 || this.entries.length === 0) return undefined;
    const q = unitVector(embedding);
    let best: GalleryMatch | undefined;
    for (const e of this.entries) {
      if (!lists.has(e.list)) continue;
      for (const r of e.refs) {
        if (r.length !== q.length) continue;
        let s = 0;
        for (let i = 0; i < q.length; i++) s += q[i] * r[i];
        if (s >= minSimilarity && (!best || s > best.similarity)) best = { list: e.list, entry: e.entry, similarity: Math.round(s * 1000) / 1000 };
      }
    }
    return best;
  }
}
