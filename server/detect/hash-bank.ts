// Prohibited-image hash bank: operators add images by list; workers match each frame's hashes against it.
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { cropHashes, frameHashes, hamming, type FrameHashes } from "./phash";
import { POLICY } from "./policy";
import { bumpStamp, checkEntryName, checkListName, entryFileName, readRecords, stampKey, writeJsonAtomic, writeQueue } from "./store";
import type { HashMatch, HashMatchMethod } from "./types";

/** One JSON file per entry: <dir>/<list>/<entryFileName(entry)> */
export interface HashRecord {
  list: string;
  entry: string;
  /** 64-bit pHash, 16 hex digits */
  hash: string;
  /** pHash of the image inside its uniform borders, when it has such borders */
  trimmedHash?: string;
  /** dHash of the image (and of its trimmed content); absent in records written before dHash matching */
  dhash?: string;
  trimmedDhash?: string;
  /** pHashes of 95 % / 90 % crops at 9 anchors (phash.ts#cropHashes); absent in older records */
  crops?: string[];
  source: string;
  addedAt: number;
}

export interface HashBank {
  readonly dir: string;
  /** Hash the image and store it as `entry` of `list` (replacing an entry of the same name). */
  add(list: string, entry: string, imagePath: string): Promise<{ hash: string }>;
  remove(list: string, entry: string): Promise<boolean>;
  list(): Promise<HashRecord[]>;
}

/** The bank in `dir`; list names are free slugs (a-z, 0-9, _ and -), e.g. "violent", "terror_flags". */
export function fileHashBank(dir: string): HashBank {
  const serial = writeQueue();
  const fileOf = (list: string, entry: string) => path.join(dir, list, entryFileName(entry));
  return {
    dir,
    async add(list, entry, imagePath) {
      checkListName(list);
      checkEntryName(entry);
      // ~20–60 ms of sharp work on libuv's pool: fine on the caller's thread
      const bytes = await readFile(imagePath);
      const [h, crops] = await Promise.all([frameHashes(bytes), cropHashes(bytes)]);
      const hash = h.full;
      return serial(async () => {
        const record: HashRecord = {
          list, entry, hash, ...(h.trimmed ? { trimmedHash: h.trimmed } : {}),
          dhash: h.variants!.full.dhash, ...(h.variants!.trimmed ? { trimmedDhash: h.variants!.trimmed.dhash } : {}),
          crops, source: path.basename(imagePath), addedAt: Date.now(),
        };
        await writeJsonAtomic(fileOf(list, entry), record);
        await bumpStamp(dir);
        return { hash };
      });
    },
    remove(list, entry) {
      checkListName(list);
      return serial(async () => {
        const file = fileOf(list, entry);
        const existed = await readFile(file).then(() => true, () => false);
        await rm(file, { force: true });
        if (existed) await bumpStamp(dir);
        return existed;
      });
    },
    async list() {
      const records = await readRecords<HashRecord>(dir);
      return records.sort((a, b) => a.list.localeCompare(b.list) || a.entry.localeCompare(b.entry));
    },
  };
}

/** Worker side: the bank as last read, reloaded when the stamp changed. */
export class HashBankReader {
  private key = "\0unread";
  private records: HashRecord[] = [];

  constructor(readonly dir: string) {}

  async refresh(): Promise<boolean> {
    const key = stampKey(this.dir);
    if (key === this.key) return false;
    const hex = (h: unknown) => typeof h === "string" && /^[0-9a-f]{16}$/.test(h);
    const opt = (h: unknown) => h === undefined || hex(h);
    this.records = (await readRecords<HashRecord>(this.dir)).filter((r) =>
      hex(r.hash) && opt(r.trimmedHash) && opt(r.dhash) && opt(r.trimmedDhash) && (r.crops === undefined || (Array.isArray(r.crops) && r.crops.every(hex))));
    this.key = key;
    return true;
  }

  get size(): number {
    return this.records.length;
  }

  /**
   * Nearest entry within maxDistance. The frame's hashes are compared with each entry's (the smallest Hamming distance
   * wins; on a tie the earlier method of METHOD_ORDER):
   * - phash: whole frame vs whole image, and either side inside its uniform borders (`trimmed`: a letterboxed frame
   *   matches its source, an image on a plain background matches however much of it shows);
   * - phash-mirror: the frame mirrored left to right, the same way;
   * - phash-crop: the frame vs the entry's 95 % / 90 % crops (a copy with up to 10 % of a side cut off anywhere);
   * - dhash / dhash-mirror: 9×8 difference hashes (a caption bar, watermark or colour shift moved pHash further).
   * A frame given only pHashes (`variants` absent) and an entry from before dHash / crops are matched on what both have.
   */
  match(hashes: FrameHashes, maxDistance: number = POLICY.hash.maxDistance, methods: ReadonlySet<HashMatchMethod> = ALL_METHODS): HashMatch | undefined {
    let best: HashMatch | undefined;
    const consider = (r: HashRecord, method: HashMatchMethod, trimmed: boolean, a: string | undefined, b: string | undefined) => {
      if (!a || !b || !methods.has(method)) return;
      const distance = hamming(a, b);
      if (distance > maxDistance) return;
      if (best && (distance > best.distance || (distance === best.distance && METHOD_ORDER.indexOf(method) >= METHOD_ORDER.indexOf(best.method!)))) return;
      best = { list: r.list, entry: r.entry, distance, method, ...(trimmed ? { trimmed: true } : {}) };
    };
    const v = hashes.variants;
    for (const r of this.records) {
      consider(r, "phash", false, hashes.full, r.hash);
      for (const [a, b] of [[hashes.trimmed, r.hash], [hashes.full, r.trimmedHash], [hashes.trimmed, r.trimmedHash]]) consider(r, "phash", true, a, b);
      if (!v) continue;
      consider(r, "phash-mirror", false, v.full.phashMirror, r.hash);
      for (const [a, b] of [[v.trimmed?.phashMirror, r.hash], [v.full.phashMirror, r.trimmedHash], [v.trimmed?.phashMirror, r.trimmedHash]]) consider(r, "phash-mirror", true, a, b);
      for (const c of r.crops ?? []) {
        consider(r, "phash-crop", false, v.full.phash, c);
        consider(r, "phash-crop", true, v.trimmed?.phash, c);
      }
      consider(r, "dhash", false, v.full.dhash, r.dhash);
      for (const [a, b] of [[v.trimmed?.dhash, r.dhash], [v.full.dhash, r.trimmedDhash], [v.trimmed?.dhash, r.trimmedDhash]]) consider(r, "dhash", true, a, b);
      consider(r, "dhash-mirror", false, v.full.dhashMirror, r.dhash);
      for (const [a, b] of [[v.trimmed?.dhashMirror, r.dhash], [v.full.dhashMirror, r.trimmedDhash], [v.trimmed?.dhashMirror, r.trimmedDhash]]) consider(r, "dhash-mirror", true, a, b);
    }
    return best;
  }
}

/** Tie order: the plainest explanation first. */
export const METHOD_ORDER: readonly HashMatchMethod[] = ["phash", "phash-mirror", "phash-crop", "dhash", "dhash-mirror"];
const ALL_METHODS: ReadonlySet<HashMatchMethod> = new Set(METHOD_ORDER);

export { frameHashes };
