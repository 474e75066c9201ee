// Prohibited-image hash bank: operators add images by list; workers match each frame's pHash against it.
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { frameHashes, hamming } from "./phash";
import { POLICY } from "./policy";
import { bumpStamp, checkEntryName, checkListName, entryFileName, readRecords, stampKey, writeJsonAtomic, writeQueue } from "./store";
import type { HashMatch } from "./types";

/** One JSON file per entry: <dir>/<list>/<entryFileName(entry)> */
export interface HashRecord {
  list: string;
  entry: string;
  /** 64-bit pHash, 16 hex digits */
  hash: string;
  /** pHash of the image inside its uniform borders, when it has such borders */
  trimmedHash?: string;
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
      // pHash is ~5–20 ms of sharp work on libuv's pool: fine on the caller's thread
      const { full: hash, trimmed } = await frameHashes(await readFile(imagePath));
      return serial(async () => {
        const record: HashRecord = { list, entry, hash, ...(trimmed ? { trimmedHash: trimmed } : {}), source: path.basename(imagePath), addedAt: Date.now() };
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
    this.records = (await readRecords<HashRecord>(this.dir)).filter((r) => hex(r.hash) && (r.trimmedHash === undefined || hex(r.trimmedHash)));
    this.key = key;
    return true;
  }

  get size(): number {
    return this.records.length;
  }

  /**
   * Nearest entry within maxDistance. Each side is compared whole and, when it has uniform borders, inside them:
   * a letterboxed frame matches its source, and an image on a plain background matches however much of it shows.
   */
  match(hashes: { full: string; trimmed?: string }, maxDistance: number = POLICY.hash.maxDistance): HashMatch | undefined {
    let best: HashMatch | undefined;
    for (const r of this.records) {
      const d = hamming(hashes.full, r.hash);
      let dt = Infinity;
      for (const [a, b] of [[hashes.trimmed, r.hash], [hashes.full, r.trimmedHash], [hashes.trimmed, r.trimmedHash]]) if (a && b) dt = Math.min(dt, hamming(a, b));
      const distance = Math.min(d, dt);
      if (distance <= maxDistance && (!best || distance < best.distance)) {
        best = { list: r.list, entry: r.entry, distance, ...(dt < d ? { trimmed: true } : {}) };
      }
    }
    return best;
  }
}

export { frameHashes };
